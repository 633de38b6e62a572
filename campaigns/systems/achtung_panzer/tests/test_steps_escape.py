"""1.6062-1.6064 escape from isolation (steps/escape.py)."""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.systems.achtung_panzer.steps import escape
from campaigns.systems.achtung_panzer.steps.base import PENDING
from campaigns.systems.achtung_panzer.tests.step_harness import (
    last_roll,
    make_ctx,
    make_state,
    mod_values,
    rejects,
    run,
    unit,
)

(STEP,) = escape.STEPS


def _state(units, side="german", half_day="5/29P"):
    return make_state(half_day=half_day, **{side: {"retained": list(units)}})


def _units(state, side="german"):
    return {u["id"]: u for u in state["game"]["sides"][side]["retained"]}


def key(subject, side="german", half_day="5/29P"):
    return f"{half_day}/1.6063/{side}/{subject}"


def test_every_modifier_with_its_sign():
    # Allied French stack: squad + HS + leader, adjacent, 2 PP over IPC, encircled, after an AM half-day
    state = _state(
        [
            unit("S", "squad", nationality="french", isolated=True),
            unit("H", "half_squad", nationality="french", isolated=True),
            unit("L", "leader", type="9-1", nationality="french", isolated=True),
        ],
        side="allied",
        half_day="5/29A",
    )
    stack = {
        "units": ["S", "H", "L"],
        "leader_drm": -1,
        "distance": "adjacent",
        "pp_over_ipc": 2,
        "encircled": True,
    }
    ctx = run(
        STEP,
        state,
        "allied",
        {"action": "roll", "stacks": [stack]},
        dice={key("S+H+L", "allied", "5/29A"): [3, 3]},
    )
    report = last_roll(state, "allied")
    assert mod_values(report) == [
        ("1.6063", -1),  # leader
        ("1.6063", -1),  # French
        ("1.6063", -1),  # ≤2 hexes
        ("1.6063", -1),  # adjacent
        ("1.6063", 2),  # 3 HS: +1 per HS > 1
        ("1.6063", 2),  # 2 PP > IPC
        ("1.6063", 1),  # previous half-day AM
        ("1.6063", 2),  # encircled
    ]
    assert report["final"] == 6 + 3 and report["row"] == "9"
    assert ctx.provider.sides == {key("S+H+L", "allied", "5/29A"): "allied"}


def test_lone_smc_and_captured_afv():
    state = _state(
        [
            unit("L", "leader", type="8-0", isolated=True),
            unit("T", "afv", captured=True, isolated=True),
        ]
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["L"], "leader_drm": -1}]},
        "stacks[0].leader_drm",
        dice={key("L"): [3, 3]},
    )
    run(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["L"]}, {"units": ["T"]}]},
        dice={key("L"): [3, 3], key("T"): [5, 5]},
    )
    lone, afv = state["game"]["sides"]["german"]["rolls"]
    assert mod_values(lone) == [("1.6063", -1)] and lone["row"] == "≤8"
    assert (
        mod_values(afv) == [("1.6063", 2)]
        and afv["final"] == 12
        and afv["result"]["afv"] == "Eliminated CS NA"
    )
    units = _units(state)
    assert units["L"]["isolated"] is False and "T" not in units


@pytest.mark.parametrize(
    "faces,result",
    [
        ([4, 4], "Escapes"),
        ([4, 5], "Escapes"),
        ([5, 5], "Abandoned, crew escapes"),
        ([5, 6], "Abandoned, crew eliminated"),
        ([6, 6], "Eliminated CS NA"),
    ],
)
def test_afv_rows(faces, result):
    state = _state([unit("T", "afv", isolated=True, nationality="german")])
    run(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["T"]}]},
        dice={key("T"): faces},
    )
    units = _units(state)
    assert last_roll(state, "german")["result"]["afv"] == result
    if result == "Escapes":
        assert units["T"]["isolated"] is False
    elif result.startswith("Abandoned"):
        assert units["T"]["status"] == "abandoned" and units["T"]["isolated"] is True
        crews = [u for u in units.values() if u["kind"] == "crew"]
        assert len(crews) == (1 if "escapes" in result else 0)
    else:
        assert "T" not in units


