"""A campaign's trends as one audience sees them: the game's numbers over time (A!P!: CPP, ELR,
SAN and objective points per half-day), as charts (campaigns/charts.py).

What a game keeps only as it stands now (a side's CPP, its SAN) is read on the way through the
journal: the journal is folded once and, after every event, the game takes its point from this
audience's cut of the game's state (``visibility.view_game``, the game's part of the cut the page
itself shows, ``view_state``), never from the whole state; so a side's series hold only what that
side could read at the time, and the other side's secrets (its CPP) are never in its charts. The
fold happens once per audience position (a kept answer, campaigns.kept_answers.viewcache): pages
in between read it from the cache, and the other side's hidden steps do not move this audience's
position. On the benchmark's 13-half-day CG III campaign (1,171 events) that fold takes ~0.9 s,
once per audience after an append (a kept answer: ~0.1 ms).
"""

from __future__ import annotations

from typing import Any

from campaigns.access import visibility
from campaigns.journal import engine
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.kept_answers import viewcache

from ..models import Campaign
from ..services.state import current_state, load_records
from ..systems import get_system


def campaign_trends(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    """The charts of `campaign` for `viewer`'s audience; [] for a game that charts nothing here
    (a victory ledger charts its turns in its own panel, from its ledger)."""
    system = get_system(campaign.system)
    if not system.trends or not (viewer.member or viewer.referee):
        return []
    return viewcache.cached(campaign, viewer, "trends", lambda: _trends(campaign, viewer))


def _trends(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    system = get_system(campaign.system)
    current_state(campaign)  # a journal at older versions is upgraded first
    points: dict[str, dict[str, Any]] = {}

    def observe(state: CampaignState) -> None:
        # the game's part of the audience's cut (what view_state cuts it to), without copying the
        # core's parts after every event: the points read only the game's numbers
        point = system.trend_point({"game": visibility.view_game(plain(state).get("game"), viewer)})
        if point is not None:
            place, numbers = point
            points.pop(place, None)  # the last point of each place, in the order places came
            points[place] = numbers

    try:
        final = engine.fold(load_records(campaign), observe=observe)
    except engine.JournalError:  # a journal today's rules no longer fold: its state is kept as it
        return []  # was (services.state), with nothing to chart
    return system.trend_charts(list(points.items()), visibility.view_state(final, viewer))
