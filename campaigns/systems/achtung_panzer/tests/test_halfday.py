"""The half-day log (the scenario result), 1.6067 victory per scenario type, objective points
from whole areas (1.2), destroyed bridges (CG15) and the CG victory conditions (1.51-1.53).
Pure functions on a state built like the real one; no database."""

import pytest

from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.errors import DomainError
from campaigns.journal.context import Ctx
from campaigns.journal.records import Record
from campaigns.systems.achtung_panzer import SYSTEM, halfday
from campaigns.systems.achtung_panzer.state import cg

HILL_520 = ["40I7", "40I8", "40J7", "40J8", "40K7", "40K8", "40L7"]


def make_state(variant="cg1", initial=False, type_=None, current=1, destroyed=()):
    state = {
        "house_rules": {},
        "current": current,
        "scenarios": [
            {"index": i, "label": label} for i, label in enumerate(cg(variant)["half_days"])
        ],
    }
    ctx = Ctx(SYSTEM, state, Record(1, "t", {}, "t"), DicePool(), RefuseMissingDice())
    state["game"] = SYSTEM.initial_state(variant, {}, ctx)
    pub = state["game"]["public"]
    pub["initial"] = initial
    pub["bridges_destroyed"] = list(destroyed)
    pub["roster"][current]["type"] = type_
    return state, ctx


def log(state, ctx, **data):
    cleaned = halfday.clean_result(state, data, ctx)
    return halfday.log_result(state, state["current"], cleaned)


def hexes(n, start=0):
    """n distinct single-hex objectives (all worth 1 point, all single-hex areas)."""
    pool = [
        "23BB5",
        "23X3",
        "23R4",
        "23H4",
        "7D7",
        "10DD5",
        "10Z6",
        "23Z2",
        "23E4",
        "40CC8",
        "19X6",
        "33R8",
        "17CC3",
        "6N4",
        "23CC7",
    ]
    return ", ".join(pool[start : start + n])


# --- the log ---------------------------------------------------------------------------------


def test_areas_expand_to_their_hexes_and_hexes_are_read_in_any_case():
    state, ctx = make_state()
    line = log(state, ctx, allied_objectives_end="hill_520, 23bb5", german_objectives_end=["40q2"])
    assert line["objectives_end"]["allied"] == sorted(HILL_520 + ["23BB5"])
    assert line["objectives_end"]["german"] == ["40Q2"]


@pytest.mark.parametrize(
    "data, field, words",
    [
        (
            {"allied_objectives_end": "23BB5 99Z9"},
            "allied_objectives_end",
            "99Z9 is not an objective hex or area of 1.2",
        ),
        (
            {"allied_objectives_end": "23BB5", "german_objectives_end": "23BB5"},
            "german_objectives_end",
            "Controlled by both sides: 23BB5",
        ),
        ({"bridges_destroyed": "6N4"}, "bridges_destroyed", "6N4 is not a bridge objective"),
        (
            {"bridges_destroyed": "40Q2", "allied_objectives_end": "40Q3"},
            "allied_objectives_end",
            "a destroyed bridge is no objective",
        ),
        ({"allied_cvp": -1}, "allied_cvp", "at least 0"),
        ({"allied_score": 3}, "allied_score", "Unknown field"),
    ],
)
def test_a_bad_log_is_refused_naming_the_field(data, field, words):
    state, ctx = make_state()
    with pytest.raises(DomainError) as caught:
        halfday.clean_result(state, data, ctx)
    assert caught.value.field == field and words in caught.value.message


def test_a_bridge_destroyed_earlier_is_no_objective_at_the_start_either():
    state, ctx = make_state(destroyed=["40Q2", "40Q3"])
    with pytest.raises(DomainError) as caught:
        halfday.clean_result(state, {"german_objectives_start": "40Q3"}, ctx)
    assert caught.value.field == "german_objectives_start"
    with pytest.raises(DomainError) as caught:
        halfday.clean_result(state, {"bridges_destroyed": "40Q2"}, ctx)
    assert "earlier half-day" in caught.value.message


# --- objective points (1.2) ------------------------------------------------------------------------


def test_objective_points_come_from_whole_areas_only():
    areas = halfday.areas(SYSTEM.tables.bound("1.2"))
    assert (
        halfday.objective_points(HILL_520[:-1], areas, []) == 0
    )  # 6 of Hill 520's 7 hexes: nothing
    assert halfday.objective_points(HILL_520, areas, []) == 3
    assert halfday.objective_points(["40Q2"], areas, []) == 0  # half a 2-point bridge
    assert halfday.objective_points(["40Q2", "40Q3", "6N4", "7D7"], areas, []) == 2 + 2 + 1
    # CG15: a destroyed bridge is no objective, even its undamaged section.
    assert halfday.objective_points(["40Q2", "40Q3", "6N4"], areas, ["40Q2", "40Q3"]) == 2


