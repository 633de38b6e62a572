"""1.623 initiative and 1.6231 scenario types (steps/initiative.py)."""

from __future__ import annotations

import copy

import pytest

from campaigns.errors import DomainError
from campaigns.systems.achtung_panzer.steps import initiative
from campaigns.systems.achtung_panzer.steps.base import PENDING
from campaigns.systems.achtung_panzer.tests.step_harness import make_ctx, make_state

KEY = "5/29P/1.6231/public/sets_up_first"


def test_step_opens_the_sealed_choice_and_waits():
    state = make_state()
    (step,) = initiative.STEPS
    assert step.run(make_ctx(state), state, None, {}) == PENDING
    sealed = state["sealed"]["initiative:5/29P"]
    assert sealed["options"] == ["attack", "idle"] and sealed["sides"] == ["allied", "german"]
    assert sealed["open"] and not sealed["revealed"]
    with pytest.raises(DomainError):
        initiative.open_initiative(state)


@pytest.mark.parametrize(
    "allied,german,type_,sets_up,moves",
    [
        ("attack", "idle", "allied_assault", "german", "allied"),
        ("idle", "attack", "german_assault", "allied", "german"),
    ],
)
def test_assaults_set_order_from_1_6231(allied, german, type_, sets_up, moves):
    state = make_state(allied={"cpp": 3}, german={"cpp": 3})
    ctx = make_ctx(state)
    outcome = initiative.on_revealed(
        state, "initiative:5/29P", {"allied": allied, "german": german}, ctx
    )
    public = state["game"]["public"]
    assert outcome == {"type": type_, "sets_up_first": sets_up, "moves_first": moves}
    assert (public["scenario_type"], public["sets_up_first"], public["moves_first"]) == (
        type_,
        sets_up,
        moves,
    )
    assert public["attack_chits"] == {"allied": allied == "attack", "german": german == "attack"}
    # the attack chit costs 1 CPP, idle is free
    assert state["game"]["sides"]["allied"]["cpp"] == (2 if allied == "attack" else 3)
    assert state["game"]["sides"]["german"]["cpp"] == (2 if german == "attack" else 3)
    assert public["rolls"] == [] and ctx.provider.used == []


@pytest.mark.parametrize("choice", ["attack", "idle"])
@pytest.mark.parametrize("die,first", [(1, "allied"), (3, "allied"), (4, "german"), (6, "german")])
def test_both_attack_or_both_idle_is_a_dual_attack_with_a_public_set_up_dr(choice, die, first):
    state = make_state(allied={"cpp": 1}, german={"cpp": 1})
    ctx = make_ctx(state, {KEY: [die]})
    initiative.on_revealed(state, "initiative:5/29P", {"allied": choice, "german": choice}, ctx)
    public = state["game"]["public"]
    assert public["scenario_type"] == "dual"
    assert public["sets_up_first"] == first
    assert public["moves_first"] is None  # rolled once, at 1.625
    assert ctx.provider.sides == {KEY: ""}
    assert public["rolls"][-1]["row"] == ("≤3" if die <= 3 else "≥4")
    spent = 1 if choice == "attack" else 0
    assert state["game"]["sides"]["allied"]["cpp"] == 1 - spent


def test_an_attack_chit_needs_the_cpp():
    state = make_state(allied={"cpp": 0}, german={"cpp": 4})
    before = copy.deepcopy(state)
    with pytest.raises(DomainError) as caught:
        initiative.clean_choice(state, "initiative:5/29P", "attack", make_ctx(state, side="allied"))
    assert caught.value.field == "choice" and "1 CPP" in caught.value.message
    assert (
        initiative.clean_choice(state, "initiative:5/29P", "idle", make_ctx(state, side="allied"))
        == "idle"
    )
    assert (
        initiative.clean_choice(state, "initiative:5/29P", "attack", make_ctx(state, side="german"))
        == "attack"
    )
    with pytest.raises(DomainError):
        initiative.clean_choice(state, "initiative:5/29P", "charge", make_ctx(state, side="german"))
    assert state == before


def test_house_ruled_chit_cost():
    state = make_state(
        allied={"cpp": 2},
        german={"cpp": 2},
        house_rules={"initiative.attack_chit_cost": {"value": 2, "book": 1}},
    )
    initiative.on_revealed(state, "k", {"allied": "attack", "german": "idle"}, make_ctx(state))
    assert state["game"]["sides"]["allied"]["cpp"] == 0
