"""1.610 wounded leaders, 1.6113 leader battle hardening, 1.6114 promotion (steps/leaders.py)."""

from __future__ import annotations

import pytest

from campaigns.schema.fields import clean_fields
from campaigns.systems.achtung_panzer.steps import leaders
from campaigns.systems.achtung_panzer.steps.base import PENDING
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    rejects,
    roster_line,
    run,
    step_by_id,
    unit,
)

WOUNDED = step_by_id(leaders.STEPS, "1.610")
HARDEN = step_by_id(leaders.STEPS, "1.6113")
KEY = "5/29A/1.6113/german"


def _state(winner="german", units=(), side="german"):
    # the RePh of 5/29A: its result is in, the new half-day has not started
    return make_state(
        half_day="5/29A", roster=[roster_line("5/29A", winner)], **{side: {"retained": list(units)}}
    )


def _retained(state, side="german"):
    return {u["id"]: u for u in state["game"]["sides"][side]["retained"]}


# --- 1.610 -----------------------------------------------------------------------------


def test_wounded_leaders_each_roll_with_isolation_drm():
    state = _state(
        units=[
            unit("L1", "leader", type="8-1", status="wounded"),
            unit("L2", "leader", type="9-1", status="wounded", isolated=True),
            unit("L3", "leader", type="7-0", status="wounded"),
            unit("L4", "leader", type="8-0"),  # not wounded: no roll
        ]
    )
    ctx = run(
        WOUNDED,
        state,
        "german",
        dice={
            "5/29A/1.610/german/L1": [1],  # 1: unwounded
            "5/29A/1.610/german/L2": [1],  # 1+1 = 2: stays wounded
            "5/29A/1.610/german/L3": [3],  # 3: eliminated
        },
    )
    units = _retained(state)
    assert (
        units["L1"]["status"] == "ok" and units["L2"]["status"] == "wounded" and "L3" not in units
    )
    assert state["game"]["sides"]["german"]["eliminated"][-1]["id"] == "L3"
    rolls = state["game"]["sides"]["german"]["rolls"]
    assert [r["row"] for r in rolls] == ["1", "2", "≥3"]
    assert mod_values(rolls[1]) == [("1.610", 1)] and mod_values(rolls[0]) == []
    assert set(ctx.provider.sides.values()) == {"german"}


# --- 1.6113 ----------------------------------------------------------------------------


def test_heroic_leaders_must_all_be_listed_and_harden():
    state = _state(
        winner="allied",
        units=[
            unit("H1", "leader", type="8-0", status="heroic"),
            unit("H2", "leader", type="10-3", status="heroic"),
        ],
    )
    rejects(HARDEN, state, "german", {"action": "roll"}, "heroic", dice={KEY: [6, 6]})
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "roll", "heroic": [{"unit": "H1"}, {"unit": "H2"}]},
        "heroic[0].becomes",
        dice={KEY: [6, 6]},
    )
    rejects(
        HARDEN,
        state,
        "german",
        {
            "action": "roll",
            "heroic": [{"unit": "H1", "becomes": "8-1"}, {"unit": "H1", "becomes": "8-1"}],
        },
        "heroic[1].unit",
        dice={KEY: [6, 6]},
    )
    # DR 12: "None" with no win DRM -> nothing more to resolve
    run(
        HARDEN,
        state,
        "german",
        {"action": "roll", "heroic": [{"unit": "H1", "becomes": "8-1"}, {"unit": "H2"}]},
        dice={KEY: [6, 6]},
    )
    units = _retained(state)
    assert units["H1"]["type"] == "8-1" and units["H1"]["status"] == "ok"
    assert units["H2"]["type"] == "10-3" and units["H2"]["status"] == "ok"  # no additional effect
    assert last_roll(state, "german")["row"] == "12"
    assert state["game"]["sides"]["german"]["pending"] == {}


def test_win_drm_can_be_kept_reduced_or_ignored_after_the_roll():
    for choice, final, hardened in (
        ("full", 7 - 2, "A"),
        ("reduced", 7 - 1, "A"),
        ("ignore", 7, "B"),
    ):
        state = _state(
            units=[
                unit("A", "leader", type="8-1"),
                unit("B", "leader", type="8-0"),
                unit("C", "leader", type="7-0"),
            ]
        )
        step_result = HARDEN.run(
            make_ctx(state, {KEY: [3, 4]}),
            state,
            "german",
            clean_fields(HARDEN.fields, {"action": "roll", "leader_kind": "infantry"}),
        )
        assert step_result == PENDING
        pend = state["game"]["sides"]["german"]["pending"]["1.6113"]
        assert pend["outcomes"] == {
            "full": {"final": 5, "leader": "8-1"},
            "reduced": {"final": 6, "leader": "8-1"},
            "ignore": {"final": 7, "leader": "8-0"},
        }
        run(
            HARDEN,
            state,
            "german",
            {"action": "resolve", "win_drm": choice, "leader": hardened, "becomes": "9-1"},
            dice={KEY: [3, 4]},
        )
        report = last_roll(state, "german")
        assert report["final"] == final
        expected = {"full": [("1.6113", -2)], "reduced": [("1.6113", -1)], "ignore": []}[choice]
        assert mod_values(report) == expected
        assert _retained(state)[hardened]["type"] == "9-1"
        assert "1.6113" not in state["game"]["sides"]["german"]["pending"]


