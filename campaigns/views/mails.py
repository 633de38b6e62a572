"""E-mail of notices: the person's settings page (address and its confirmation, the default,
each campaign's choice), a campaign's "mails for this campaign", confirming an address from its
link, and unsubscribing from a mail without signing in (a GET shows a button; a POST, the button
or a mail program's RFC 8058 one-click, acts)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from campaigns.access import visibility
from campaigns.errors import DomainError
from campaigns.mails import addresses, choices, unsubscribe as unsubscribing
from campaigns.models import Campaign, MailChoice
from campaigns.push import keys as push_keys, subscriptions as push_subscriptions

from .common import AuthenticatedHttpRequest, done, page


class AddressForm(forms.Form):
    email = forms.EmailField(label="E-mail address", required=False)


def _campaigns(request: AuthenticatedHttpRequest) -> list[dict[str, object]]:
    """The campaigns the person plays or referees, with their choice for each."""
    user = request.user
    seated = visibility.campaigns_for(user).filter(
        sides__memberships__user=user
    ) | visibility.campaigns_for(user).filter(referee=user)
    return [
        {"campaign": c, "choice": choices.choice_for(user.pk, c.pk)}
        for c in seated.distinct().order_by("name")[:100]
    ]


def _settings_context(request: AuthenticatedHttpRequest, form: AddressForm) -> dict[str, object]:
    user = request.user
    return {
        "form": form,
        "confirmed": addresses.confirmed_address(user) is not None,
        "default": choices.default_of(user.pk),
        "choices": MailChoice.choices,
        "campaigns": _campaigns(request),
        "push": {
            "on": push_keys.configured(),
            "public_key": push_keys.public_key(),
            "devices": push_subscriptions.devices_of(user),
            "max": push_subscriptions.MAX_PER_PERSON,
        },
    }


@page
@require_http_methods(["GET", "POST"])
def mail_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    user, action = request.user, request.POST.get("action")
    form = AddressForm(request.POST if action == "address" else None, initial={"email": user.email})
    if action == "address" and form.is_valid():
        if addresses.set_address(user=user, email=form.cleaned_data["email"]):
            messages.info(request, "A link to confirm the address was mailed to it.")
        return done(request, reverse("mail-settings"))
    if action == "resend" and user.email and not addresses.confirmed_address(user):
        addresses.ask_to_confirm(user.pk)
        messages.info(request, "The link to confirm your address was mailed again.")
        return done(request, reverse("mail-settings"))
    try:
        if action == "default":
            choices.set_default(user=user, choice=request.POST.get("choice", ""))
        elif action == "campaign":
            campaign = visibility.get_campaign_for(user, request.POST.get("campaign"))
            choices.set_choice(user=user, campaign=campaign, choice=request.POST.get("choice", ""))
    except DomainError as error:
        messages.error(request, error.message)
    if action in ("default", "campaign"):
        return done(request, reverse("mail-settings"))
    status = 400 if form.errors else 200
    return render(request, "mails/settings.html", _settings_context(request, form), status=status)


@page
@require_http_methods(["GET", "POST"])
def campaign_mails(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Mails for this campaign: the person's choice for it."""
    campaign: Campaign = visibility.get_campaign_for(request.user, pk)
    if request.method == "POST":
        try:
            choices.set_choice(
                user=request.user, campaign=campaign, choice=request.POST.get("choice", "")
            )
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Your mails for this campaign are set.")
            return done(request, reverse("campaign", args=[campaign.pk]))
    context = {
        "campaign": campaign,
        "choice": choices.choice_for(request.user.pk, campaign.pk),
        "choices": MailChoice.choices,
        "confirmed": addresses.confirmed_address(request.user) is not None,
    }
    return render(request, "mails/campaign.html", context)


@csrf_exempt  # a mail program's one-click POST has no session and no CSRF token (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, signed: str) -> HttpResponseBase:
    found = unsubscribing.read(signed)
    if found is None:
        return render(request, "mails/unsubscribe.html", {"invalid": True}, status=404)
    context: dict[str, object] = {"name": unsubscribing.campaign_name(found), "token": signed}
    if request.method == "POST":
        unsubscribing.apply(found)
        context["done"] = True
    return render(request, "mails/unsubscribe.html", context)


@require_http_methods(["GET", "POST"])
def confirm_address(request: HttpRequest, signed: str) -> HttpResponse:
    """The link of a confirmation mail: a GET shows a button (scanners follow links), the POST
    confirms (no sign-in needed: the token names the person and the address)."""
    if request.method == "POST":
        user = addresses.confirm_token(signed)
        status = 200 if user else 400
        return render(request, "mails/confirm.html", {"done": user is not None}, status=status)
    return render(request, "mails/confirm.html", {"token": signed})