def test_every_objective_hex_of_1_2_adds_up_to_29_points_in_21_areas():
    areas = halfday.areas(SYSTEM.tables.bound("1.2"))
    every = halfday.all_objective_hexes(areas, [])
    assert len(areas) == 21 and halfday.objective_points(every, areas, []) == 29


def test_1_6067_writes_objective_points_and_the_record():
    state, ctx = make_state(type_="allied_assault")
    log(
        state,
        ctx,
        allied_objectives_end="hill_520 6N4 23BB5",
        german_objectives_end="40Q2 40Q3 40I2",
    )
    line = halfday.determine_victory(state, ctx)
    assert line["op"] == {"allied": 3 + 2 + 1, "german": 2}
    assert line["winner"] == "allied"  # captured 9 objective hexes ≥ 5
    assert state["game"]["public"]["record"] == {
        "allied": {"won": 1, "lost": 0, "drawn": 0},
        "german": {"won": 0, "lost": 1, "drawn": 0},
    }


# --- victory per scenario type (1.6232) ------------------------------------------------------------


def winner(variant="cg1", initial=False, type_=None, **data):
    state, ctx = make_state(variant, initial, type_)
    log(state, ctx, **data)
    return halfday.scenario_winner(state, state["game"]["public"]["roster"][state["current"]], ctx)[
        0
    ]


@pytest.mark.parametrize("captured, expected", [(6, "german"), (5, "allied")])
def test_german_assault_needs_six_captured_objective_hexes(captured, expected):
    assert winner(type_="german_assault", german_objectives_end=hexes(captured)) == expected


def test_german_assault_counts_captured_hexes_not_the_net_gain():
    # Holds 3 at the start, loses them, captures 6 others: 6 captured → German win.
    assert (
        winner(
            type_="german_assault",
            german_objectives_start=hexes(3),
            german_objectives_end=hexes(6, 3),
        )
        == "german"
    )


@pytest.mark.parametrize(
    "allied_cvp, german_cvp, expected", [(35, 5, "german"), (34, 5, "allied"), (30, 0, "german")]
)
def test_german_assault_or_thirty_more_cvp_caused_than_sustained(allied_cvp, german_cvp, expected):
    assert winner(type_="german_assault", allied_cvp=allied_cvp, german_cvp=german_cvp) == expected


@pytest.mark.parametrize("captured, expected", [(5, "allied"), (4, "german")])
def test_allied_assault_needs_five_captured_objective_hexes(captured, expected):
    assert winner(type_="allied_assault", allied_objectives_end=hexes(captured)) == expected


@pytest.mark.parametrize(
    "german_cvp, allied_cvp, expected",
    [(20, 0, "allied"), (19, 0, "german"), (45, 25, "allied"), (44, 25, "german")],
)
def test_allied_assault_or_twenty_more_cvp(german_cvp, allied_cvp, expected):
    assert winner(type_="allied_assault", german_cvp=german_cvp, allied_cvp=allied_cvp) == expected


def test_dual_attack_objective_hexes_plus_half_boards_minus_cvp():
    # Allied 4 hexes + 2 half boards − 3 CVP = 3; German 2 + 1 − 1 = 2 → Allied.
    assert (
        winner(
            type_="dual",
            allied_objectives_end=hexes(4),
            german_objectives_end=hexes(2, 4),
            allied_half_boards=2,
            german_half_boards=1,
            allied_cvp=3,
            german_cvp=1,
        )
        == "allied"
    )
    # German 2 + 1 − 0 = 3 against 3: a tie is a draw (rules-notes).
    assert (
        winner(
            type_="dual",
            allied_objectives_end=hexes(4),
            german_objectives_end=hexes(2, 4),
            allied_half_boards=2,
            german_half_boards=1,
            allied_cvp=3,
            german_cvp=0,
        )
        == "draw"
    )
    assert (
        winner(
            type_="dual",
            allied_objectives_end=hexes(4),
            german_objectives_end=hexes(2, 4),
            allied_half_boards=2,
            german_half_boards=2,
            allied_cvp=3,
            german_cvp=0,
        )
        == "german"
    )


def test_a_draw_counts_as_a_completed_scenario_but_for_nobody():
    state, ctx = make_state(type_="dual")
    log(state, ctx)
    line = halfday.determine_victory(state, ctx)
    assert line["winner"] == "draw"
    assert state["game"]["public"]["record"]["allied"] == {"won": 0, "lost": 0, "drawn": 1}


