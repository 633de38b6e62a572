"""AFVs after the scenario: bogged and shocked/UK AFVs at 1.6131, captured and isolated AFVs of a
withdrawn platoon (1.6142, 1.6143), disabled weapons, and how corrections and lists read back;
worked out from the rules and the tables (refit_1610_1615.yaml)."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from campaigns.schema.fields import Field
from campaigns.schema.forms import SchemaForm
from campaigns.selectors.proposals_shown import _changes
from campaigns.systems.achtung_panzer import aftermath
from campaigns.systems.achtung_panzer.steps import equipment
from campaigns.systems.achtung_panzer.tests.step_harness import (
    make_state,
    rejects,
    roster_line,
    run,
    step_by_id,
    unit,
)
from campaigns.systems.achtung_panzer.tests.test_refit_and_aftermath_at_the_table import CVP_LIST

IMMOB = step_by_id(equipment.STEPS, "1.6131")
WITHDRAW = step_by_id(equipment.STEPS, "1.6142")


def _after_victory(half_day="5/29A"):
    line = dict(roster_line(half_day, "allied"), played=True)
    return make_state(
        half_day="5/29P",
        roster=[line],
        house_rules=CVP_LIST,
        refit_key="5/29P",
        german={"retained": []},
    )


# --- R-A20: 1.6131 b-c ----------------------------------------------------------------------------


def test_a_bogged_afv_that_ends_immobilized_makes_the_immobilization_dr():
    """D8.3 at the table ends "immobilized": 1.6131d then applies, dr 2 (no DRM) ≤ 2 -> mobile."""
    state = make_state(german={"retained": [unit("T1", "afv", type="PzIIIF", status="bogged")]})
    run(
        IMMOB,
        state,
        "german",
        {"at_table": [{"afv": "T1", "outcome": "immobilized"}], "rolls": [{"afv": "T1"}]},
        dice={"5/29P/1.6131/german/T1": [2]},
    )
    t1 = state["game"]["sides"]["german"]["retained"][0]
    assert t1["status"] == "ok"


def test_a_bogged_afv_that_ends_immobilized_must_roll():
    state = make_state(german={"retained": [unit("T1", "afv", type="PzIIIF", status="bogged")]})
    error = rejects(
        IMMOB, state, "german", {"at_table": [{"afv": "T1", "outcome": "immobilized"}]}, "rolls"
    )
    assert "T1" in error.message


def test_an_unbogged_afv_ticked_for_the_dr_is_not_rolled():
    """The page ticks the dr of a bogged AFV in advance; once it ended unbogged no dr is made."""
    state = make_state(german={"retained": [unit("T1", "afv", type="PzIIIF", status="bogged")]})
    run(
        IMMOB,
        state,
        "german",
        {"at_table": [{"afv": "T1", "outcome": "unbogged"}], "rolls": [{"afv": "T1"}]},
        dice={},
    )
    german = state["game"]["sides"]["german"]
    assert german["retained"][0]["status"] == "ok"
    assert not [r for r in german.get("rolls", []) if "/1.6131/" in r.get("key", "")]


def test_every_bogged_or_shocked_afv_says_how_it_ended():
    state = make_state(
        german={
            "retained": [unit("T1", "afv", status="bogged"), unit("T2", "afv", status="shocked")]
        }
    )
    error = rejects(
        IMMOB, state, "german", {"at_table": [{"afv": "T1", "outcome": "unbogged"}]}, "at_table"
    )
    assert "T2" in error.message
    assert (
        "bogged"
        in rejects(
            IMMOB,
            state,
            "german",
            {"at_table": [{"afv": "T1", "outcome": "recovered"}]},
            "at_table[0].outcome",
        ).message
    )


def test_a_shocked_afv_eliminated_after_victory_counts_for_1_616_only():
    """C7.47 ends in elimination at 1.6131 (after 1.6067): the club's AFV value 5 goes to the German's
    private CVP after victory, the half-day's public CVP stay as they were."""
    state = _after_victory()
    state["game"]["sides"]["german"]["retained"] = [unit("T1", "afv", status="shocked")]
    run(IMMOB, state, "german", {"at_table": [{"afv": "T1", "outcome": "eliminated"}]})
    german = state["game"]["sides"]["german"]
    assert german["retained"] == [] and german["cvp_after_victory"] == {"5/29A": 5}
    assert state["game"]["public"]["roster"][0]["cvp"] == {"allied": 0, "german": 0}


