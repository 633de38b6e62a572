"""Creating campaigns, and the organizer's actions on them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns import versions
from campaigns.access import permissions, visibility
from campaigns.access.seats import ends_or_unseats_referee, seat_problem
from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.journal import engine
from campaigns.journal.records import Record
from campaigns.schema.fields import Field, clean_fields, clean_name

from ..errors import DomainError, Forbidden
from ..models import Campaign, Club, ClubLogEntry, Event, Notice
from ..systems import all_systems, get_system
from ..systems.base import GameSystem
from . import projections
from .journal import Submission, submit
from .snapshots import store_snapshot
from .state import current_state

DICE_MODE = Field(
    "dice_mode",
    "choice",
    label="Dice",
    choices=("server", "entered"),
    required=False,
    default="server",
    labels=(
        ("server", "Muster rolls them (secure random, every roll recorded)"),
        ("entered", "Players roll at the table and type in the faces"),
    ),
)


def option_fields(system: GameSystem) -> tuple[Field, ...]:
    return (DICE_MODE, *system.option_fields)


def create_campaign(
    *,
    club: Club,
    user: User,
    system: str,
    variant: str,
    name: str,
    options: dict[str, Any] | None = None,
) -> Campaign:
    if not permissions.may_start_campaign(user, club):
        raise Forbidden("Only a club organizer can start a campaign.")
    if system not in all_systems():
        raise DomainError("system", f"Unknown game system {system!r}.")
    game = get_system(system)
    try:
        game.variant(variant)
    except KeyError:
        raise DomainError("variant", f"{game.name} has no variant {variant!r}.") from None
    name = clean_name(name, "name", Campaign._meta.get_field("name").max_length)
    cleaned = clean_fields(option_fields(game), options or {}, prefix="options.")
    data = {"system": system, "variant": variant, "name": name, "options": cleaned}
    record = Record(
        seq=1,
        kind="campaign.created",
        data=data,
        actor=user.username,
        at=timezone.now().isoformat(),
        uid=str(uuid.uuid4()),
    )
    state = engine.apply_record(None, record, DicePool(), RefuseMissingDice())
    with transaction.atomic():
        campaign = Campaign.objects.create(
            club=club,
            system=system,
            variant=variant,
            name=name,
            created_by=user,
            journal_versions=versions.current(game),
            muster_release=versions.release(),
        )
        Event.objects.create(
            campaign=campaign,
            seq=1,
            uid=record.uid,
            kind=record.kind,
            data=data,
            actor=user,
            created_at=campaign.created_at,
        )
        store_snapshot(campaign, state)
        projections.refresh(campaign, state)
    return campaign


def assign_player(campaign: Campaign, user: User, *, side: str, username: str) -> Submission:
    _check_member(campaign, username)
    return _seat(campaign, user, "player.assigned", {"side": side, "username": username})


def remove_player(campaign: Campaign, user: User, *, side: str, username: str) -> Submission:
    return _seat(campaign, user, "player.removed", {"side": side, "username": username})


def replace_player(campaign: Campaign, user: User, *, side: str, old: str, new: str) -> Submission:
    _check_member(campaign, new)
    return _seat(campaign, user, "player.replaced", {"side": side, "old": old, "new": new})


def assign_referee(campaign: Campaign, user: User, *, username: str | None) -> Submission:
    if username:
        _check_member(campaign, username)
    return _seat(campaign, user, "referee.assigned", {"username": username or None})


def finish_campaign(campaign: Campaign, user: User, *, reason: str) -> Submission:
    """End the campaign: directly before the start, by the referee or by the club's neutral party
    (permissions.may_end_alone); anyone else who may organize proposes it (a "seat" proposal
    needing every other side's agreement, or the referee's)."""
    return _seat(campaign, user, "campaign.finished", {"reason": reason})


def _seat(campaign: Campaign, user: User, kind: str, data: dict[str, Any]) -> Submission:
    """Make a seat change directly, or, once play has started, propose it when it needs the
    agreement of the sides it reaches (seats.seat_needs: anyone seated on a side, a new
    referee, a side's player taken off by one who plays or played another), or when it ends the
    campaign or takes its referee off and the organizer may not do that alone
    (permissions.may_end_alone): the answer's first event is then the proposal
    (campaigns.access.seats.seat_problem)."""
    state = current_state(campaign)
    needs_agreement = seat_problem(state, kind, data, agreed=False, actor=user.username) is not None
    if not needs_agreement and ends_or_unseats_referee(state, kind, data):
        viewer = visibility.viewer_for(user, campaign)
        needs_agreement = viewer.organizer and not permissions.may_end_alone(
            campaign, state, viewer
        )
    if (
        needs_agreement
        and seat_problem(state, kind, data, agreed=True, actor=user.username) is None
    ):
        return submit(
            campaign,
            user,
            "proposal.made",
            {"action": "seat", "data": {"kind": kind, "data": data}},
        )
    return submit(campaign, user, kind, data)


def is_proposal(submission: object) -> bool:
    """Did a seating become a proposal (see _seat)?"""
    events: list[Event] | None = getattr(submission, "events", None)
    return bool(events) and events is not None and events[0].kind == "proposal.made"


def proposal_words(submission: Submission) -> str:
    """What a seating that became a proposal waits for, in words ("Blue agrees (or the referee)")."""
    state: dict[str, Any] = getattr(submission, "state", None) or {}
    proposal = state.get("proposals", {}).get(str(submission.events[0].seq), {})
    if proposal.get("status") == "applied":
        return "Done: everyone it needed had agreed."
    names = [
        state["sides"][s]["name"] for s in proposal.get("needs", []) if s in state.get("sides", {})
    ]
    if not names:
        return "Proposed: it applies once the referee agrees."
    agree = "agrees" if len(names) == 1 else "agree"
    what = "Proposed"
    change = proposal.get("data") if isinstance(proposal.get("data"), dict) else {}
    if change.get("kind") == "campaign.finished":
        what = "Proposed to end the campaign"
    elif change.get("kind") == "referee.assigned" and not (change.get("data") or {}).get(
        "username"
    ):
        what = "Proposed to take the referee off"
    return (
        f"{what}: it applies once {' and '.join(names)} {agree} (or the referee). Waiting for "
        f"{' and '.join(names)}'s agreement; you can withdraw it on the campaign page."
    )


def _check_member(campaign: Campaign, username: str) -> None:
    if not campaign.club.memberships.filter(user__username=username).exists():
        raise DomainError("username", f"{username} is not a member of {campaign.club.name}.")


# --- the club's books: archiving (never the journal's: no event, no journal version) ------------


def archive_campaign(campaign: Campaign, user: User) -> Campaign:
    """Take a campaign nobody plays out of the lists (permissions.archive_refusal says which):
    it stays readable and exportable, makes no notices while archived (its open ones are
    settled now), and is written to the club's log. Undone by restore_campaign."""
    with transaction.atomic():
        locked, viewer = visibility.campaign_and_viewer(user, campaign.pk, lock=True)
        refusal = permissions.archive_refusal(viewer, locked)
        if refusal is not None:
            if not viewer.organizer:
                raise Forbidden(refusal)
            raise DomainError("campaign", refusal)
        locked.archived_at, locked.archived_by = timezone.now(), user
        locked.save(update_fields=["archived_at", "archived_by"])
        Notice.objects.filter(campaign=locked, resolved_at=None).update(
            resolved_at=locked.archived_at
        )
        _log_books(locked, user, "campaign.archived")
    return locked


def restore_campaign(campaign: Campaign, user: User) -> Campaign:
    """Bring an archived campaign back to the lists (an organizer), as it was."""
    with transaction.atomic():
        locked, viewer = visibility.campaign_and_viewer(user, campaign.pk, lock=True)
        if not viewer.organizer:
            raise Forbidden("Only a club organizer can restore a campaign.")
        if not permissions.may_restore(viewer, locked):
            raise DomainError("campaign", "This campaign is not archived.")
        locked.archived_at, locked.archived_by = None, None
        locked.save(update_fields=["archived_at", "archived_by"])
        _log_books(locked, user, "campaign.restored")
    return locked


def _log_books(campaign: Campaign, user: User, action: str) -> None:
    ClubLogEntry.objects.create(
        club_id=campaign.club_id,
        actor=user,
        action=action,
        detail={"campaign": campaign.pk, "name": campaign.name},
    )


# --- a campaign like a past one ------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """What a past campaign gives a new one: its game, variant, options, house rules (key ->
    value and note) and seats (side, username) and referee, the people only while still members."""

    system: str
    variant: str
    name: str
    options: dict[str, Any]
    house_rules: dict[str, tuple[Any, str]] = field(default_factory=dict)
    seats: tuple[tuple[str, str], ...] = ()
    referee: str | None = None


def template_of(source: Campaign, user: User) -> Template:
    """The template of `source` for an organizer of its club (Forbidden otherwise), read from
    the organizer's own cut of its state: house rules, seats and options are public."""
    source, viewer = visibility.campaign_and_viewer(user, source.pk)
    if not permissions.may_start_campaign(user, source.club):
        raise Forbidden("Only a club organizer can start a campaign.")
    state = visibility.view_state(current_state(source), viewer)
    members = set(
        source.club.memberships.filter(user__is_active=True).values_list(
            "user__username", flat=True
        )
    )
    seats = tuple(
        (slug, name)
        for slug, side in state["sides"].items()
        for name in side["players"]
        if name in members
    )
    rules = {k: (r["value"], r.get("note") or "") for k, r in state["house_rules"].items()}
    referee = state["referee"] if state["referee"] in members else None
    options = dict(state.get("options") or {})
    return Template(source.system, source.variant, source.name, options, rules, seats, referee)


def create_like(
    *,
    source: Campaign,
    user: User,
    name: str,
    variant: str,
    options: dict[str, Any] | None,
    house_rules: list[str],
    seats: list[tuple[str, str]],
    referee: str | None,
) -> Campaign:
    """A new campaign of `source`'s game in the same club, with the house rules of `source` named
    in `house_rules`, and `seats` and `referee` seated by the normal seating path (the setup
    page's: every seat rule holds). All of it, or nothing: a refusal names its field."""
    template = template_of(source, user)
    unknown = [key for key in house_rules if key not in template.house_rules]
    if unknown:
        raise DomainError("house_rules", f"{source.name} has no house rule {unknown[0]!r}.")
    with transaction.atomic():
        campaign = create_campaign(
            club=source.club,
            user=user,
            system=template.system,
            variant=variant,
            name=name,
            options=options,
        )
        for key in house_rules:
            value, note = template.house_rules[key]
            submit(campaign, user, "house_rule.set", {"key": key, "value": value, "note": note})
        for side, username in seats:
            assign_player(campaign, user, side=side, username=username)
        if referee:
            assign_referee(campaign, user, username=referee)
    campaign.refresh_from_db()
    return campaign
