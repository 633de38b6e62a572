"""Rebuild the queryable projections of a campaign from its state.

Campaign.status/referee/last_seq, Side, SidePlayer and Scenario rows are never
edited by hand: after every change to the journal they are made to match the
folded state again.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from rosters import projection as roster_projection

from .. import viewcache
from ..models import Campaign, Scenario, Side, SidePlayer
from ..systems import get_system


def refresh(campaign: Campaign, state: dict, *, public_change: bool = True) -> None:
    """`public_change`: the change includes an event every member can read. Only then does
    `updated_at` (lists order by it) move: a side's hidden step must not move its campaign
    up the other side's dashboard."""
    users = _users(state)
    campaign.status = state["status"]
    campaign.referee = users.get(state["referee"]) if state["referee"] else None
    campaign.last_seq = state["seq"]
    if public_change:
        campaign.updated_at = timezone.now()
    campaign.positions = viewcache.positions(campaign, state)  # cache keys per audience
    campaign.save(update_fields=["status", "referee", "last_seq", "updated_at", "positions"])
    _refresh_sides(campaign, state, users)
    _refresh_scenarios(campaign, state)
    roster_projection.refresh(campaign, state)


def _users(state) -> dict:
    names = {name for side in state["sides"].values() for name in side["players"]}
    if state["referee"]:
        names.add(state["referee"])
    return {u.username: u for u in get_user_model().objects.filter(username__in=names)}


def _refresh_sides(campaign, state, users) -> None:
    sides = {s.slug: s for s in campaign.sides.all()}
    seated: dict[int, set] = {}  # side id -> user ids, every side's seats in one query
    for side_id, user_id in SidePlayer.objects.filter(side__campaign=campaign).values_list("side_id", "user_id"):
        seated.setdefault(side_id, set()).add(user_id)
    for order, (slug, data) in enumerate(state["sides"].items()):
        side = sides.get(slug) or Side.objects.create(campaign=campaign, slug=slug, name=data["name"], order=order)
        wanted = {users[name].pk for name in data["players"] if name in users}
        have = seated.get(side.pk, set())
        if have - wanted:
            side.memberships.filter(user_id__in=have - wanted).delete()
        if wanted - have:
            SidePlayer.objects.bulk_create([SidePlayer(side=side, user_id=pk) for pk in wanted - have])


def _refresh_scenarios(campaign, state) -> None:
    system = get_system(state["system"])
    existing = {s.index: s for s in campaign.scenarios.all()}
    changed = []
    for entry in state["scenarios"]:
        summary = system.scenario_summary(state, entry["index"])
        scenario = existing.get(entry["index"])
        if scenario is None:
            Scenario.objects.create(
                campaign=campaign, index=entry["index"], label=entry["label"], status=entry["status"], summary=summary
            )
        elif (scenario.status, scenario.summary, scenario.label) != (entry["status"], summary, entry["label"]):
            scenario.status, scenario.summary, scenario.label = entry["status"], summary, entry["label"]
            changed.append(scenario)
    if changed:
        Scenario.objects.bulk_update(changed, ["status", "summary", "label"])
