"""1.619 purchases and the CG13 declaration: every limit refuses an over-limit purchase with a
message naming the limit, and a refusal changes nothing. Costs and limits typed from the book."""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.schema.fields import clean_fields
from campaigns.systems.achtung_panzer.steps import purchases as P

from .rg_harness import make_state, run, side_state, snapshot

STEP = {s.id: s for s in P.STEPS}


def buy(state, side, rg, **options):
    data = clean_fields(STEP["1.619"].fields, {"action": "buy", "rg": rg, **options})
    run(P.run_purchase, state, side, data)
    return P.purchases(state, side)[-1]


def refused(state, side, rg, match, **options):
    before = snapshot(state)
    with pytest.raises(DomainError) as error:
        buy(state, side, rg, **options)
    assert match in error.value.message, error.value.message
    assert state == before  # nothing changed
    return error.value.message


def declare(state, special):
    data = clean_fields(STEP["1.619.declare"].fields, {"special": special})
    run(P.run_declare, state, "allied", data)


def at(state, half_day):
    state["game"]["public"]["half_day"] = half_day
    state["game"]["public"]["special_declared"] = half_day


# --- cost and CPP ------------------------------------------------------------------------------


def test_cost_is_taken_from_cpp_and_recorded():
    state = make_state(german=side_state(cpp=20))
    record = buy(state, "german", "I1")
    assert (record["rg"], record["nationality"], record["cost"], record["base_cost"]) == (
        "I1",
        "german",
        7,
        7,
    )
    assert record["half_day"] == "5/29A" and record["given"] is False and record["id"] == "p1"
    assert state["game"]["sides"]["german"]["cpp"] == 13


def test_cpp_available():
    state = make_state(german=side_state(cpp=6))
    message = refused(state, "german", "I1", "costs 7 CPP, 6 CPP available (1.619)")
    assert message.startswith("I1 1st line Coy")


def test_cpp_may_reach_zero_but_not_below():
    state = make_state(german=side_state(cpp=7))
    buy(state, "german", "I1")
    assert state["game"]["sides"]["german"]["cpp"] == 0
    refused(state, "german", "F2", "costs 1 CPP, 0 CPP available")


def test_unknown_rg():
    state = make_state()
    refused(state, "german", "Z9", "No German RG Z9")


# --- maxima ------------------------------------------------------------------------------------


def test_half_day_maximum():
    state = make_state(german=side_state(cpp=30))
    buy(state, "german", "I1")
    buy(state, "german", "I1")
    message = refused(state, "german", "I1", "½-day maximum is 2")
    assert message == "I1 1st line Coy: ½-day maximum is 2 (1.619 German RG table)."


def test_half_day_maximum_counts_only_this_half_day():
    state = make_state(cg="cg3", german=side_state(cpp=40))
    buy(state, "german", "I1")
    buy(state, "german", "I1")
    at(state, "5/29P")
    buy(state, "german", "I1")


def test_cg_maximum():
    # German A4 Pz IIIF: ½-day 1, CG 5, May 2, June 5. Two in May and three in June reach the CG max.
    state = make_state(cg="cg3", german=side_state(cpp=100))
    for hd in ("5/29A", "5/29P", "6/1A", "6/1P", "6/2A"):
        at(state, hd)
        buy(state, "german", "A4")
    at(state, "6/2P")
    refused(state, "german", "A4", "A4 Medium Tank: CG maximum is 5 (1.619 German RG table)")


def test_may_maximum():
    # German I2 Elite Coy: May max 1.
    state = make_state(german=side_state(cpp=40))
    buy(state, "german", "I2")
    at(state, "5/29P")
    refused(state, "german", "I2", "I2 Elite Coy: May maximum is 1 (1.619 German RG table)")


def test_june_maximum():
    # German A1 Tankette: June max 0; French A4 Heavy Tank: June max 0.
    state = make_state(cg="cg2", half_day="6/1A")
    refused(state, "german", "A1", "A1 Tankette: June maximum is 0 (1.619 German RG table)")
    refused(state, "allied", "A4", "A4 Heavy Tank: June maximum is 0 (1.619 French RG table)")


