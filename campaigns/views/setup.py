"""Starting a campaign: choose a system and variant, then the organizer's setup
page (players on sides, referee, house rules, start) which also serves later for
replacing players and ending the campaign."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import permissions, visibility
from campaigns.errors import DomainError, Forbidden
from campaigns.forms import (
    FinishForm,
    HouseRuleForm,
    LikeCampaignForm,
    NewCampaignForm,
    PlayerForm,
    RefereeForm,
    ReplaceForm,
    house_rule_tables,
)
from campaigns.journal.records import Viewer
from campaigns.models import Campaign, Club
from campaigns.selectors.campaign_page import campaign_for, campaign_page
from campaigns.selectors.clubs import members_of
from campaigns.selectors.house_rules_shown import house_rule_labels
from campaigns.services import campaigns as campaign_services
from campaigns.services.journal import Submission, submit
from campaigns.systems import all_systems

from .common import AuthenticatedHttpRequest, done, page

# An organizer's action on the setup page: the campaign and the form's cleaned data in, what the
# journal took (an event, or a proposal when the campaign is in play) out.
SetupAction = Callable[[Campaign, dict[str, Any]], Submission]


def _organizer_club(request: AuthenticatedHttpRequest, slug: str) -> Club:
    club = visibility.get_club_for(request.user, slug)
    if not permissions.may_start_campaign(request.user, club):
        raise Forbidden("Only a club organizer can start a campaign.")
    return club


@page
def campaign_new_choose(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _organizer_club(request, slug)
    systems = sorted(all_systems().values(), key=lambda s: s.name)
    return render(request, "campaigns/new_choose.html", {"club": club, "systems": systems})


@page
def campaign_new(request: AuthenticatedHttpRequest, slug: str, system: str) -> HttpResponse:
    club = _organizer_club(request, slug)
    game = all_systems().get(system)
    if game is None:
        raise Http404("No such game system.")
    fields = campaign_services.option_fields(game)
    form = NewCampaignForm(game, fields, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_services.create_campaign(
                club=club,
                user=request.user,
                system=game.slug,
                variant=form.cleaned_data["variant"],
                name=form.cleaned_data["name"],
                options=form.event_data(),
            )
        except DomainError as error:
            form.add_domain_error(error.field.removeprefix("options."), error.message)
        else:
            messages.success(
                request, f"{campaign.name} is set up: put players on the sides, then start it."
            )
            return done(request, reverse("campaign-setup", args=[campaign.pk]))
    status = 400 if form.errors else 200
    return render(
        request, "campaigns/new.html", {"club": club, "system": game, "form": form}, status=status
    )


# --- the setup page ---------------------------------------------------------------------


def _organizer_campaign(request: AuthenticatedHttpRequest, pk: int) -> tuple[Campaign, Viewer]:
    campaign, viewer = campaign_for(request.user, pk)
    if not permissions.may_organize(viewer):
        raise Forbidden("Only a club organizer can change a campaign's setup.")
    return campaign, viewer


def _setup_context(
    request: AuthenticatedHttpRequest, campaign: Campaign, viewer: Viewer, **forms: Form | str
) -> dict[str, object]:
    """The setup page's context; `forms` are the posted forms shown again with their errors
    (by their context name), or "setup_error", a refusal without a form."""
    page_data = campaign_page(campaign, viewer)
    state = page_data.state
    system = all_systems()[campaign.system]
    members = members_of(campaign.club)
    sides = [(slug, side["name"]) for slug, side in state["sides"].items()]
    seated = {name for side in state["sides"].values() for name in side["players"]}
    free = [m for m in members if m not in seated and m != state["referee"]]
    table = request.GET.get("rule_table") or None
    return {
        "campaign": campaign,
        "viewer": viewer,
        "state": state,
        "system": system,
        "rule_tables": house_rule_tables(system),
        "rule_table": table,
        "book_labels": house_rule_labels(system),
        "player_form": forms.get("player_form") or PlayerForm(sides=sides, members=free),
        "replace_form": forms.get("replace_form")
        or ReplaceForm(sides=sides, members=free, players=sorted(seated)),
        "referee_form": forms.get("referee_form")
        or RefereeForm(
            members=[m for m in members if m not in seated],
            initial={"username": state["referee"] or ""},
        ),
        "house_rule_form": forms.get("house_rule_form")
        or (HouseRuleForm(system=system, table=table) if table else None),
        "finish_form": forms.get("finish_form") or FinishForm(),
        "setup_error": forms.get("setup_error"),
    }


@page
def campaign_setup(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, viewer = _organizer_campaign(request, pk)
    return render(request, "campaigns/setup.html", _setup_context(request, campaign, viewer))


def _apply(
    request: AuthenticatedHttpRequest,
    pk: int,
    form_name: str,
    form: Form | None,
    action: SetupAction,
    success: str,
    to: str = "campaign-setup",
) -> HttpResponse:
    """Run one organizer action; a refusal shows the setup page again with the error."""
    campaign, viewer = _organizer_campaign(request, pk)
    if form is not None and not form.is_valid():
        return render(
            request,
            "campaigns/setup.html",
            _setup_context(request, campaign, viewer, **{form_name: form}),
            status=400,
        )
    try:
        result = action(campaign, form.cleaned_data if form is not None else {})
    except DomainError as error:
        extra: dict[str, Form | str]
        if form is not None:
            form.add_error(error.field if error.field in form.fields else None, error.message)
            extra = {form_name: form}
        else:
            extra = {"setup_error": error.message}
        return render(
            request,
            "campaigns/setup.html",
            _setup_context(request, campaign, viewer, **extra),
            status=400,
        )
    if campaign_services.is_proposal(result):  # in play, a seat change needs the sides' agreement
        success = campaign_services.proposal_words(result)
    messages.success(request, success)
    return done(request, reverse(to, args=[campaign.pk]))


def _sides_and_members(
    request: AuthenticatedHttpRequest, pk: int
) -> tuple[list[tuple[str, str]], list[str]]:
    campaign, _ = _organizer_campaign(request, pk)
    state_sides = campaign_page(campaign, visibility.viewer_for(request.user, campaign)).state[
        "sides"
    ]
    return [(slug, s["name"]) for slug, s in state_sides.items()], members_of(campaign.club)


def _players(request: AuthenticatedHttpRequest, pk: int) -> list[str]:
    campaign, _ = _organizer_campaign(request, pk)
    sides = campaign_page(campaign, visibility.viewer_for(request.user, campaign)).state["sides"]
    return sorted(name for side in sides.values() for name in side["players"])


@page
@require_POST
def player_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sides, members = _sides_and_members(request, pk)
    form = PlayerForm(request.POST, sides=sides, members=members)
    return _apply(
        request,
        pk,
        "player_form",
        form,
        lambda c, d: campaign_services.assign_player(
            c, request.user, side=d["side"], username=d["username"]
        ),
        "Player assigned.",
    )


@page
@require_POST
def player_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sides, members = _sides_and_members(request, pk)
    form = PlayerForm(request.POST, sides=sides, members=members)
    return _apply(
        request,
        pk,
        "player_form",
        form,
        lambda c, d: campaign_services.remove_player(
            c, request.user, side=d["side"], username=d["username"]
        ),
        "Player taken off the side.",
    )


@page
@require_POST
def player_replace(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    sides, members = _sides_and_members(request, pk)
    form = ReplaceForm(request.POST, sides=sides, members=members, players=_players(request, pk))
    return _apply(
        request,
        pk,
        "replace_form",
        form,
        lambda c, d: campaign_services.replace_player(
            c, request.user, side=d["side"], old=d["old"], new=d["new"]
        ),
        "Player replaced.",
    )


@page
@require_POST
def referee_set(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    _, members = _sides_and_members(request, pk)
    form = RefereeForm(request.POST, members=members)
    return _apply(
        request,
        pk,
        "referee_form",
        form,
        lambda c, d: campaign_services.assign_referee(
            c, request.user, username=d["username"] or None
        ),
        "Referee set.",
    )


@page
@require_POST
def house_rule_set(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, _ = _organizer_campaign(request, pk)
    form = HouseRuleForm(request.POST, system=all_systems()[campaign.system])
    return _apply(
        request,
        pk,
        "house_rule_form",
        form,
        lambda c, d: submit(
            c,
            request.user,
            "house_rule.set",
            {"key": d["key"].strip(), "value": d["value"], "note": d["note"]},
        ),
        "House rule recorded.",
    )


@page
@require_POST
def campaign_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        # Starting cannot be taken back: the organizer sees the sides, the referee and the house rules first.
        campaign, viewer = _organizer_campaign(request, pk)
        return render(
            request, "campaigns/start_confirm.html", _setup_context(request, campaign, viewer)
        )
    return _apply(
        request,
        pk,
        "",
        None,
        lambda c, d: submit(c, request.user, "campaign.started"),
        "The campaign has started.",
        to="campaign",
    )


@page
@require_POST
def campaign_finish(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    form = FinishForm(request.POST)
    return _apply(
        request,
        pk,
        "finish_form",
        form,
        lambda c, d: campaign_services.finish_campaign(c, request.user, reason=d["reason"]),
        "The campaign has ended.",
        to="campaign",
    )


# --- the club's books: archive and restore ------------------------------------------------------


@page
@require_POST
def campaign_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Archive a campaign nobody plays (permissions.archive_refusal); a refusal is said on the
    setup page (400)."""
    campaign, viewer = _organizer_campaign(request, pk)
    try:
        campaign_services.archive_campaign(campaign, request.user)
    except DomainError as error:
        context = _setup_context(request, campaign, viewer, setup_error=error.message)
        return render(request, "campaigns/setup.html", context, status=400)
    messages.success(
        request,
        f"{campaign.name} is archived: out of the lists, still readable. "
        "You can restore it from its page or the club's page.",
    )
    return done(request, reverse("campaign", args=[campaign.pk]))


