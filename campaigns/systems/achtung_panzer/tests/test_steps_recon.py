"""1.622 reconnaissance (steps/recon.py)."""

from __future__ import annotations

from campaigns.systems.achtung_panzer.steps import recon
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    rejects,
    roster_line,
    run,
)

(STEP,) = recon.STEPS


def test_german_recon_costs_one_cpp():
    state = make_state(german={"cpp": 3})
    ctx = run(STEP, state, "german", {"conduct": True}, dice={"5/29P/1.622/german": [4]})
    side = state["game"]["sides"]["german"]
    assert side["cpp"] == 2 and side["recon"]["locations"] == 4 and side["recon"]["cpp_spent"] == 1
    assert ctx.provider.sides == {"5/29P/1.622/german": "german"}
    assert last_roll(state, "german")["modifiers"] == []


def test_allied_recon_costs_two_extra_cpp_and_air_support():
    state = make_state(
        roster=[roster_line("5/29A", "allied", air=(True, False))], allied={"cpp": 3}
    )
    run(
        STEP,
        state,
        "allied",
        {"conduct": True, "extra_cpp": True},
        dice={"5/29P/1.622/allied": [2]},
    )
    side = state["game"]["sides"]["allied"]
    report = last_roll(state, "allied")
    assert mod_values(report) == [("1.622", 3), ("1.622", 1)]
    assert report["final"] == 6 and side["recon"]["locations"] == 6 and side["cpp"] == 0


def test_not_enough_cpp_refused():
    state = make_state(allied={"cpp": 2})
    err = rejects(
        STEP,
        state,
        "allied",
        {"conduct": True, "extra_cpp": True},
        "conduct",
        dice={"5/29P/1.622/allied": [2]},
    )
    assert "3 CPP" in err.message


def test_decline_keeps_the_cpp():
    state = make_state(allied={"cpp": 5})
    ctx = run(STEP, state, "allied", {"conduct": False})
    side = state["game"]["sides"]["allied"]
    assert side["cpp"] == 5 and side["recon"]["locations"] == 0 and side["recon"]["declined"]
    assert ctx.provider.used == []
    rejects(STEP, state, "allied", {"conduct": False, "extra_cpp": True}, "extra_cpp")


def test_house_ruled_cost():
    state = make_state(
        allied={"cpp": 1}, house_rules={"recon.cost.allied": {"value": 1, "book": 2}}
    )
    run(STEP, state, "allied", {"conduct": True}, dice={"5/29P/1.622/allied": [1]})
    assert state["game"]["sides"]["allied"]["cpp"] == 0


def test_upcoming_is_a_plain_die():
    state = make_state(roster=[roster_line("5/29A", "allied", air=(False, True))])
    (roll,) = STEP.upcoming(state, "german", make_ctx(state))
    assert roll.table == "dice:1d6" and [(r, v) for _, r, v in roll.modifiers] == [("1.622", 1)]
