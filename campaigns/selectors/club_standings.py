"""A club's standings across its campaigns, and over time: each campaign's standing per side (the
game's own: wins and losses, objective points, CVP; a ledger game's result), and the wins of each
side's name (Allied, German, American …) added up across the club's campaigns, date by date, as a
chart (campaigns/charts.py).

Read from what any club member may see only (``visibility.view_state`` for a member who plays
no side): the public results, the public journal's dates. A win is a scenario result confirmed
with a winner (an A!P! half-day) or a campaign that ended with one (every game); it is dated by
its public event (a campaign's end by its newest public event), never by the campaign row's
last change, which moves with a side's hidden steps too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import JSONField, Max, Value

from campaigns.access import visibility
from campaigns.journal.records import Viewer

from ..models import Campaign, Event
from ..services.state import current_states
from ..systems import all_systems

RESULT_KINDS = ("result.confirmed", "result.resolved")
BY_DAY_UP_TO = 62  # days: wins dated by day within two months, by month beyond


@dataclass(frozen=True)
class ClubStandings:
    # (campaign, [(side name, its standing in words)], the result so far in words)
    rows: list[tuple[Campaign, list[tuple[str, str]], str]] = field(default_factory=list)
    chart: dict[str, Any] | None = None  # wins by side name over time (campaigns.charts.Chart)


def club_standings(campaigns: Sequence[Campaign]) -> ClubStandings:
    systems = all_systems()
    shown = [c for c in campaigns if c.status != Campaign.SETUP and c.system in systems]
    if not shown:
        return ClubStandings()
    states = current_states(shown)
    member = Viewer.club_member()
    views = {c.pk: visibility.view_state(states[c.pk], member) for c in shown}
    rows = []
    for campaign in shown:
        view = views[campaign.pk]
        standing: dict[str, list[str]] = {}
        for entry in systems[campaign.system].standings(view):
            name = _side_name(view, entry["side"])
            standing.setdefault(name, []).append(f"{entry['label']} {entry['value']}")
        rows.append(
            (
                campaign,
                [(name, " · ".join(parts)) for name, parts in standing.items()],
                _result_words(view),
            )
        )
    names = {str(side["name"]) for view in views.values() for side in view["sides"].values()}
    return ClubStandings(rows, _wins_chart(_wins(shown, views), names))


def _side_name(view: dict[str, Any], slug: str | None) -> str:
    return str(view["sides"].get(slug or "", {}).get("name") or slug or "")


def _result_words(view: dict[str, Any]) -> str:
    if view["status"] != "finished":
        return "in play"
    if view.get("winner") in view["sides"]:
        return f"won by {_side_name(view, view['winner'])}"
    return "ended without a winner"


def _wins(shown: list[Campaign], views: dict[int, dict[str, Any]]) -> list[tuple[datetime, str]]:
    """(when, the winning side's name) for each public win, oldest first."""
    systems = all_systems()
    by_pk = {c.pk: c for c in shown}
    ended = [c.pk for c in shown if views[c.pk]["status"] == "finished"]
    # One query, whatever the campaigns: the public results' dates, and (rows with no data) each
    # finished campaign's newest public event, which dates its end.
    results: dict[tuple[int, int], datetime] = {}
    ended_at: dict[int, datetime] = {}
    dated = (
        Event.objects.filter(campaign__in=shown, kind__in=RESULT_KINDS, audience=Event.PUBLIC)
        .order_by()
        .values_list("campaign_id", "data", "created_at")
    )
    if ended:
        last = (
            Event.objects.filter(campaign__in=ended, audience=Event.PUBLIC)
            .order_by()
            .values("campaign_id")
            .annotate(none=Value(None, output_field=JSONField()), at=Max("created_at"))
            .values_list("campaign_id", "none", "at")
        )
        dated = dated.union(last, all=True)
    for campaign_id, data, at in dated:
        if data is None:
            ended_at[campaign_id] = at
        elif isinstance(data.get("scenario"), int):
            results[(campaign_id, data["scenario"])] = at
    wins = []
    for (campaign_id, index), at in results.items():
        view = views[campaign_id]
        if 0 <= index < len(view["scenarios"]):
            system = systems[by_pk[campaign_id].system]
            winner = system.scenario_summary(view, index).get("winner")
            if winner in view["sides"]:
                wins.append((at, _side_name(view, winner)))
    for campaign_id, at in ended_at.items():
        if views[campaign_id].get("winner") in views[campaign_id]["sides"]:
            wins.append((at, _side_name(views[campaign_id], views[campaign_id]["winner"])))
    return sorted(wins)


def _wins_chart(wins: list[tuple[datetime, str]], names: set[str]) -> dict[str, Any] | None:
    """Each side's wins added up date by date (every side of the club's campaigns, none left out
    for having won nothing yet)."""
    if not wins:
        return None
    by_day = (wins[-1][0] - wins[0][0]).days <= BY_DAY_UP_TO
    places: list[str] = []
    counted: dict[str, dict[str, int]] = {name: {} for name in names}
    for at, name in wins:
        place = f"{at.day} {at:%b}" if by_day else f"{at:%b %Y}"
        if not places or places[-1] != place:
            places.append(place)
        side = counted.setdefault(name, {})
        side[place] = side.get(place, 0) + 1
    series = []
    for name in sorted(counted):
        total, values = 0, []
        for place in places:
            total += counted[name].get(place, 0)
            values.append(total)
        series.append({"name": f"{name} wins", "values": values})
    return {
        "title": "Wins across the club's campaigns",
        "note": "Half-days and campaigns won, added up",
        "x": places,
        "x_name": "Up to",
        "series": series,
    }
