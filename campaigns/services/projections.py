"""Rebuild the queryable projections of a campaign from its state.

Campaign.status/referee/last_seq, Side, SidePlayer and Scenario rows are never
edited by hand: after every change to the journal they are made to match the
folded state again. Each change that moves an audience's position also writes the notices'
outbox row (campaigns.notices.outbox), in the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState, SideSeats, plain
from campaigns.kept_answers import audiences
from campaigns.notices import outbox as notice_outbox
from campaigns.webhooks import outbox as webhook_outbox
from rosters import projection as roster_projection

from ..models import Campaign, Scenario, Side, SidePlayer
from ..systems import get_system

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from ..systems.base import GameSystem


def refresh(
    campaign: Campaign,
    state: CampaignState,
    *,
    public_change: bool = True,
    before: CampaignState | None = None,
    added: Sequence[Record] = (),
    part_digests: dict[str, str] | None = None,
    part_digests_before: dict[str, str] | None = None,
) -> None:
    """`public_change`: the change includes an event every member can read. Only then does
    `updated_at` (lists order by it) move: a side's hidden step must not move its campaign
    up the other side's dashboard.

    `before` (the state the change was folded onto) and `added` (its records): only what differs
    between the two states is written, without reading the rows, when the stored projections are
    known to be `before`'s as this code draws them (``_projected``); otherwise every row is
    read and compared. `part_digests`: the digest of each side's part of `state`, where known;
    `part_digests_before`: of `before`'s, as stored. Every one the same, a game whose roster
    reads only them (``roster_from_side_parts``) has the same roster: its rows are left alone."""
    stored = campaign.positions or {}
    if before is None or not _projected(stored, before):
        before, newest = None, None
    else:
        newest = dict(stored["newest"])
        for record in added:
            newest[f"{record.audience}|{record.side}"] = record.seq
    system = get_system(state["system"])
    entries = system.roster(plain(state)) if state.get("game") is not None else []
    summaries = _summaries(system, state)
    people_changed = before is None or _people(before) != _people(state)
    users = _users(state) if people_changed else {}
    was = campaign.status
    campaign.status = state["status"]
    if people_changed:
        campaign.referee = users.get(state["referee"]) if state["referee"] else None
    campaign.last_seq = state["seq"]
    if public_change:
        campaign.updated_at = timezone.now()
    campaign.positions = audiences.positions(
        campaign,
        state,
        newest=newest,
        roster=entries,
        summaries=summaries,
        part_digests=part_digests,
    )
    campaign.positions["projected"] = audiences.BUILD
    # In this transaction, with the campaign's row: notices are never lost.
    notice_outbox.save_noting_change(
        campaign, stored, ["status", "referee", "last_seq", "updated_at", "positions"]
    )
    if people_changed:
        _refresh_sides(campaign, state, users)
    played = _refresh_scenarios(campaign, state, summaries, before)
    # In this transaction too: the club's webhooks hear of its public events once (never lost).
    webhook_outbox.note_campaign(campaign, state, was=was, played=played)
    if before is not None and _same_roster(system, part_digests, part_digests_before):
        return
    roster_projection.refresh(
        campaign,
        plain(state),
        entries=entries,
        before=None if before is None else _roster_before(system, before),
    )


def _same_roster(
    system: GameSystem, digests: dict[str, str] | None, before: dict[str, str] | None
) -> bool:
    return system.roster_from_side_parts and bool(digests) and digests == before


def _projected(stored: dict[str, Any], before: CampaignState) -> bool:
    """The rows were last written for `before` by this code (positions are written with them)."""
    return (
        stored.get("seq") == before["seq"]
        and stored.get("projected") == audiences.BUILD
        and "newest" in stored
    )


def _summaries(system: GameSystem, state: CampaignState) -> list[dict[str, Any]]:
    return [system.scenario_summary(plain(state), entry["index"]) for entry in state["scenarios"]]


def same_people(before: CampaignState, after: CampaignState) -> bool:
    """Nobody was seated or unseated, and the referee is the same: every viewer's seat stands."""
    return _people(before) == _people(after)


def _people(state: CampaignState) -> tuple[dict[str, SideSeats], str | None]:
    return state["sides"], state["referee"]


def _roster_before(system: GameSystem, before: CampaignState) -> list[dict[str, Any]]:
    return system.roster(plain(before)) if before.get("game") is not None else []


def _users(state: CampaignState) -> dict[str, User]:
    names = {name for side in state["sides"].values() for name in side["players"]}
    if state["referee"]:
        names.add(state["referee"])
    return {u.username: u for u in get_user_model().objects.filter(username__in=names)}


def _refresh_sides(campaign: Campaign, state: CampaignState, users: dict[str, User]) -> None:
    sides = {s.slug: s for s in campaign.sides.all()}
    seated: dict[int, set[int]] = {}  # side id -> user ids, every side's seats in one query
    for side_id, user_id in SidePlayer.objects.filter(side__campaign=campaign).values_list(
        "side_id", "user_id"
    ):
        seated.setdefault(side_id, set()).add(user_id)
    for order, (slug, data) in enumerate(state["sides"].items()):
        side = sides.get(slug) or Side.objects.create(
            campaign=campaign, slug=slug, name=data["name"], order=order
        )
        wanted = {users[name].pk for name in data["players"] if name in users}
        have = seated.get(side.pk, set())
        if have - wanted:
            side.memberships.filter(user_id__in=have - wanted).delete()
        if wanted - have:
            SidePlayer.objects.bulk_create(
                [SidePlayer(side=side, user_id=pk) for pk in wanted - have]
            )


def _refresh_scenarios(
    campaign: Campaign,
    state: CampaignState,
    summaries: list[dict[str, Any]],
    before: CampaignState | None = None,
) -> list[int]:
    """Rows made to match the state's scenarios (`summaries` in their order): compared with
    `before`'s when given (the rows are known to be those), otherwise with the rows read. The
    scenarios whose result this change confirmed (an existing row now played)."""
    if before is None:
        existing = {s.index: (s.status, s.summary, s.label) for s in campaign.scenarios.all()}
    else:
        system = get_system(before["system"])
        existing = {
            e["index"]: (e["status"], summary, e["label"])
            for e, summary in zip(before["scenarios"], _summaries(system, before))
        }
    new, changed = [], []
    for entry, summary in zip(state["scenarios"], summaries):
        values = (entry["status"], summary, entry["label"])
        if entry["index"] not in existing:
            new.append(
                Scenario(
                    campaign=campaign,
                    index=entry["index"],
                    label=entry["label"],
                    status=entry["status"],
                    summary=summary,
                )
            )
        elif existing[entry["index"]] != values:
            changed.append((entry["index"], values))
    Scenario.objects.bulk_create(new)
    for index, (status, summary, label) in changed:
        Scenario.objects.filter(campaign=campaign, index=index).update(
            status=status, summary=summary, label=label
        )
    return [
        index
        for index, (status, _, _) in changed
        if status == "played" and existing[index][0] != "played"
    ]