@page
@require_POST
def campaign_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Bring an archived campaign back to the lists."""
    campaign, viewer = _organizer_campaign(request, pk)
    try:
        campaign_services.restore_campaign(campaign, request.user)
    except DomainError as error:
        context = _setup_context(request, campaign, viewer, setup_error=error.message)
        return render(request, "campaigns/setup.html", context, status=400)
    messages.success(request, f"{campaign.name} is back in the lists.")
    return done(request, reverse("campaign", args=[campaign.pk]))


# --- a campaign like a past one ----------------------------------------------------------------


def _like_form(
    request: AuthenticatedHttpRequest, source: Campaign, template: campaign_services.Template
) -> LikeCampaignForm:
    game = all_systems()[source.system]
    labels = house_rule_labels(game)
    sides = {side.slug: side.name for side in game.sides}
    initial = {
        **template.options,
        "name": f"{template.name} (again)"[:120],
        "variant": template.variant,
        "house_rules": list(template.house_rules),
        "seats": [f"{side}:{name}" for side, name in template.seats],
        "referee": template.referee or "",
    }
    return LikeCampaignForm(
        game,
        campaign_services.option_fields(game),
        request.POST or None,
        initial=initial,
        rules=[
            (key, f"{labels.get(key, key)}: {value}")
            for key, (value, _) in template.house_rules.items()
        ],
        seats=[
            (f"{side}:{name}", f"{name} plays {sides.get(side, side)}")
            for side, name in template.seats
        ],
        members=members_of(source.club),
    )


@page
def campaign_like(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Start a campaign like this one: the form pre-filled from it, every part editable; made
    through the normal paths (create, house rules, seating), all or nothing."""
    source, _ = campaign_for(request.user, pk)
    template = campaign_services.template_of(source, request.user)
    form = _like_form(request, source, template)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_services.create_like(
                source=source,
                user=request.user,
                name=form.cleaned_data["name"],
                variant=form.cleaned_data["variant"],
                options=form.event_data(),
                house_rules=form.cleaned_data["house_rules"],
                seats=form.seat_pairs(),
                referee=form.cleaned_data["referee"] or None,
            )
        except DomainError as error:
            field = error.field.removeprefix("options.")
            form.add_error(field if field in form.fields else None, error.message)
        else:
            messages.success(
                request, f"{campaign.name} is set up like {source.name}: check it, then start it."
            )
            return done(request, reverse("campaign-setup", args=[campaign.pk]))
    context = {"club": source.club, "source": source, "form": form}
    status = 400 if form.errors else 200
    return render(request, "campaigns/new_like.html", context, status=status)