@pytest.mark.parametrize(
    "start, end, expected", [(0, 5, "allied"), (0, 4, "german"), (2, 7, "allied"), (2, 6, "german")]
)
def test_cg1_initial_scenario_allies_need_five_more_objectives_than_at_the_start(
    start, end, expected
):
    assert (
        winner(
            initial=True,
            type_="allied_assault",
            allied_objectives_start=hexes(start),
            allied_objectives_end=hexes(end),
        )
        == expected
    )


def test_cg1_initial_scenario_ignores_the_assault_cvp_margin():
    # 1.51's own VC replace 1.6232: 40 more CVP caused win nothing without the objectives.
    assert winner(initial=True, type_="allied_assault", german_cvp=40) == "german"


@pytest.mark.parametrize("gain, expected", [(6, "german"), (5, "allied")])
def test_cg2_every_scenario_germans_need_six_more_objectives(gain, expected):
    assert winner("cg2", initial=True, german_objectives_end=hexes(gain)) == expected
    assert winner("cg2", initial=False, type_="dual", german_objectives_end=hexes(gain)) == expected


# --- CG victory (1.51-1.53) ---------------------------------------------------------------------


def test_cg1_allies_win_when_they_control_every_objective():
    state, ctx = make_state(type_="allied_assault")
    areas = halfday.areas(ctx.table("1.2"))
    every = sorted(halfday.all_objective_hexes(areas, []))
    log(state, ctx, allied_objectives_end=every[1:])
    halfday.determine_victory(state, ctx)
    assert halfday.cg_victory(state, ctx) is None
    state, ctx = make_state(type_="allied_assault")
    log(state, ctx, allied_objectives_end=every)
    halfday.determine_victory(state, ctx)
    assert halfday.cg_victory(state, ctx)[0] == "allied"


def test_cg1_a_destroyed_bridge_is_not_needed_for_cg_victory():
    state, ctx = make_state(type_="allied_assault")
    areas = halfday.areas(ctx.table("1.2"))
    rest = sorted(halfday.all_objective_hexes(areas, ["7AA6", "7AA7", "7AA8"]))
    log(state, ctx, allied_objectives_end=rest, bridges_destroyed="7AA7")
    halfday.determine_victory(state, ctx)
    assert halfday.cg_victory(state, ctx)[0] == "allied"


def test_cg2_germans_win_controlling_every_objective_area():
    state, ctx = make_state("cg2", type_="german_assault")
    every = sorted(halfday.all_objective_hexes(halfday.areas(ctx.table("1.2")), []))
    log(state, ctx, german_objectives_end=every)
    halfday.determine_victory(state, ctx)
    assert halfday.cg_victory(state, ctx)[0] == "german"


def test_the_calendar_ends_without_the_cg_goal():
    state, _ = make_state("cg1")
    assert halfday.calendar_end_winner(state)[0] == "german"
    state, _ = make_state("cg2")
    assert halfday.calendar_end_winner(state)[0] == "allied"


def test_cg3_most_cumulative_objective_points_win_and_a_tie_has_no_winner():
    state, _ = make_state("cg3")
    roster = state["game"]["public"]["roster"]
    roster[0]["op"] = {"allied": 4, "german": 6}
    roster[1]["op"] = {"allied": 5, "german": 2}
    assert halfday.total_op(state) == {"allied": 9, "german": 8}
    assert halfday.calendar_end_winner(state)[0] == "allied"
    roster[2]["op"] = {"allied": 0, "german": 1}
    assert halfday.calendar_end_winner(state)[0] is None


def test_1_6067_of_the_last_half_day_ends_the_cg():
    from campaigns.systems.achtung_panzer import refit_own_steps

    state, ctx = make_state("cg1", type_="german_assault", current=5)
    state.update(status="active", sealed={}, winner=None, finish_reason="")
    for scenario in state["scenarios"]:
        scenario["status"] = "played"
    log(state, ctx, allied_objectives_end="hill_520")
    refit_own_steps._victory(ctx, state, None, {})
    assert state["status"] == "finished" and state["current"] is None
    assert state["winner"] == "german" and "goal was not met" in state["finish_reason"]  # R-A8
    assert state["game"]["public"]["phase"] == "finished"
    assert (
        state["game"]["public"]["roster"][5]["winner"] == "allied"
    )  # 5/31P itself: the assault failed


def test_1_6067_before_the_last_half_day_goes_on():
    from campaigns.systems.achtung_panzer import refit_own_steps

    state, ctx = make_state("cg1", type_="german_assault", current=2)
    state.update(status="active", sealed={}, winner=None, finish_reason="")
    log(state, ctx, german_objectives_end=hexes(6))
    refit_own_steps._victory(ctx, state, None, {})
    assert state["status"] == "active" and state["current"] == 2
    assert state["game"]["public"]["roster"][2]["winner"] == "german"