def test_infantry_casualty_reduced_waits_for_the_player():
    state = _state([unit("S", "squad", isolated=True), unit("Q", "squad", isolated=True)])
    # 4+6 = 10 +1 (2 HS... a squad is 2 HS: +1) = 11: "Escapes, Casualty Reduced, replaced"
    assert (
        STEP.run(
            make_ctx(state, {key("S"): [4, 6]}),
            state,
            "german",
            {"action": "roll", "stacks": [{"units": ["S"]}]},
        )
        == PENDING
    )
    assert last_roll(state, "german")["row"] == "11"
    assert _units(state)["S"]["isolated"] is False
    rejects(STEP, state, "german", {"action": "resolve", "outcomes": []}, "outcomes")
    rejects(
        STEP,
        state,
        "german",
        {"action": "resolve", "outcomes": [{"stack": "S", "unit": "Q", "becomes": "x"}]},
        "outcomes[0].unit",
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "resolve", "outcomes": [{"stack": "Q", "unit": "Q"}]},
        "outcomes[0].stack",
    )
    with pytest.raises(DomainError):
        STEP.extra["finish"](make_ctx(state), state, "german")
    run(
        STEP,
        state,
        "german",
        {"action": "resolve", "outcomes": [{"stack": "S", "unit": "S", "becomes": "237"}]},
    )
    assert _units(state)["S"]["type"] == "237"
    STEP.extra["finish"](make_ctx(state), state, "german")


def test_original_two_is_heat_of_battle_and_eliminated_row():
    state = _state(
        [
            unit("S", "squad", isolated=True, nationality="french"),
            unit("E", "squad", isolated=True),
        ],
        side="allied",
    )
    run(
        STEP,
        state,
        "allied",
        {"action": "roll", "stacks": [{"units": ["S"], "encircled": True}, {"units": ["E"]}]},
        dice={key("S", "allied"): [1, 1], key("E", "allied"): [6, 6]},
    )
    hob, gone = state["game"]["sides"]["allied"]["rolls"]
    assert hob["effect"]["heat_of_battle"] is True and hob["row"] == "≤8"
    assert gone["final"] == 13 and gone["row"] == "≥12"
    assert "E" not in _units(state, "allied")
    pend = state["game"]["sides"]["allied"]["pending"]["1.6063"]
    assert [s["stack"] for s in pend["stacks"]] == ["S"]
    run(
        STEP,
        state,
        "allied",
        {"action": "resolve", "outcomes": [{"stack": "S", "unit": "S", "becomes": ""}]},
    )
    assert "S" not in _units(state, "allied")  # HoB other than hardening: eliminated


def test_refusals_change_nothing():
    state = _state(
        [unit("S", "squad", isolated=True), unit("N", "squad"), unit("T", "afv", isolated=True)]
    )
    rejects(STEP, state, "german", {"action": "roll", "stacks": []}, "stacks")
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["N"]}]},
        "stacks[0].units[0]",
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}, {"units": ["S"]}]},
        "stacks[1].units[0]",
        dice={key("S"): [1, 2]},
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S", "T"]}]},
        "stacks[0].units",
    )
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["X"]}]},
        "stacks[0].units[0]",
    )
    rejects(STEP, state, "german", {"action": "resolve"}, "action")
    run(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}]},
        dice={key("S"): [2, 3]},
    )
    state["game"]["sides"]["german"]["retained"][0]["isolated"] = True  # even if still isolated
    rejects(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}]},
        "stacks[0].units[0]",
    )


def test_applies_only_with_isolated_units():
    assert not STEP.applies(_state([unit("S", "squad")]), "german")
    assert STEP.applies(_state([unit("S", "squad", isolated=True)]), "german")