def test_resolve_validates_the_leader_and_changes_nothing_when_wrong():
    state = _state(units=[unit("A", "leader", type="8-1"), unit("B", "leader", type="8-0")])
    run(HARDEN, state, "german", {"action": "roll"}, dice={KEY: [3, 4]})
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "win_drm": "full", "leader": "B", "becomes": "8-1"},
        "leader",
        dice={KEY: [3, 4]},
    )
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "win_drm": "full", "leader": "A"},
        "becomes",
        dice={KEY: [3, 4]},
    )
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "win_drm": "none", "leader": "A", "becomes": "9-1"},
        "win_drm",
        dice={KEY: [3, 4]},
    )
    rejects(
        HARDEN, state, "german", {"action": "roll"}, "action", dice={KEY: [3, 4]}
    )  # already rolled


def test_lowest_grade_non_wounded_leader_when_the_type_is_not_retained():
    # lost this half-day: no win DRM; DR 9 (German) -> 7-0, none retained -> the lowest-grade non-wounded
    state = _state(
        winner="allied",
        units=[
            unit("A", "leader", type="9-1"),
            unit("B", "leader", type="8-1"),
            unit("W", "leader", type="8-0", status="wounded"),
        ],
    )
    run(HARDEN, state, "german", {"action": "roll"}, dice={KEY: [4, 5]})
    pend = state["game"]["sides"]["german"]["pending"]["1.6113"]
    assert pend["outcomes"] == {"none": {"final": 9, "leader": "7-0"}}
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "leader": "W", "becomes": "8-1"},
        "leader",
        dice={KEY: [4, 5]},
    )
    run(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "leader": "B", "becomes": "9-1"},
        dice={KEY: [4, 5]},
    )
    assert _retained(state)["B"]["type"] == "9-1"


def test_allied_nationality_chosen_before_the_roll_picks_the_table():
    state = _state(
        side="allied",
        winner="german",
        units=[
            unit("F", "leader", type="8-0", nationality="french"),
            unit("B", "leader", type="8-1", nationality="british"),
        ],
    )
    key = "5/29A/1.6113/allied"
    rejects(
        HARDEN,
        state,
        "allied",
        {"action": "roll", "nationality": "german"},
        "nationality",
        dice={key: [3, 3]},
    )
    # DR 6: British table 4-6 -> 8-1; French table would give 8-0
    run(HARDEN, state, "allied", {"action": "roll", "nationality": "british"}, dice={key: [3, 3]})
    pend = state["game"]["sides"]["allied"]["pending"]["1.6113"]
    assert pend["outcomes"]["none"]["leader"] == "8-1"
    run(
        HARDEN,
        state,
        "allied",
        {"action": "resolve", "leader": "B", "becomes": "9-1"},
        dice={key: [3, 3]},
    )
    assert last_roll(state, "allied")["table"] == "1.6113.british"


def test_armor_leader_kind():
    state = _state(
        winner="allied",
        units=[unit("L", "leader", type="8-1"), unit("T", "armor_leader", type="8-1")],
    )
    run(HARDEN, state, "german", {"action": "roll", "leader_kind": "armor"}, dice={KEY: [2, 3]})
    rejects(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "leader": "L", "becomes": "9-1"},
        "leader",
        dice={KEY: [2, 3]},
    )
    run(
        HARDEN,
        state,
        "german",
        {"action": "resolve", "leader": "T", "becomes": "9-1"},
        dice={KEY: [2, 3]},
    )
    assert _retained(state)["T"]["type"] == "9-1"


@pytest.mark.parametrize(
    "leader_type,new_types", [("8-0", ["7-0", "7-0"]), ("8-1", ["8-0", "7-0"])]
)
def test_promotion_out_of_the_ranks_instead_of_the_roll(leader_type, new_types):
    state = _state(units=[unit("P", "leader", type=leader_type)])
    ctx = run(HARDEN, state, "german", {"action": "promote", "promote": "P"})
    units = state["game"]["sides"]["german"]["retained"]
    assert sorted(u["type"] for u in units) == sorted(new_types) and ctx.provider.used == []


def test_promotion_refusals():
    state = _state(
        units=[
            unit("W", "leader", type="8-0", status="wounded"),
            unit("I", "leader", type="8-1", isolated=True),
            unit("N", "leader", type="9-1"),
            unit("S", "squad"),
        ]
    )
    for uid in ("W", "I", "N", "S", "nobody"):
        rejects(HARDEN, state, "german", {"action": "promote", "promote": uid}, "promote")


def test_upcoming_shows_the_win_drm():
    state = _state()
    (roll,) = HARDEN.upcoming(state, "german", make_ctx(state))
    assert roll.table == "1.6113.german" and [(r, v) for _, r, v in roll.modifiers] == [
        ("1.6113", -2)
    ]


def test_wounded_step_applies_only_with_wounded_leaders():
    assert not WOUNDED.applies(_state(units=[unit("L", "leader", type="8-0")]), "german")
    assert WOUNDED.applies(
        _state(units=[unit("L", "leader", type="8-0", status="wounded")]), "german"
    )
