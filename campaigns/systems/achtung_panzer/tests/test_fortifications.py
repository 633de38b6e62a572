"""1.621: FPP costs typed from TH1.621, unspent FPP forfeit, no fortifications on an Armor half-day."""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.schema.fields import clean_fields
from campaigns.systems.achtung_panzer.steps import fortifications as F

from .rg_harness import make_state, run, side_state, snapshot

FIELDS = F.STEPS[0].fields


def fortify(state, side, **data):
    run(F.run_fortify, state, side, clean_fields(FIELDS, {"action": "buy", **data}))
    return state["game"]["sides"][side]["fortifications"][-1]


def cost(side="german", **data):
    state = make_state(german=side_state(fpp=200), allied=side_state(fpp=200))
    return fortify(state, side, **data)["cost"]


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"item": "Foxholes", "size": 3}, 3),
        ({"item": "Foxholes", "size": 2}, 2),
        ({"item": "Foxholes", "size": 1}, 1),
        ({"item": "Trench"}, 5),
        ({"item": "Sangar"}, 1),
        ({"item": "Wire"}, 7),
        ({"item": "Roadblock"}, 8),
        ({"item": "Fortified Building"}, 10),
        ({"item": "Fortified Building", "count": 2}, 20),  # b: per Location
        ({"item": "Dummy Mines"}, 1),
        ({"item": "AT Ditch"}, 10),
        ({"item": "?", "count": 4}, 4),
        ({"item": "HIP", "unit": "afv"}, 5),
        ({"item": "HIP", "unit": "squad"}, 3),
        ({"item": "HIP", "unit": "half_squad"}, 2),
        ({"item": "HIP", "unit": "smc"}, 1),
        ({"item": "Pillbox", "x": 1, "y": 5, "z": 7}, 39),  # (1+5+7)*3
    ],
)
def test_costs(data, expected):
    assert cost(**data) == expected


@pytest.mark.parametrize(
    "side, item, factors, known, expected",
    [
        ("german", "AP Mines", 6, False, 18),  # c: German 3
        ("allied", "AP Mines", 6, False, 12),  # c: French 2
        ("german", "AT Mines", 2, False, 14),  # German 7
        ("allied", "AT Mines", 2, False, 12),  # French 6
        ("german", "AP Mines", 3, True, 5),  # f: ½ for KNOWN mines, 9/2 rounded up
    ],
)
def test_mine_costs(side, item, factors, known, expected):
    assert cost(side, item=item, factors=factors, known=known) == expected


def test_record_and_fpp():
    state = make_state(german=side_state(fpp=50))
    fort = fortify(state, "german", item="AP Mines", factors=6, location="23R4")
    assert (
        fort["type"] == "AP Mines"
        and fort["strength"] == 6
        and fort["location"] == "23R4"
        and fort["half_day"] == "5/29A"
    )
    assert state["game"]["sides"]["german"]["fpp"] == 32
    assert fortify(state, "german", item="Wire")["location"] is None


def test_not_enough_fpp():
    state = make_state(german=side_state(fpp=6))
    before = snapshot(state)
    with pytest.raises(DomainError) as error:
        fortify(state, "german", item="Wire")
    assert error.value.message == "Wire: costs 7 FPP, 6 FPP available (1.621)."
    assert state == before


@pytest.mark.parametrize(
    "data, match",
    [
        ({"item": "Foxholes"}, "give the size"),
        ({"item": "HIP"}, "give the unit"),
        ({"item": "AT Mines"}, "strength in factors"),
        ({"item": "Pillbox", "x": 1}, "give x, y and z"),
    ],
)
def test_missing_inputs(data, match):
    state = make_state(german=side_state(fpp=50))
    before = snapshot(state)
    with pytest.raises(DomainError, match=match):
        fortify(state, "german", **data)
    assert state == before


def test_unspent_fpp_forfeit_on_finish():
    state = make_state(german=side_state(fpp=50))
    fortify(state, "german", item="Trench")
    F.finish_fortify(None, state, "german")
    side = state["game"]["sides"]["german"]
    assert side["fpp"] == 0 and side["fpp_forfeit"] == [{"half_day": "5/29A", "fpp": 45}]


def test_no_fortifications_on_an_armor_half_day():
    state = make_state(allied=side_state(fpp=30), german=side_state(fpp=30), special="armor")
    before = snapshot(state)
    with pytest.raises(
        DomainError, match=r"No Fortifications may be purchased on an Armor half-day \(CG13\)"
    ):
        fortify(state, "allied", item="Trench")
    assert state == before
    fortify(state, "german", item="Trench")  # the German side is not bound


def test_remove_within_the_step():
    state = make_state(german=side_state(fpp=20))
    fort = fortify(state, "german", item="Wire")
    run(
        F.run_fortify,
        state,
        "german",
        clean_fields(FIELDS, {"action": "remove", "fortification": fort["id"]}),
    )
    assert (
        state["game"]["sides"]["german"]["fpp"] == 20
        and state["game"]["sides"]["german"]["fortifications"] == []
    )
    with pytest.raises(DomainError, match="No fortification f9"):
        run(
            F.run_fortify,
            state,
            "german",
            clean_fields(FIELDS, {"action": "remove", "fortification": "f9"}),
        )


def test_house_rule_changes_a_cost():
    state = make_state(german=side_state(fpp=20), house_rules={"1.621:Wire:cost": 4})
    assert fortify(state, "german", item="Wire")["cost"] == 4


def test_step_skipped_without_fpp():
    assert not F.STEPS[0].applies(make_state(german=side_state(fpp=0)), "german")
    assert F.STEPS[0].applies(make_state(german=side_state(fpp=20)), "german")
