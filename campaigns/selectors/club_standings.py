"""A club's standings across its campaigns, and over time: each campaign's standing per side (the
game's own: wins and losses, objective points, CVP; a ledger game's result), and the wins of each
side's name (Allied, German, American …) added up across the club's campaigns, date by date, as a
chart (campaigns/charts.py).

Read from what any club member may see only (``visibility.view_state`` for a member who plays
no side): the public results, the public journal's dates. A win is a scenario result confirmed
with a winner (an A!P! half-day) or a campaign that ended with one (every game); it is dated by
its public event (a campaign's end by its newest public event), never by the campaign row's
last change, which moves with a side's hidden steps too. Each campaign's part of the chart is
kept per its club position (``wins_chart``), which only what every member may see moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import JSONField, Max, Value

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.kept_answers import viewcache

from ..models import Campaign, Event
from ..services.state import current_states
from ..systems import all_systems
from . import club_tables

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
    return ClubStandings(rows, _chart_of(_parts(shown, views).values()))


def wins_chart(campaigns: Sequence[Campaign]) -> dict[str, Any] | None:
    """The chart of wins across `campaigns` (`club_standings`' chart), each campaign's part of it
    (its sides' names, its wins) kept per its club position (club_tables.position_key): drawn
    again after some campaigns moved, it reads those campaigns' states alone. A part is read from
    what any club member may see, and a side's hidden step moves no club position. `campaigns` need
    only their keys, statuses, systems and positions: those read again are read whole."""
    systems = all_systems()
    shown = [c for c in campaigns if c.status != Campaign.SETUP and c.system in systems]
    keys = {c.pk: key for c in shown if (key := club_tables.position_key(c, "wins"))}
    kept = viewcache.get_many(list(keys.values()))
    parts = {pk: kept[key] for pk, key in keys.items() if key in kept}
    missing = [c for c in shown if c.pk not in parts]
    if missing:
        missing = list(Campaign.objects.filter(pk__in=[c.pk for c in missing]).order_by("pk"))
        states = current_states(missing)
        member = Viewer.club_member()
        drawn = _parts(
            missing, {c.pk: visibility.view_state(states[c.pk], member) for c in missing}
        )
        viewcache.put_many({keys[pk]: part for pk, part in drawn.items() if pk in keys})
        parts.update(drawn)
    return _chart_of(parts.values())


Part = tuple[list[str], list[tuple[datetime, str]]]  # a campaign's sides' names, its wins


def _parts(shown: list[Campaign], views: dict[int, dict[str, Any]]) -> dict[int, Part]:
    wins = _wins(shown, views)
    return {
        c.pk: (
            sorted({str(side["name"]) for side in views[c.pk]["sides"].values()}),
            wins.get(c.pk, []),
        )
        for c in shown
    }


def _chart_of(parts: Iterable[Part]) -> dict[str, Any] | None:
    names: set[str] = set()
    wins: list[tuple[datetime, str]] = []
    for sides, won in parts:
        names.update(sides)
        wins.extend(won)
    return _wins_chart(sorted(wins), names)


def _side_name(view: dict[str, Any], slug: str | None) -> str:
    return str(view["sides"].get(slug or "", {}).get("name") or slug or "")


def _result_words(view: dict[str, Any]) -> str:
    if view["status"] != "finished":
        return "in play"
    if view.get("winner") in view["sides"]:
        return f"won by {_side_name(view, view['winner'])}"
    return "ended without a winner"


def _wins(
    shown: list[Campaign], views: dict[int, dict[str, Any]]
) -> dict[int, list[tuple[datetime, str]]]:
    """Of each campaign, (when, the winning side's name) for each public win."""
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
    wins: dict[int, list[tuple[datetime, str]]] = {}
    for (campaign_id, index), at in results.items():
        view = views[campaign_id]
        if 0 <= index < len(view["scenarios"]):
            system = systems[by_pk[campaign_id].system]
            winner = system.scenario_summary(view, index).get("winner")
            if winner in view["sides"]:
                wins.setdefault(campaign_id, []).append((at, _side_name(view, winner)))
    for campaign_id, at in ended_at.items():
        view = views[campaign_id]
        if view.get("winner") in view["sides"]:
            wins.setdefault(campaign_id, []).append((at, _side_name(view, view["winner"])))
    return wins


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
