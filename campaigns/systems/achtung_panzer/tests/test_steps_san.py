"""1.6122 SAN adjustment (steps/san.py)."""

from __future__ import annotations

import pytest

from campaigns.systems.achtung_panzer.steps import san
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    run,
)

(STEP,) = san.STEPS
KEY = "5/29P/1.6122/german"


@pytest.mark.parametrize(
    "value,die,drm",
    [
        (4, 4, 0),  # SAN 4: drm 0, final 4 keeps it
        (4, 5, 0),  # final 5 lowers it
        (5, 3, 1),  # SAN 5: +1, final 4
        (5, 4, 1),  # final 5
        (7, 1, 3),  # SAN 7: +3, final 4
        (7, 6, 3),  # final 9 (never clamped)
    ],
)
def test_san_four_or_more_rolls_with_plus_san_minus_four(value, die, drm):
    state = make_state(german={"san": value})
    ctx = run(STEP, state, "german", dice={KEY: [die]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6122", drm)]
    assert report["final"] == die + drm
    expected_row = "≥5" if die + drm >= 5 else "≤4"
    assert report["row"] == expected_row
    assert state["game"]["sides"]["german"]["san"] == (value - 1 if die + drm >= 5 else value)
    assert ctx.provider.sides == {KEY: "german"}


def test_san_zero_raised_to_two_without_a_roll():
    state = make_state(german={"san": 0})
    ctx = run(STEP, state, "german")
    assert state["game"]["sides"]["german"]["san"] == 2
    assert ctx.provider.used == [] and state["game"]["sides"]["german"]["rolls"] == []


@pytest.mark.parametrize("value", [1, 2, 3])
def test_san_one_to_three_unchanged(value):
    state = make_state(german={"san": value})
    ctx = run(STEP, state, "german")
    assert state["game"]["sides"]["german"]["san"] == value and ctx.provider.used == []
    assert STEP.upcoming(state, "german", make_ctx(state)) == []


def test_upcoming_shows_the_drm():
    state = make_state(allied={"san": 6})
    (roll,) = STEP.upcoming(state, "allied", make_ctx(state))
    assert roll.table == "1.6122" and [(r, v) for _, r, v in roll.modifiers] == [("1.6122", 2)]