# --- 1.6142 / 1.6143 --------------------------------------------------------------------------


def test_a_withdrawn_captured_afv_is_eliminated_and_counts_for_1_616():
    """The captured S35 rolls alone: dr 6 -> Withdrawn (1.6142 table, no DRM with no loss):
    eliminated; club AFV value 5 -> CVP after victory 5."""
    state = _after_victory()
    state["game"]["sides"]["german"]["retained"] = [unit("T9", "afv", type="S35", captured=True)]
    run(WITHDRAW, state, "german", {}, dice={"5/29P/1.6142/german/T9": [6]})
    german = state["game"]["sides"]["german"]
    assert german["retained"] == [] and german["cvp_after_victory"] == {"5/29A": 5}


def test_an_isolated_immobilized_afv_of_a_withdrawn_platoon_is_not_marked_for_1_6143():
    """1.6143 names "an isolated mobile AFV"; the immobilized one stays, unmarked; the mobile one is
    marked; the non-isolated one is eliminated (dr 6: Withdrawn)."""
    state = _after_victory()
    state["game"]["sides"]["german"].update(
        platoons_on_map=["p4"],
        retained=[
            unit("A", "afv", platoon="p4"),
            unit("B", "afv", platoon="p4", isolated=True),
            unit("C", "afv", platoon="p4", isolated=True, status="immobilized", immobilized=True),
        ],
    )
    run(WITHDRAW, state, "german", {}, dice={"5/29P/1.6142/german/p4": [6]})
    left = {u["id"]: u for u in state["game"]["sides"]["german"]["retained"]}
    assert set(left) == {"B", "C"}
    assert left["B"].get("withdrawal_pending") and not left["C"].get("withdrawal_pending")


def test_a_disabled_afv_weapon_cannot_malfunction_again():
    repair = step_by_id(equipment.STEPS, "1.6132")
    state = make_state(
        german={"retained": [unit("T1", "afv", status="malfunctioned", weapons={"MA": "disabled"})]}
    )
    assert (
        "disabled"
        in rejects(
            repair,
            state,
            "german",
            {"weapons": [{"unit": "T1", "weapon": "MA"}]},
            "weapons[0].weapon",
        ).message
    )


# --- the page: lists of plain text, corrections in words ------------------------------------------


def test_a_list_of_plain_text_is_one_box_per_item_and_reads_back_as_a_list():
    fields = (
        Field("units", "list", required=False, default=[], max=3, item=Field("unit", max_length=5)),
    )
    form = SchemaForm(fields, initial={"units": ["p4", "p5"]})
    html = str(form["units"].value())
    assert html == "['p4', 'p5']"  # the bound value is the list itself, drawn as boxes by the tag
    posted = QueryDict(mutable=True)
    posted.setlist("units", ["p4", " ", "p6"])
    bound = SchemaForm(fields, posted)
    assert bound.is_valid() and bound.event_data() == {"units": ["p4", "p6"]}
    posted.setlist("units", ["a", "b", "c", "d"])
    assert not SchemaForm(fields, posted).is_valid()
    posted.setlist("units", ["toolong"])
    assert not SchemaForm(fields, posted).is_valid()


def test_a_correction_names_each_change_in_the_declared_words():
    rows = _changes(
        {"units": [{"unit": "u1", "fate": "kept"}], "cvp": 3, "note": ""},
        {"units": [{"unit": "u1", "fate": "captured"}], "cvp": 3, "note": "ok"},
        aftermath.EVENT.fields,
    )
    assert rows == [
        ("Units marked", "unit u1; fate kept", "unit u1; fate captured by the enemy"),
        ("Note (your side only)", "—", "ok"),
    ]


@pytest.mark.parametrize("value,words", [(True, "yes"), (False, "no")])
def test_ticks_read_yes_or_no(value, words):
    assert _changes({"captured": None}, {"captured": value}) == [("Captured", "—", words)]
