"""Entered (table) dice after "Done buying": every die that is certainly due
(1.6201 strength and unit types, 1.6202 support weapons, 1.6204 batteries and OBA, 1.6205 and
1.6206 leaders) is asked in one form; only a die that depends on another's result (the attached
weapon after "Attached", R-C10; a depleted HW platoon's lost weapon) waits one more round, and no
die is asked that turns out not to be due (the last submission uses every die entered)."""

from __future__ import annotations

import re

import pytest

from campaigns.errors import DiceNeeded
from campaigns.services.journal import submit
from campaigns.systems.achtung_panzer import words

from .campaign_harness import PLAYERS, War

pytestmark = pytest.mark.django_db


@pytest.fixture
def war(club, people):
    war = War(club, people, dice_mode="entered")
    war.by("allied", "ap.declare", {"special": "none"})
    return war


def done_buying(war, side: str, faces) -> list[list[str]]:
    """Press "Done buying" as a player at the table does: each time the form comes back asking for
    dice, type them (faces(key, expr)) and press again. Returns the keys asked, round by round."""
    entered: dict = {}
    rounds = []
    for _ in range(10):
        try:
            submit(
                war.campaign,
                war.people[PLAYERS[side]],
                "ap.check",
                {"step": "1.619"},
                dice=entered or None,
            )
        except DiceNeeded as needed:
            keys = [n["key"] for n in needed.needs]
            assert not set(keys) & set(entered), "a die already entered was asked again"
            rounds.append(keys)
            entered.update({n["key"]: faces(n["key"], n["expr"]) for n in needed.needs})
            continue
        war.campaign.refresh_from_db()
        return rounds
    raise AssertionError(f"still asking after {len(rounds)} rounds")


def steps_of(keys) -> set[str]:
    return {key.split("/")[2] for key in keys}


def test_done_buying_asks_every_certain_die_in_one_form(war):
    """German CG I: the OB's I1 ×2, I5, G1 and A2 plus a bought A2 — strength, type, SW, battery,
    infantry and armor leaders: one round of dice (before: one round per step, 5 here). Full
    strength everywhere (6 +1 = 7), so no die depends on another."""
    war.by("german", "ap.purchase", {"action": "buy", "rg": "A2"})
    rounds = done_buying(war, "german", lambda key, expr: [3, 3] if expr == "2d6" else [3])
    assert len(rounds) == 1, [sorted(steps_of(r)) for r in rounds]
    assert steps_of(rounds[0]) == {"1.6201", "1.6202", "1.6204", "1.6205", "1.6206"}
    assert war.current("german").id == "1.621"
    rolled = set(war.campaign.events.filter(kind="dice.rolled").values_list("data__key", flat=True))
    assert set(rounds[0]) <= rolled  # every die asked was a die rolled


def test_a_die_that_depends_on_another_waits_one_round_only(war):
    """Allied CG I: a bought I2 whose strength DR of 2 reads "Attached" (2 −2 = 0) asks for the
    attached weapon's dr in a second round, and nothing else; with a strength of "full" there is
    no second round."""
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I2"})
    bought = next(
        p for p in war.side("allied")["purchases"] if p["rg"] == "I2" and not p.get("given")
    )
    strength = f"5/29A/1.6201/allied/{bought['id']}"

    def faces(key, expr):
        if key == strength:
            return [1, 1]
        return [5, 5] if expr == "2d6" else [3]

    rounds = done_buying(war, "allied", faces)
    assert len(rounds) == 2, [sorted(steps_of(r)) for r in rounds]
    assert steps_of(rounds[0]) >= {"1.6201", "1.6202", "1.6205"}
    assert rounds[1] == [
        f"{strength}/attached"
    ]  # R-C10: the Attached Weapons Table after "Attached"
    record = next(p for p in war.side("allied")["purchases"] if p["id"] == bought["id"])
    assert record["strength"] == "attached" and record["attached"]


def test_the_dice_asked_are_named_in_words(war):
    war.by("german", "ap.purchase", {"action": "buy", "rg": "A2"})
    with pytest.raises(DiceNeeded) as needed:
        submit(war.campaign, war.people["bob"], "ap.check", {"step": "1.619"})
    labels = [words.key_words(n["key"], war.state) for n in needed.value.needs]
    assert any(
        label.startswith("5/29A support weapon of 1st RG I1 (1st line Coy): MMG")
        for label in labels
    ), labels
    assert any(
        label.startswith("5/29A infantry leaders of RG I5 (Hvy Wpn Platoon)") for label in labels
    ), labels
    assert any(
        label.startswith("5/29A armor leader of 2nd RG A2 (Light Tank)") for label in labels
    ), labels
    assert not any(re.search(r"\bp\d+\b|_|/(allied|german)/", label) for label in labels), (
        labels
    )  # no ids


def test_a_depleted_hw_platoons_lost_weapon_waits_for_its_weapons(war):
    """German I5 (HW platoon) depleted (8 +1 = 9): which weapon it does not receive is a Random
    Selection among those received (1.6202), so that dr comes in the second round, alone."""
    rounds = done_buying(war, "german", lambda key, expr: [4, 4] if expr == "2d6" else [3])
    assert len(rounds) == 2
    assert [key.rsplit("/", 2)[-2] for key in rounds[1]] == ["hw_lost"]
    i5 = next(p for p in war.side("german")["purchases"] if p["rg"] == "I5")
    assert i5["strength"] == "depleted" and i5["sw_lost"]


def test_cpp_elr_and_weather_dice_come_together(war):
    """After fortification removal (1.615) the CPP (1.616) and ELR (1.617) DRs, and for the Allies
    the weather DR (1.618), are due whatever each shows: one form (before: one round each)."""
    from .campaign_harness import QUIET

    war.walk_both(answers={"allied": QUIET, "german": QUIET})
    war.result(
        {
            "german_objectives_start": "23BB5 23X3",
            "allied_objectives_end": "23BB5 23X3",
            "allied_cvp": 3,
            "german_cvp": 31,
        }
    )
    war.walk_both(until="1.615", answers={"allied": QUIET, "german": QUIET})
    assert war.current("allied").id == "1.615"
    with pytest.raises(DiceNeeded) as needed:
        submit(war.campaign, war.people["alice"], "ap.1.615", {"items": []})
    assert steps_of(n["key"] for n in needed.value.needs) == {"1.616", "1.617", "1.618"}
