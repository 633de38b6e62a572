"""The ledger's chart lines up the ledger's numbers turn by turn: a series per thing counted, a
dashed level per threshold, a dot where a turn needs a value (sudden death), a signed chart saying
which side is up; the turns along the bottom short, in full in the table. The drawing is pygal's
(tests/core/test_trend_charts.py)."""

from campaigns import charts
from campaigns.systems.victory_ledger import chart


class _System:
    def __init__(self, spec):
        self.spec = spec

    def chart_spec(self, state):
        return self.spec


def _state(values: dict, key="level"):
    return {
        "game": {"public": {"ledger": [{"turn": t, "chart": {key: v}} for t, v in values.items()]}}
    }


def test_a_signed_chart_lines_up_the_turns_and_says_which_side_is_up():
    turns = [(f"Turn {n}", f"T{n}") for n in range(1, 6)]
    spec = {
        "title": "VP level by turn",
        "turns": turns,
        "series": [("level", "VP level")],
        "lines": [],
        "marks": [("Turn 4", 15, "German sudden death"), ("Turn 4", -12, "Allied sudden death")],
        "signed": {"up": "German", "down": "Allied"},
    }
    built = chart.build(_System(spec), _state({"Turn 1": 3, "Turn 2": -7, "Turn 3": 15}))
    (one,) = built["charts"]
    assert one["x"] == ["T1", "T2", "T3", "T4", "T5"]
    assert one["series"][0] == {"name": "VP level", "values": [3, -7, 15, None, None]}
    assert one["series"][1]["kind"] == "marks"
    assert one["series"][1]["values"] == [None, None, None, 15, None]
    assert one["series"][2]["values"] == [None, None, None, -12, None]
    assert "Above 0: German" in one["note"] and "below 0: Allied" in one["note"]
    rows = charts.table(one)["rows"]
    assert rows[1] == {"label": "Turn 2", "cells": ["-7", "–", "–"]}


def test_a_threshold_is_a_level_across_every_turn():
    turns = [(f"{d} {h}", f"{d}{h}") for d in range(16, 18) for h in ("AM", "PM")]
    spec = {
        "title": "Long",
        "turns": turns,
        "series": [("vp", "VP")],
        "lines": [(12, "12 VP: German victory")],
        "marks": [],
        "signed": None,
    }
    built = chart.build(_System(spec), _state({"16 AM": 5, "16 PM": 3}, key="vp"))
    (one,) = built["charts"]
    assert one["series"][1] == {
        "name": "12 VP: German victory",
        "values": [12, 12, 12, 12],
        "kind": "level",
    }
    assert "note" not in one


def test_panels_are_built_one_by_one_and_a_chart_without_turns_is_left_out():
    turns = [("16 AM", "16AM"), ("16 PM", "16PM")]
    panel = {
        "title": "Hexes",
        "turns": turns,
        "series": [("vp", "Hexes")],
        "lines": [(4, "4: win")],
        "marks": [],
        "signed": None,
    }
    built = chart.build(
        _System({"title": "All", "panels": [panel, dict(panel, turns=[])]}),
        _state({"16 AM": 2}, key="vp"),
    )
    assert [c["title"] for c in built["charts"]] == ["Hexes"]
    assert charts.table(built["charts"][0])["rows"][0] == {"label": "16 AM", "cells": ["2", "4"]}
    assert (
        chart.build(_System({"title": "All", "panels": [dict(panel, turns=[])]}), _state({}))
        is None
    )
