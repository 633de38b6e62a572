"""1.6112 heroes and MMC battle hardening (steps/hardening.py)."""

from __future__ import annotations

import pytest

from campaigns.systems.achtung_panzer.steps import hardening
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    rejects,
    roster_line,
    run,
    unit,
)

(STEP,) = hardening.STEPS


def _state(winner, cvp=(0, 0), after=(0, 0), units=(), side="german"):
    return make_state(
        half_day="5/29A",
        roster=[roster_line("5/29A", winner, cvp=cvp, after=after)],
        **{side: {"retained": list(units)}},
    )


def _key(side="german"):
    return f"5/29A/1.6112/{side}"


def test_every_modifier_with_its_rule():
    # German won; the Allies sustained 45 CVP (amassed by the German) + 20 after 1.6067 (not counted)
    state = _state("german", cvp=(45, 0), after=(20, 0))
    ctx = run(STEP, state, "german", {"action": "roll"}, dice={_key(): [4, 4]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6112", -3), ("1.6112", -1), ("1.6112", -2)]
    assert report["final"] == 8 - 6 and report["row"] == "2-3" and report["result"] == {"mmc": 2}
    assert ctx.provider.sides == {_key(): "german"}


@pytest.mark.parametrize(
    "faces,row,count",
    [
        ([1, 1], "2-3", 2),
        ([2, 2], "4-5", 1),
        ([3, 3], "≥6", 0),
        ([6, 6], "≥6", 0),
    ],
)
def test_allied_rows(faces, row, count):
    state = _state("german", side="allied")
    run(STEP, state, "allied", {"action": "roll"}, dice={_key("allied"): faces})
    report = last_roll(state, "allied")
    assert mod_values(report) == [] and report["row"] == row and report["result"] == {"mmc": count}


def test_open_ended_low_row():
    state = _state("german", cvp=(80, 0))  # -3 -1 -4 = -8
    run(STEP, state, "german", {"action": "roll"}, dice={_key(): [3, 4]})
    report = last_roll(state, "german")
    assert report["final"] == -1 and report["row"] == "≤-1" and report["result"] == {"mmc": 5}


def test_heroes_eliminated_and_each_adds_one_mmc():
    units = [
        unit("H", "hero", type="hero"),
        unit("S1", "squad", type="467"),
        unit("S2", "squad", type="467"),
        unit("S3", "half_squad", type="237"),
        unit("V", "crew", vehicular=True),
    ]
    state = _state("allied", units=units)
    run(STEP, state, "german", {"action": "roll"}, dice={_key(): [2, 2]})  # 4 - 1 = 3: "2-3" -> 2
    side = state["game"]["sides"]["german"]
    assert "H" not in [u["id"] for u in side["retained"]] and side["eliminated"][-1]["id"] == "H"
    assert side["pending"]["1.6112"]["mmc"] == 2 and side["pending"]["1.6112"]["heroes"] == 1
    four = [{"unit": u, "becomes": "548"} for u in ("S1", "S2", "S3", "V")]
    rejects(STEP, state, "german", {"action": "harden", "hardened": four}, "hardened")
    rejects(
        STEP,
        state,
        "german",
        {"action": "harden", "hardened": [{"unit": "V", "becomes": "x"}]},
        "hardened[0].unit",
    )
    rejects(
        STEP,
        state,
        "german",
        {
            "action": "harden",
            "hardened": [{"unit": "S1", "becomes": "548"}, {"unit": "S1", "becomes": "548"}],
        },
        "hardened[1].unit",
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "harden", "hardened": [{"unit": "S1", "becomes": " "}]},
        "hardened[0].becomes",
    )
    rejects(STEP, state, "german", {"action": "roll"}, "action")
    # Only an elite MMC becomes fanatic, and it always does (1.6112): S2 is not elite.
    rejects(
        STEP,
        state,
        "german",
        {"action": "harden", "hardened": [{"unit": "S2", "becomes": "548", "fanatic": True}]},
        "hardened[0].fanatic",
    )
    state["game"]["sides"]["german"]["retained"][1]["elite"] = True  # S2 is marked elite
    run(
        STEP,
        state,
        "german",
        {
            "action": "harden",
            "hardened": [
                {"unit": "S1", "becomes": "548"},
                {"unit": "S2", "becomes": ""},
                {"unit": "S3", "becomes": "248"},
            ],
        },
    )
    units = {u["id"]: u for u in state["game"]["sides"]["german"]["retained"]}
    # An elite MMC keeps its type and becomes fanatic although nobody asked for it.
    assert (units["S1"]["type"], units["S2"]["type"], units["S3"]["type"]) == ("548", "467", "248")
    assert units["S2"]["fanatic"] is True and "fanatic" not in units["S1"]
    assert "1.6112" not in state["game"]["sides"]["german"]["pending"]


def test_harden_without_a_roll_is_refused():
    state = _state("allied", units=[unit("S1")])
    rejects(
        STEP,
        state,
        "german",
        {"action": "harden", "hardened": [{"unit": "S1", "becomes": "548"}]},
        "action",
    )


def test_zero_and_no_heroes_finishes_at_once():
    state = _state("allied")
    assert (
        STEP.run(
            make_ctx(state, {_key(): [6, 6]}), state, "german", {"action": "roll", "hardened": []}
        )
        is None
    )
    assert state["game"]["sides"]["german"]["pending"] == {}


def test_odds_before_victory_determination_do_not_use_the_previous_half_day():
    # 5/29A won by the German, 5/29P played but not yet decided: no "won this half-day" DRM yet
    state = make_state(
        half_day="5/29P", roster=[roster_line("5/29A", "german"), roster_line("5/29P", None)]
    )
    (roll,) = STEP.upcoming(state, "german", make_ctx(state))
    assert [(r, v) for _, r, v in roll.modifiers] == [("1.6112", -1)]  # German only


def test_an_elite_companys_mmc_becomes_fanatic_when_it_hardens():
    """1.6112: "In all cases, an elite MMC that battle hardens becomes fanatic". The German I2 Elite
    Coy is the 1.6202 row german:elite: its squads are elite without anyone marking them."""
    units = [unit("E1", "squad", type="548", rg="p4"), unit("L1", "squad", type="467", rg="p5")]
    state = _state("allied", units=units)
    state["game"]["sides"]["german"]["purchases"] = [
        {"id": "p4", "rg": "I2", "nationality": "german", "half_day": "5/29A"},
        {"id": "p5", "rg": "I1", "nationality": "german", "half_day": "5/29A"},
    ]
    run(STEP, state, "german", {"action": "roll"}, dice={_key(): [1, 1]})  # 2 - 1 = 1: 3 MMC
    run(
        STEP,
        state,
        "german",
        {"action": "harden", "hardened": [{"unit": "E1"}, {"unit": "L1", "becomes": "548"}]},
    )
    units = {u["id"]: u for u in state["game"]["sides"]["german"]["retained"]}
    assert units["E1"]["fanatic"] is True and units["E1"]["type"] == "548"
    assert "fanatic" not in units["L1"] and units["L1"]["type"] == "548"
