"""The club page (members, invitations, campaigns) and the organizer's actions."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import visibility
from campaigns.errors import DomainError, Forbidden, NotFound, TooMany
from campaigns.forms import HandOverForm, InvitationForm, RoleForm
from campaigns.models import Club
from campaigns.selectors.clubs import (
    club_campaigns as club_campaigns_page,
    club_invitations,
    club_page,
    members_of,
)
from campaigns.services import clubs as club_services

from .common import AuthenticatedHttpRequest, done, page, page_number, pager_of

CLUB_PAGE = 50  # campaigns on a page of the club's campaigns


def _context(
    request: AuthenticatedHttpRequest,
    club: Club,
    *,
    invite_form: InvitationForm | None = None,
    hand_over_form: HandOverForm | None = None,
    role_error: str | None = None,
) -> dict[str, object]:
    shown = club_page(request.user, club)
    others = [m.user.username for m in shown.members if m.user_id != request.user.pk]
    return {
        "club": club,
        "page": shown,
        "is_organizer": shown.role == "organizer",
        "site_url": settings.SITE_URL.rstrip("/"),
        "invite_form": invite_form or InvitationForm(),
        "hand_over_form": hand_over_form or HandOverForm(members=others),
        "role_error": role_error,
    }


@page
def club_campaigns(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """All the club's campaigns, CLUB_PAGE at a time (``?page=``), with their standings and
    comparisons; a page number past the last shows the last."""
    club = visibility.get_club_for(request.user, slug)
    number = page_number(request)
    shown, count = club_campaigns_page(request.user, club, number, CLUB_PAGE)
    pager = pager_of(shown.campaigns + shown.archived, number, count, CLUB_PAGE)
    return render(request, "clubs/campaigns.html", {"club": club, "page": shown, "pager": pager})


@page
def club_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    return render(request, "clubs/detail.html", _context(request, club))


def _back(request: AuthenticatedHttpRequest, club: Club) -> HttpResponse:
    return done(request, reverse("club", args=[club.slug]))


@page
@require_POST
def invitation_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitation = club_services.invite(
                club=club,
                user=request.user,
                role=form.cleaned_data["role"],
                email=form.cleaned_data["email"],
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        except TooMany as error:
            form.add_error(None, error.message)
            response = render(
                request, "clubs/detail.html", _context(request, club, invite_form=form), status=429
            )
            response["Retry-After"] = str(error.retry_after)
            return response
        else:
            link = settings.SITE_URL.rstrip("/") + reverse("join", args=[invitation.code])
            if invitation.email:
                messages.success(
                    request,
                    f"Invitation created: it is being e-mailed to {invitation.email}. "
                    f"Its link, should you also want to send it yourself: {link}",
                )
            else:
                messages.success(request, f"Invitation created. Send this link: {link}")
            return _back(request, club)
    return render(
        request, "clubs/detail.html", _context(request, club, invite_form=form), status=400
    )


@page
@require_POST
def invitation_revoke(
    request: AuthenticatedHttpRequest, slug: str, invitation_id: int
) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    invitation = club_invitations(user=request.user, club=club).filter(pk=invitation_id).first()
    if invitation is None:
        raise NotFound("invitation")
    club_services.revoke_invitation(invitation=invitation, user=request.user)
    messages.success(request, "Invitation withdrawn: its link no longer works.")
    return _back(request, club)


@page
@require_POST
def member_role(request: AuthenticatedHttpRequest, slug: str, username: str) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            club_services.set_role(
                club=club,
                user=request.user,
                member_username=username,
                role=form.cleaned_data["role"],
            )
        except DomainError as error:
            return render(
                request,
                "clubs/detail.html",
                _context(request, club, role_error=f"{username}: {error.message}"),
                status=400,
            )
        messages.success(request, f"{username} is now {form.cleaned_data['role']}.")
        return _back(request, club)
    return render(
        request,
        "clubs/detail.html",
        _context(request, club, role_error="Choose organizer or player."),
        status=400,
    )


@page
@require_POST
def hand_over(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = visibility.get_club_for(request.user, slug)
    if not visibility.is_organizer(request.user, club):
        raise Forbidden("Only a club organizer can hand the role over.")
    others = [m for m in members_of(club) if m != request.user.username]
    form = HandOverForm(request.POST, members=others)
    if form.is_valid():
        try:
            club_services.hand_over_organizer(
                club=club, user=request.user, to_username=form.cleaned_data["username"]
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, f"{form.cleaned_data['username']} is now the organizer; you are a player."
            )
            return _back(request, club)
    return render(
        request, "clubs/detail.html", _context(request, club, hand_over_form=form), status=400
    )