def test_an_original_2_escapes_with_heat_of_battle_whatever_the_final_dr():
    """Footnote 1: "Original '2' DR always results in escape and Heat of Battle". A German squad and
    half-squad (3 HS: +2), 3 PP over IPC (+3), encircled (+2), after an AM half-day (+1): 1 + 1 = 2,
    final 2 + 8 = 10 → the row would be "Escapes, Casualty Reduced"; with 6 PP more it would be ≥ 12,
    "Eliminated". Either way they escape and Heat of Battle waits for the player (1.6064)."""
    state = _state(
        [unit("S", "squad", isolated=True, encircled=True), unit("H", "half_squad", isolated=True)],
        half_day="5/29A",
    )
    stack = {"units": ["S", "H"], "pp_over_ipc": 9}
    result = STEP.run(
        make_ctx(state, {key("S+H", half_day="5/29A"): [1, 1]}),
        state,
        "german",
        {"action": "roll", "stacks": [stack]},
    )
    report = last_roll(state, "german")
    assert report["original"] == 2 and report["final"] == 2 + 2 + 9 + 2 + 1 == 16  # the ≥12 row
    assert result == PENDING and set(_units(state)) == {"S", "H"}  # nobody eliminated
    assert all(not u["isolated"] for u in _units(state).values())
    assert report["effect"] == {"units": ["S", "H"], "result": "Escapes", "heat_of_battle": True}
    waiting = state["game"]["sides"]["german"]["pending"]["1.6063"]["stacks"]
    assert waiting[0]["heat_of_battle"] and waiting[0]["result"] == "Escapes"


def test_a_lone_isolated_smc_must_attempt_escape_before_the_step_is_done():
    """1.606: "Isolated, lone SMC must attempt escape". The leader in pocket A stacks with nothing of
    his side (the squad is in pocket B): he is lone. The other leader shares pocket B with the squad."""
    state = _state(
        [
            unit("L", "leader", type="8-0", isolated=True, pocket="A"),
            unit("M", "leader", type="9-1", isolated=True, pocket="B"),
            unit("S", "squad", isolated=True, pocket="B"),
        ]
    )
    with pytest.raises(DomainError) as caught:
        escape.finish(make_ctx(state), state, "german")
    assert (
        caught.value.field == "step" and "8-0 leader (isolated in pocket A)" in caught.value.message
    )
    assert "M:" not in caught.value.message
    run(
        STEP,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["L"]}]},
        dice={key("L"): [3, 3]},
    )
    escape.finish(make_ctx(state), state, "german")  # M and S may stay in their pocket (1.606)


def test_heat_of_battle_in_escape_may_create_a_hero():
    """1.6064: Heat of Battle (A15) "anything but hero creation or battle hardening eliminates the unit".
    Original 2 (1+1): the stack escapes with Heat of Battle; the player says A15 created a hero: the
    squad stays as it is and a hero joins the side. A hero is refused for a stack without HoB."""
    state = _state([unit("S", "squad", type="467", isolated=True)], half_day="5/29A")
    STEP.run(
        make_ctx(state, {key("S", half_day="5/29A"): [1, 1]}),
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}]},
    )
    stack = state["game"]["sides"]["german"]["pending"]["1.6063"]["stacks"][0]["stack"]
    run(
        STEP,
        state,
        "german",
        {
            "action": "resolve",
            "outcomes": [{"stack": stack, "unit": "S", "becomes": "", "hero": True}],
        },
    )
    kinds = sorted((u["kind"], u["type"]) for u in state["game"]["sides"]["german"]["retained"])
    assert kinds == [("hero", "hero"), ("squad", "467")]


def test_only_heat_of_battle_creates_a_hero_in_escape():
    """4+4 = 8 (+1 after an AM half-day) = 9: an Infantry result that waits for the player's choice of
    what the affected unit becomes, without Heat of Battle."""
    state = _state([unit("S", "squad", type="467", isolated=True)], half_day="5/29A")
    STEP.run(
        make_ctx(state, {key("S", half_day="5/29A"): [4, 4]}),
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}]},
    )
    pend = state["game"]["sides"]["german"].get("pending", {}).get("1.6063")
    assert pend is not None
    stack = pend["stacks"][0]
    assert not stack["heat_of_battle"]
    with pytest.raises(DomainError) as caught:
        run(
            STEP,
            state,
            "german",
            {
                "action": "resolve",
                "outcomes": [{"stack": stack["stack"], "unit": "S", "becomes": "", "hero": True}],
            },
        )
    assert caught.value.field == "outcomes[0].hero"
