"""A campaign's trends as one audience sees them: the game's numbers over time (A!P!: CPP, ELR,
SAN and objective points per half-day), as charts (campaigns/charts.py).

What a game keeps only as it stands now (a side's CPP, its SAN) is read on the way through the
journal: after every event the game takes its point from each audience's cut of the game's state
(``visibility.view_game``, the game's part of the cut the page itself shows, ``view_state``), never
from the whole state; so a side's series hold only what that side could read at the time, and the
other side's secrets (its CPP) are never in its charts.

The journal is folded once for every audience at a time (the referee, each side, the club), and
what the fold reached is kept (one cache entry per campaign, overwritten: the state at its end and
each audience's points): the next time, only the events since are folded on from it. A whole fold
(the 13-half-day CG III: 1,186 events) is left for the first time, a lost cache entry, and events
that reach back (an applied correction or undo, an upgrade). The charts of each audience position
are kept too (campaigns.kept_answers.viewcache), so pages in between read them from the cache; the
other side's hidden steps do not move this audience's position.
"""

from __future__ import annotations

from typing import Any, cast

from campaigns.access import visibility
from campaigns.dice.pool import DicePool
from campaigns.journal import engine
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.kept_answers import audiences, viewcache
from campaigns.versions import UPGRADED

from ..models import Campaign
from ..services.state import current_state, load_records
from ..systems import get_system
from ..systems.base import GameSystem

# events whose effect reaches before them: a fold followed on from a kept state would miss it
REACHING_BACK = frozenset({UPGRADED, "campaign.created"})


def campaign_trends(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    """The charts of `campaign` for `viewer`'s audience; [] for a game that charts nothing here
    (a victory ledger charts its turns in its own panel, from its ledger)."""
    system = get_system(campaign.system)
    if not system.trends or not (viewer.member or viewer.referee):
        return []
    return viewcache.cached(campaign, viewer, "trends", lambda: _trends(campaign, viewer))


def _trends(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    system = get_system(campaign.system)
    seats = _viewers(current_state(campaign))  # a journal at older versions is upgraded first
    cut = _cut(viewer)
    seats.setdefault(cut, viewer)
    try:
        folded = _folded(campaign, system, seats)
    except engine.JournalError:  # a journal today's rules no longer fold: its state is kept as it
        return []  # was (services.state), with nothing to chart
    return system.trend_charts(
        list(folded["points"][cut]), visibility.view_state(folded["state"], viewer)
    )


def _cut(viewer: Viewer) -> str:
    """What the game's part of a viewer's cut depends on (``visibility.view_game``)."""
    return "referee" if viewer.referee else "sides:" + ",".join(sorted(viewer.sides))


def _folded(campaign: Campaign, system: GameSystem, seats: dict[str, Viewer]) -> dict[str, Any]:
    """{"seq", "uid", "state", "points": {cut: [(place, numbers)...]}} for `seats`: the fold's
    end, followed on from the kept one when the events since allow it."""
    key = f"muster:trends:{audiences.BUILD}:{campaign.pk}"
    kept = viewcache.get(key)
    newer = _since(campaign, kept, seats) if kept is not viewcache.MISSING else None
    if newer is not None and not newer:
        return cast(dict[str, Any], kept)
    if newer is not None:
        # every roll of the journal, as an append reads them (a step may use an earlier roll)
        dice = DicePool.from_records(load_records(campaign, kinds=("dice.rolled",)))
        folded = _fold(system, newer, seats, start=kept, pool=dice)
    else:
        folded = _fold(system, load_records(campaign), seats)
    viewcache.put(key, folded)
    return folded


def _since(
    campaign: Campaign, kept: dict[str, Any], seats: dict[str, Viewer]
) -> list[Record] | None:
    """The events after the kept fold's end, or None where the fold cannot follow on from it."""
    if kept["seq"] > campaign.last_seq or set(kept["points"]) != set(seats):
        return None
    # read from the last event folded: the journal must still hold it (a database restored from a
    # backup may hold another journal under the same campaign)
    records = load_records(campaign, after=kept["seq"] - 1)
    if not records or records[0].uid != kept["uid"]:
        return None
    newer = records[1:]
    if any(r.kind in REACHING_BACK or r.kind.startswith("proposal.") for r in newer):
        return None
    return newer


def _viewers(state: CampaignState) -> dict[str, Viewer]:
    sides = list(state["sides"])
    viewers = [Viewer.everything(sides), Viewer.club_member()]
    viewers += [Viewer.for_side(side) for side in sides]
    return {_cut(viewer): viewer for viewer in viewers}


def _fold(
    system: GameSystem,
    records: list[Record],
    seats: dict[str, Viewer],
    *,
    start: dict[str, Any] | None = None,
    pool: DicePool | None = None,
) -> dict[str, Any]:
    points: dict[str, dict[str, Any]] = {
        cut: dict(found) for cut, found in (start or {}).get("points", {}).items()
    }

    def observe(state: CampaignState) -> None:
        game = plain(state).get("game")
        for cut, viewer in seats.items():
            # the game's part of the audience's cut (what view_state cuts it to), without copying
            # the core's parts after every event: the points read only the game's numbers
            point = system.trend_point({"game": visibility.view_game(game, viewer)})
            if point is not None:
                place, numbers = point
                mine = points.setdefault(cut, {})
                mine.pop(place, None)  # the last point of each place, in the order places came
                mine[place] = numbers

    final = engine.fold(
        records,
        pool=pool,
        from_state=(start or {}).get("state"),
        start_versions={} if start else None,
        observe=observe,
    )
    return {
        "seq": final["seq"],
        "uid": records[-1].uid if records else (start or {}).get("uid"),
        "state": final,
        "points": {cut: list(points.get(cut, {}).items()) for cut in seats},
    }