def test_month_maxima_do_not_count_the_other_month():
    # German A5 Pz IV: May max 0, June max 1 (CG III spans both months).
    state = make_state(cg="cg3", german=side_state(cpp=30))
    refused(state, "german", "A5", "May maximum is 0")
    at(state, "6/1A")
    buy(state, "german", "A5")


def test_given_rgs_do_not_count_toward_purchase_maxima():
    # CG I: the French get two 1st Line Coys (I2, ½-day max 2) in the initial OB and may still buy two.
    state = make_state(allied=side_state(cpp=30))
    state["game"]["sides"]["allied"]["purchases"] = P.given_records(
        state, "allied", [{"nationality": "french", "id": "I2", "count": 2}], "5/29A"
    )
    buy(state, "allied", "I2")
    buy(state, "allied", "I2")
    refused(state, "allied", "I2", "½-day maximum is 2")


def test_house_rule_changes_a_maximum():
    state = make_state(german=side_state(cpp=30), house_rules={"1.619.german:I1:half_day_max": 3})
    for _ in range(3):
        buy(state, "german", "I1")
    refused(state, "german", "I1", "½-day maximum is 3")


# --- CG4 OBA modules ---------------------------------------------------------------------------


def test_two_oba_modules_per_half_day():
    state = make_state(german=side_state(cpp=30))
    buy(state, "german", "O1")
    buy(state, "german", "O2")
    refused(state, "german", "O3", "O3 Medium OBA: at most 2 OBA modules per CG half-day (CG4)")


def test_given_oba_modules_are_in_use_this_half_day():
    state = make_state(allied=side_state(cpp=30))
    state["game"]["sides"]["allied"]["purchases"] = P.given_records(
        state,
        "allied",
        [{"nationality": "french", "id": "O1", "count": 1, "pre_registered": True}],
        "5/29A",
    )
    buy(state, "allied", "O2")
    refused(state, "allied", "O3", "at most 2 OBA modules per CG half-day (CG4)")


def test_observers_are_not_oba_modules():
    state = make_state(german=side_state(cpp=30))
    buy(state, "german", "O1")
    buy(state, "german", "O2")
    buy(state, "german", "O5")


# --- on-map, reserve, pre-registered --------------------------------------------------------------


def test_on_map_costs_two_more():
    state = make_state(german=side_state(cpp=30))
    assert buy(state, "german", "I1", on_map=True)["cost"] == 9
    assert buy(state, "german", "A2", on_map=True)["cost"] == 7
    assert state["game"]["sides"]["german"]["cpp"] == 30 - 9 - 7


def test_on_map_is_free_where_the_notes_say_so():
    state = make_state(german=side_state(cpp=30), allied=side_state(cpp=30))
    assert buy(state, "german", "G1", on_map=True)["cost"] == 3  # German h
    assert buy(state, "allied", "G3", on_map=True)["cost"] == 5  # French k


def test_on_map_not_for_other_rgs():
    state = make_state()
    refused(
        state,
        "german",
        "O1",
        "O1 Light OBA: on-map set up is for AFV or Infantry RGs (1.16911)",
        on_map=True,
    )
    refused(state, "german", "T2", "on-map set up is for AFV or Infantry RGs", on_map=True)


def test_reserve_costs_one_less():
    state = make_state(german=side_state(cpp=30), allied=side_state(cpp=30))
    assert buy(state, "german", "I1", reserve=True)["cost"] == 6
    assert buy(state, "allied", "I3", reserve=True)["cost"] == 5
    assert buy(state, "german", "I1", reserve=True)["options"] == {
        "on_map": False,
        "reserve": True,
        "pre_registered": False,
    }


def test_reserve_not_allowed():
    state = make_state()
    refused(
        state,
        "german",
        "A2",
        "A2 Light Tank: may not be purchased as a Reserve (1.16912",
        reserve=True,
    )
    refused(state, "german", "G1", "may not be purchased as a Reserve", reserve=True)


