"""The campaign half-day by half-day, as charts (the core's trends: campaigns/selectors/trends.py
folds the journal once per audience and hands each event's cut of the state to `point`).

Kept per half-day already, in the CG Roster's lines (public): each side's Objective Points and
the ELR announced for the half-day (1.625). Kept only as it stands now, so read on the way:
each side's CPP left (a secret: only in the cut of that side and the referee, so only in their
charts) and the SAN announced (1.625, public). A half-day's point is the last one seen while it was
the half-day refitted for or played: the CPP left after its purchases and its end, the SAN
announced for it.
"""

from __future__ import annotations

from typing import Any

from . import elr
from .common import SIDES
from .words import SIDE_WORDS


def point(view) -> tuple[str, dict[str, Any]] | None:
    game = view.get("game")
    if not game or not game.get("public", {}).get("half_day"):
        return None
    pub = game["public"]
    return pub["half_day"], {
        # the sides this audience may read: its own (a side's player), both (the referee)
        "cpp": {side: private["cpp"] for side, private in game.get("sides", {}).items()},
        "san": {side: (pub.get("san") or {}).get(side) for side in SIDES},
    }


def charts(points: list[tuple[str, dict[str, Any]]], view) -> list[dict[str, Any]]:
    game = view.get("game")
    if not game or not points:
        return []
    labels = [place for place, _ in points]
    lines = {line["half_day"]: line for line in game["public"]["roster"]}
    numbers = dict(points)
    points_series = [
        {
            "name": f"{SIDE_WORDS[side]} CPP left",
            "values": [numbers[at]["cpp"].get(side) for at in labels],
        }
        for side in SIDES
        if any(side in numbers[at]["cpp"] for at in labels)
    ]
    points_series += [
        {
            "name": f"{SIDE_WORDS[side]} objective points",
            "values": [((lines.get(at) or {}).get("op") or {}).get(side) for at in labels],
        }
        for side in SIDES
    ]
    san = [
        {"name": f"{SIDE_WORDS[side]} SAN", "values": [numbers[at]["san"][side] for at in labels]}
        for side in SIDES
    ]
    base = {"x": labels, "x_name": "Half-day"}
    return [
        dict(base, title="Points by half-day", series=points_series),
        dict(
            base, title="ELR by half-day (as announced, 1.625)", series=_elr_series(labels, lines)
        ),
        dict(base, title="SAN by half-day (as announced, 1.625)", series=san),
    ]


def _elr_series(labels: list[str], lines: dict[str, dict]) -> list[dict[str, Any]]:
    """Each side's ELR announced for each half-day (1.625), per nationality it fields (CG14); a
    journal before version 5 kept one ELR per side."""
    found: dict[tuple[str, str | None], list[int | None]] = {}
    for i, at in enumerate(labels):
        for side, value in ((lines.get(at) or {}).get("elr") or {}).items():
            groups = value.items() if isinstance(value, dict) else [(None, value)]
            for group, rating in groups:
                found.setdefault((side, group), [None] * len(labels))[i] = rating
    return [
        {
            "name": f"{elr.WORDS.get(group, group) if group else SIDE_WORDS[side]} ELR",
            "values": values,
        }
        for (side, group), values in sorted(found.items(), key=lambda kv: _order(*kv[0]))
    ]


def _order(side: str, group: str | None) -> tuple[int, int]:
    groups = elr.GROUPS.get(side, ())
    return SIDES.index(side), groups.index(group) if group in groups else 0
