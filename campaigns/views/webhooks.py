"""A club's webhooks, its organizers' settings page: add, change, remove, a new secret (shown once,
on the answer to the post that made it), a test post, and each webhook's last deliveries."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import visibility
from campaigns.errors import DomainError
from campaigns.forms import WebhookForm
from campaigns.models import Club, Webhook
from campaigns.webhooks import organizer

from .common import AuthenticatedHttpRequest, done, page


def _page(
    request: AuthenticatedHttpRequest,
    club: Club,
    *,
    add_form: WebhookForm | None = None,
    editing: tuple[int, WebhookForm] | None = None,
    secret: tuple[Webhook, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    hooks = organizer.shown(user=request.user, club=club)
    forms = {
        s.webhook.pk: WebhookForm(
            initial={"url": s.webhook.url, "format": s.webhook.format}, prefix=f"w{s.webhook.pk}"
        )
        for s in hooks
    }
    if editing is not None:
        forms[editing[0]] = editing[1]
    context = {
        "club": club,
        "hooks": [(s, forms[s.webhook.pk]) for s in hooks],
        "add_form": add_form or WebhookForm(prefix="new"),
        "secret": secret,
        "full": len(hooks) >= organizer.MAX_PER_CLUB,
        "site_url": settings.SITE_URL.rstrip("/"),
    }
    return render(request, "clubs/webhooks.html", context, status=status)


def _errors(form: WebhookForm, error: DomainError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@page
def webhook_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    if request.method != "POST":
        return _page(request, club)
    form = WebhookForm(request.POST, prefix="new")
    if form.is_valid():
        data = form.cleaned_data
        try:
            hook = organizer.add(
                user=request.user, club=club, url=data["url"], format_=data["format"]
            )
        except DomainError as error:
            _errors(form, error)
        else:
            return _page(request, club, secret=(hook, hook.secret))
    return _page(request, club, add_form=form, status=400)


@page
@require_POST
def webhook_change(request: AuthenticatedHttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    hook = organizer.webhook_of(user=request.user, club=club, webhook_id=webhook_id)
    form = WebhookForm(request.POST, prefix=f"w{hook.pk}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            organizer.change(
                user=request.user, webhook=hook, url=data["url"], format_=data["format"]
            )
        except DomainError as error:
            _errors(form, error)
        else:
            messages.success(request, "Webhook saved.")
            return _back(request, club)
    return _page(request, club, editing=(hook.pk, form), status=400)


@page
@require_POST
def webhook_remove(request: AuthenticatedHttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    hook = organizer.webhook_of(user=request.user, club=club, webhook_id=webhook_id)
    organizer.remove(user=request.user, webhook=hook)
    messages.success(request, "Webhook removed: nothing more is posted to it.")
    return _back(request, club)


@page
@require_POST
def webhook_secret(request: AuthenticatedHttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    hook = organizer.webhook_of(user=request.user, club=club, webhook_id=webhook_id)
    return _page(
        request, club, secret=(hook, organizer.new_secret(user=request.user, webhook=hook))
    )


@page
@require_POST
def webhook_test(request: AuthenticatedHttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    hook = organizer.webhook_of(user=request.user, club=club, webhook_id=webhook_id)
    organizer.send_test(user=request.user, webhook=hook)
    messages.success(request, "A test is on its way: its delivery shows below in a moment.")
    return _back(request, club)


@page
@require_POST
def webhook_retry(
    request: AuthenticatedHttpRequest, slug: str, webhook_id: int, delivery_id: int
) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    hook = organizer.webhook_of(user=request.user, club=club, webhook_id=webhook_id)
    organizer.send_again(user=request.user, webhook=hook, delivery_id=delivery_id)
    messages.success(request, "Sent again.")
    return _back(request, club)


def _back(request: AuthenticatedHttpRequest, club: Club) -> HttpResponse:
    return done(request, reverse("webhooks", args=[club.slug]))