def test_reserve_and_on_map_together_refused():
    state = make_state()
    refused(state, "german", "I1", "cannot also buy on-map set up", reserve=True, on_map=True)


def test_pre_registered_hex_costs_one_more():
    state = make_state(german=side_state(cpp=30), allied=side_state(cpp=30))
    assert buy(state, "german", "O3", pre_registered=True)["cost"] == 5
    assert buy(state, "allied", "O1", pre_registered=True)["cost"] == 3


def test_pre_registered_only_for_oba():
    state = make_state()
    refused(
        state,
        "german",
        "I1",
        "I1 1st line Coy: a pre-registered hex is bought with an OBA RG only",
        pre_registered=True,
    )


def test_options_count_toward_cpp_available():
    state = make_state(german=side_state(cpp=8))
    refused(state, "german", "I1", "costs 9 CPP, 8 CPP available", on_map=True)


# --- CG13 ---------------------------------------------------------------------------------------


def test_allied_declares_before_purchasing():
    state = make_state(declared=False)
    refused(
        state,
        "allied",
        "I1",
        "Declare a normal, Armor or British half-day before purchasing (CG13)",
    )
    declare(state, "armor")
    assert state["game"]["public"]["special_half_day"] == "armor"
    with pytest.raises(DomainError, match="already declared"):
        declare(state, "none")


def test_german_purchases_wait_for_the_declaration():
    state = make_state(declared=False)
    refused(
        state,
        "german",
        "I1",
        "Purchases start once the Allied player has declared the half-day (CG13)",
    )
    declare(state, "none")
    buy(state, "german", "I1")


def test_declaration_cannot_follow_a_purchase():
    state = make_state(declared=False)
    state["game"]["sides"]["allied"]["purchases"].append(
        {
            "id": "p9",
            "half_day": "5/29A",
            "rg": "I1",
            "nationality": "french",
            "cost": 6,
            "given": False,
        }
    )
    with pytest.raises(DomainError, match="before any RG is purchased"):
        declare(state, "british")


def test_finish_needs_the_declaration():
    state = make_state(declared=False)
    with pytest.raises(DomainError, match="CG13"):
        P.finish_purchases(None, state, "allied")
    P.finish_purchases(None, state, "german")


def test_one_french_armored_rg_per_half_day():
    state = make_state(allied=side_state(cpp=40))
    buy(state, "allied", "A5")
    message = refused(
        state,
        "allied",
        "A6",
        "at most 1 armored RG per half-day unless an Armor half-day is declared (CG13)",
    )
    assert message.startswith("A6 Armored Car")


def test_armor_half_day_lifts_the_armored_limit():
    state = make_state(allied=side_state(cpp=40), special="armor")
    buy(state, "allied", "A5")
    buy(state, "allied", "A6")


@pytest.mark.parametrize(
    "rg, what",
    [
        ("I1", "infantry RG"),
        ("I4", "infantry RG"),
        ("G1", "Gun battery RG"),
        ("F1", "Fortifications"),
    ],
)
def test_armor_half_day_forbids(rg, what):
    state = make_state(allied=side_state(cpp=40), special="armor")
    refused(state, "allied", rg, f"no {what} on an Armor half-day (CG13)")


def test_armor_half_day_allows_oba_and_transports():
    state = make_state(allied=side_state(cpp=40), special="armor")
    buy(state, "allied", "O1")
    buy(state, "allied", "T2")


def test_armor_half_day_does_not_bind_the_german():
    state = make_state(german=side_state(cpp=40), special="armor")
    buy(state, "german", "I1")


def test_british_only_on_a_british_half_day():
    state = make_state(allied=side_state(cpp=40))
    refused(
        state,
        "allied",
        "I1",
        "I1 Territorial: British RGs only on a declared British half-day (CG13)",
        nationality="british",
    )


def test_no_french_on_a_british_half_day():
    state = make_state(allied=side_state(cpp=40), special="british")
    refused(
        state,
        "allied",
        "I1",
        "British may not be purchased on a half-day when French units are purchased",
        nationality="french",
    )
    record = buy(
        state, "allied", "I1"
    )  # the Allied side buys British by default on a British half-day
    assert (record["nationality"], record["group_type"]) == ("british", "Territorial")


