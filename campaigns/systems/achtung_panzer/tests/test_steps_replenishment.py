"""1.616 CPP replenishment, 1.617 ELR loss/gain, 1.618 weather (steps/replenishment.py)."""

from __future__ import annotations

from campaigns.systems.achtung_panzer.steps import replenishment
from campaigns.systems.achtung_panzer.steps.base import DONE, PENDING
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_state,
    mod_values,
    rejects,
    roster_line,
    run,
    step_by_id,
)

CPP = step_by_id(replenishment.STEPS, "1.616")
ELR = step_by_id(replenishment.STEPS, "1.617")
WEATHER = step_by_id(replenishment.STEPS, "1.618")


# --- 1.616 -----------------------------------------------------------------------------


def test_cpp_without_modifiers_is_secret_and_added():
    state = make_state(german={"cpp": 5})  # 5/29A won by the Allies; 5/29P German historical DRM 0
    ctx = run(CPP, state, "german", dice={"5/29P/1.616/german": [3, 4]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6161", 0)] and report["final"] == 7 and report["row"] == "7-8"
    assert state["game"]["sides"]["german"]["cpp"] == 5 + 12
    assert ctx.provider.sides == {"5/29P/1.616/german": "german"}  # a secret roll
    assert (
        state["game"]["public"]["rolls"] == [] and state["game"]["sides"]["allied"]["rolls"] == []
    )


def test_cpp_won_previous_plus_one_and_historical():
    state = make_state(allied={"cpp": 0})  # Allies won 5/29A; 5/29P Allied historical DRM -1
    run(CPP, state, "allied", dice={"5/29P/1.616/allied": [1, 2]})
    report = last_roll(state, "allied")
    assert mod_values(report) == [("1.616", 1), ("1.6161", -1)]
    assert report["final"] == 3 and report["row"] == "3-4"
    assert state["game"]["sides"]["allied"]["cpp"] == 14


def test_cpp_per_30_cvp_counts_cvp_eliminated_after_victory_determination():
    # 50 CVP in the scenario + 10 eliminated after 1.6067 = 60 -> -2 (1.6067 lets them count here)
    state = make_state(
        half_day="5/30A",
        roster=[
            roster_line("5/29A", "allied"),
            roster_line("5/29P", "allied", cvp=(0, 50), after=(0, 10)),
        ],
    )
    run(CPP, state, "german", dice={"5/30A/1.616/german": [2, 1]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6161", 1), ("1.616", -2)]
    assert report["final"] == 3 - 1 and report["row"] == "≤2"
    assert report["result"] == {"cpp": 15}


def test_cpp_29_cvp_gives_no_drm():
    state = make_state(roster=[roster_line("5/29A", "german", cvp=(0, 29))])
    run(CPP, state, "german", dice={"5/29P/1.616/german": [4, 4]})
    assert mod_values(last_roll(state, "german")) == [("1.616", 1), ("1.6161", 0)]


def test_cpp_open_ended_high_row_not_clamped():
    state = make_state(
        half_day="5/30A", roster=[roster_line("5/29A", "german"), roster_line("5/29P", "german")]
    )
    run(CPP, state, "german", dice={"5/30A/1.616/german": [6, 6]})
    report = last_roll(state, "german")
    assert report["final"] == 12 + 1 + 1  # won previous +1, 5/30A German +1
    assert report["row"] == ">12" and report["result"] == {"cpp": 8}


def test_cpp_balance_provision_one_third_and_one_fourth():
    # three completed, Allies won one (1/3) -> -1
    roster = [
        roster_line("5/29A", "allied"),
        roster_line("5/29P", "german"),
        roster_line("5/30A", "german"),
    ]
    state = make_state(half_day="5/30P", roster=roster)
    run(CPP, state, "allied", dice={"5/30P/1.616/allied": [3, 3]})
    assert mod_values(last_roll(state, "allied")) == [("1.6161", -1), ("1.32", -1)]
    # four completed, one won (1/4) -> only -2, never both
    roster.append(roster_line("5/30P", "german"))
    state = make_state(half_day="5/31A", roster=roster)
    run(CPP, state, "allied", dice={"5/31A/1.616/allied": [3, 3]})
    assert mod_values(last_roll(state, "allied")) == [("1.6161", -2), ("1.32", -2)]


def test_cpp_house_rule_cell_applies_with_book_value():
    state = make_state(house_rules={"1.616:7-8:cpp": {"value": 20, "book": 12}})
    run(CPP, state, "german", dice={"5/29P/1.616/german": [4, 4]})
    report = last_roll(state, "german")
    assert report["result"] == {"cpp": 20} and report["book"] == {"cpp": 12}
    assert state["game"]["sides"]["german"]["cpp"] == 20


def test_cpp_upcoming_lists_the_current_modifiers():
    state = make_state()
    from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx

    (roll,) = CPP.upcoming(state, "allied", make_ctx(state))
    assert roll.table == "1.616" and roll.column == "cpp" and roll.key == "5/29P/1.616/allied"
    assert [(rule, value) for _, rule, value in roll.modifiers] == [("1.616", 1), ("1.6161", -1)]


# --- 1.617 -----------------------------------------------------------------------------


def _purchase(rg, half_day="5/29A", nationality="german", given=False):
    return {
        "id": f"p-{rg}",
        "half_day": half_day,
        "rg": rg,
        "nationality": nationality,
        "cost": 1,
        "given": given,
    }


def test_elr_every_modifier_with_its_sign():
    roster = [
        roster_line("5/29A", "german", cvp=(0, 35), after=(0, 30))
    ]  # 35 in play, RePh CVP not counted
    state = make_state(
        roster=roster,
        german={
            "elr": 3,
            "purchases": [
                _purchase("I2"),  # elite coy: -2
                _purchase("I1"),
                _purchase("I1"),  # two first-line coys: -1 each
                _purchase("A4"),  # AFV platoon: -1
                _purchase("T2"),  # transport: nothing
                _purchase("I1", given=True),  # given in the initial OB: not purchased
                _purchase("I1", half_day="5/29P"),  # this half-day, not the previous
            ],
        },
    )
    roster[0]["attack_chits"] = {"german": True, "allied": False}
    run(ELR, state, "german", dice={"5/29P/1.617/german": [6, 6]})
    report = last_roll(state, "german")
    # won previous -1, elite -2, 2 first-line + 1 AFV platoon -3, attack chit +1, 35 CVP +1, 5/29P German 0
    assert mod_values(report) == [
        ("1.617", -1),
        ("1.617", -2),
        ("1.617", -3),
        ("1.617", 1),
        ("1.617", 1),
        ("1.6161", 0),
    ]
    assert report["final"] == 12 - 1 - 2 - 3 + 1 + 1 + 0


def test_elr_french_first_line_is_i2_and_allied_historical():
    state = make_state(
        allied={
            "elr": 3,
            "purchases": [
                _purchase("I2", nationality="french"),
                _purchase("I1", nationality="french"),
            ],
        }
    )
    run(ELR, state, "allied", dice={"5/29P/1.617/allied": [3, 3]})
    # won previous -1, French I2 (1st Line) -1, French I1 (2nd line) nothing, 5/29P Allied -1
    assert mod_values(last_roll(state, "allied")) == [("1.617", -1), ("1.617", -1), ("1.6161", -1)]


def _german(elr: int, pioneers: int) -> dict:
    return {"german": elr, "german_pioneers": pioneers}


def test_elr_gain_and_loss_bounded_by_constants():
    state = make_state(german={"elr": _german(3, 5)})
    run(ELR, state, "german", dice={"5/29P/1.617/german": [1, 1]})
    # +1: German 3 -> 4; pioneers (CG14: ELR 5) stay at their own maximum, 5
    assert last_roll(state, "german")["row"] == "≤2" and state["game"]["sides"]["german"][
        "elr"
    ] == _german(4, 5)
    state = make_state(german={"elr": _german(4, 5)})
    run(ELR, state, "german", dice={"5/29P/1.617/german": [1, 1]})
    assert state["game"]["sides"]["german"]["elr"] == _german(4, 5)  # maximum 4 (pioneers 5)
    state = make_state(
        half_day="5/30A",
        roster=[roster_line("5/29A", "allied"), roster_line("5/29P", "allied")],
        german={"elr": _german(0, 1)},
    )
    run(ELR, state, "german", dice={"5/30A/1.617/german": [6, 6]})
    report = last_roll(state, "german")
    assert report["final"] == 13 and report["row"] == "≥13"
    assert state["game"]["sides"]["german"]["elr"] == _german(0, 0)  # minimum 0
    state = make_state(
        half_day="5/30A",
        roster=[roster_line("5/29A", "allied"), roster_line("5/29P", "allied")],
        german={"elr": _german(2, 5)},
    )
    run(ELR, state, "german", dice={"5/30A/1.617/german": [6, 6]})
    assert state["game"]["sides"]["german"]["elr"] == _german(1, 4)


def test_elr_house_ruled_maximum():
    state = make_state(
        german={"elr": _german(4, 5)}, house_rules={"elr.max": {"value": 5, "book": 4}}
    )
    run(ELR, state, "german", dice={"5/29P/1.617/german": [1, 1]})
    assert state["game"]["sides"]["german"]["elr"] == _german(5, 5)


# --- 1.618 -----------------------------------------------------------------------------


def test_weather_is_public_and_ec_entered():
    state = make_state(
        roster=[roster_line("5/29A", "allied"), dict(roster_line("5/29P"), winner=None)]
    )
    ctx = run(WEATHER, state, "allied", {"ec": "Moist"}, dice={"5/29P/1.618/allied": [1, 1]})
    assert ctx.provider.sides == {"5/29P/1.618/allied": ""}  # public
    public = state["game"]["public"]
    assert public["weather"] == "Overcast, Mud" and public["ec"] == "Moist"
    assert public["rolls"][-1]["row"] == "2"
    assert public["roster"][1]["weather"] == "Overcast, Mud"
    assert state["game"]["sides"]["allied"]["rolls"] == []


def test_weather_rows_at_the_boundaries():
    for faces, weather in (
        ([1, 2], "Overcast, Rain"),
        ([2, 2], "Mist"),
        ([2, 3], "Clear"),
        ([5, 6], "Clear"),
        ([6, 6], "Clear & Gusty"),
    ):
        state = make_state()
        run(WEATHER, state, "allied", {"ec": "Dry"}, dice={"5/29P/1.618/allied": faces})
        assert state["game"]["public"]["weather"] == weather


def test_weather_refuses_an_unknown_ec():
    state = make_state()
    rejects(WEATHER, state, "allied", {"ec": "Soggy"}, "ec", dice={"5/29P/1.618/allied": [3, 3]})


def test_the_weather_is_rolled_first_and_the_ec_entered_after_it():
    """1.618: "makes a DR on the Weather Table ..., then makes a dr for the EC". With nothing given the
    weather is rolled (DR 3+3 = 6) and the step waits for the EC; the EC alone then finishes it, and
    the weather is not rolled again."""
    state = make_state()
    assert WEATHER.auto(state, "allied") == {}
    assert run_step_result(state, {}, {"5/29P/1.618/allied": [3, 3]}) == PENDING
    weather = state["game"]["public"]["weather"]
    assert weather and state["game"]["public"]["ec"] is None
    assert WEATHER.auto(state, "allied") is None  # now a decision: the EC
    rejects(WEATHER, state, "allied", {}, "ec")
    assert run_step_result(state, {"ec": "Wet"}, {}) == DONE
    assert state["game"]["public"]["weather"] == weather and state["game"]["public"]["ec"] == "Wet"


def run_step_result(state, data, dice):
    from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx

    return WEATHER.run(make_ctx(state, dice), state, "allied", data)


def test_odds_before_the_new_half_day_use_the_new_half_day():
    """Before 1.6121 the upcoming CPP roll already shows the new half-day's key and historical DRM."""
    from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx

    state = make_state(half_day="5/29A", refit_key="5/29A", refit_initial=False)
    state["current"] = 0
    state["scenarios"] = [{"label": "5/29A"}, {"label": "5/29P"}]
    (roll,) = CPP.upcoming(state, "allied", make_ctx(state))
    assert roll.key == "5/29P/1.616/allied"
    assert ("1.6161", -1) in [
        (rule, value) for _, rule, value in roll.modifiers
    ]  # 5/29P Allied -1, not 5/29A's -2
    state["game"]["public"]["steps"] = {"5/29A": {"1.6121": {"allied": "done", "german": "done"}}}
    state["game"]["public"]["half_day"] = "5/29P"
    (same,) = CPP.upcoming(state, "allied", make_ctx(state))
    assert same == roll


def test_the_cg_rosters_chart_gives_the_historical_drm_where_the_two_charts_differ():
    """1.6161: "The DRM given on the chart on the Campaign Game Roster are used". For 6/3P the 1.6161
    chart prints German −1, the CG Roster 0: the German CPP DR of 6/3P has no historical DRM.
    CG II, 6/3A won by the Allies: DR 3 + 4 = 7, no DRM → 7 → 12 CPP (7-8)."""
    roster = [roster_line("6/3A", "allied")]
    state = make_state(half_day="6/3P", roster=roster, german={"cpp": 2}, cg="cg2")
    run(CPP, state, "german", dice={"6/3P/1.616/german": [3, 4]})
    report = last_roll(state, "german")
    assert mod_values(report) == [("1.6161", 0)] and report["final"] == 7
    assert state["game"]["sides"]["german"]["cpp"] == 2 + 12
    # A club that prefers the 1.6161 chart sets the roster cell as a house rule: −1 → 6 → 13 CPP.
    state = make_state(
        half_day="6/3P",
        roster=roster,
        german={"cpp": 2},
        cg="cg2",
        house_rules={"cg_roster:6/3P:german": {"value": -1, "book": 0}},
    )
    run(CPP, state, "german", dice={"6/3P/1.616/german": [3, 4]})
    assert mod_values(last_roll(state, "german")) == [("1.6161", -1)]
    assert state["game"]["sides"]["german"]["cpp"] == 2 + 13