def test_british_armored_rgs_are_not_limited_to_one():
    state = make_state(allied=side_state(cpp=40), special="british")
    buy(state, "allied", "A1")
    buy(state, "allied", "A2")


def test_british_half_days_per_cg():
    state = make_state(cg="cg1", declared=False)
    for hd in ("5/29A", "5/29P"):
        state["game"]["public"]["half_day"] = hd
        declare(state, "british")
    state["game"]["public"]["half_day"] = "5/30A"
    before = snapshot(state)
    with pytest.raises(DomainError) as error:
        declare(state, "british")
    assert error.value.message == "British half-days: at most 2 per CG (CG13)."
    assert state == before
    declare(state, "armor")


def test_british_half_days_in_cg_iii():
    state = make_state(cg="cg3", declared=False)
    for hd in ("5/29A", "5/29P", "5/30A", "5/30P"):
        state["game"]["public"]["half_day"] = hd
        declare(state, "british")
    state["game"]["public"]["half_day"] = "5/31A"
    with pytest.raises(DomainError, match=r"at most 4 per CG \(CG13, CG III\)"):
        declare(state, "british")


def test_german_side_buys_german():
    state = make_state()
    refused(state, "german", "I1", "The German side buys German RGs", nationality="french")


# --- grants, removal ----------------------------------------------------------------------------


def test_fortification_rg_gives_fpp():
    state = make_state(german=side_state(cpp=10), allied=side_state(cpp=10))
    buy(state, "german", "F1")
    buy(state, "german", "F1")
    buy(state, "allied", "F1")
    assert state["game"]["sides"]["german"]["fpp"] == 40
    assert state["game"]["sides"]["allied"]["fpp"] == 30


def test_sniper_rg_raises_san():
    state = make_state(german=side_state(cpp=10, san=3))
    buy(state, "german", "F2")
    assert state["game"]["sides"]["german"]["san"] == 4


def test_remove_gives_everything_back():
    state = make_state(german=side_state(cpp=20, fpp=5, san=2))
    first = buy(state, "german", "F1")
    buy(state, "german", "F2")
    clean = clean_fields(STEP["1.619"].fields, {"action": "remove", "purchase": first["id"]})
    run(P.run_purchase, state, "german", clean)
    side = state["game"]["sides"]["german"]
    assert (side["cpp"], side["fpp"], side["san"]) == (19, 5, 3)
    assert [p["rg"] for p in side["purchases"]] == ["F2"]


def test_remove_refuses_given_and_unknown():
    state = make_state()
    state["game"]["sides"]["allied"]["purchases"] = P.given_records(
        state, "allied", [{"nationality": "french", "id": "I2", "count": 1}], "5/29A"
    )
    for target, match in (("p1", "was not bought in this 1.619 step"), ("p77", "No purchase p77")):
        before = snapshot(state)
        with pytest.raises(DomainError, match=match):
            run(P.run_purchase, state, "allied", {"action": "remove", "purchase": target})
        assert state == before


def test_no_purchase_after_the_step_is_done():
    state = make_state()
    state["game"]["public"]["refit_key"] = "5/29A"
    state["game"]["sides"]["german"]["marks"] = {"5/29A": {"1.619": "done"}}
    refused(state, "german", "I1", "1.619 is already done")


def test_given_records_carry_the_ob_flags():
    state = make_state()
    entry = {
        "nationality": "french",
        "id": None,
        "count": 1,
        "kind": "armor",
        "no_depletion": True,
        "no_armor_leader": True,
        "units": [{"type": "FT-17c", "count": 2}],
    }
    (record,) = P.given_records(state, "allied", [entry], "6/1A")
    assert (
        record["given"]
        and record["no_depletion"]
        and record["no_armor_leader"]
        and record["kind"] == "armor"
    )
    assert record["cost"] == 0 and record["half_day"] == "6/1A"
    assert record["given_units"] == [{"type": "FT-17c", "count": 2}] and record["units"] == []
