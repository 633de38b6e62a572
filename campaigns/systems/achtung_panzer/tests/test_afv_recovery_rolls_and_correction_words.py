"""AFV recovery at 1.6131 (a shocked AFV still immobilized, a refused roll named by the row sent),
the weather no longer upcoming once rolled, an EC event without an EC, a malfunctioned AFV weapon
that must roll, and corrections worded with the declared labels. The rule and the arithmetic each
rests on are in its comments."""

from __future__ import annotations

from campaigns.journal.records import Record
from campaigns.selectors.proposals_shown import _changes
from campaigns.systems.achtung_panzer import SYSTEM
from campaigns.systems.achtung_panzer.steps import equipment, escape, replenishment
from campaigns.systems.achtung_panzer.tests.step_harness import (
    make_ctx,
    make_state,
    rejects,
    roster_line,
    run,
    step_by_id,
    unit,
)
from campaigns.systems.achtung_panzer.tests.test_refit_and_aftermath_at_the_table import CVP_LIST

IMMOB = step_by_id(equipment.STEPS, "1.6131")
WEATHER = step_by_id(replenishment.STEPS, "1.618")


def _after_victory():
    line = dict(roster_line("5/29A", "allied"), played=True)
    return make_state(half_day="5/29P", roster=[line], house_rules=CVP_LIST, refit_key="5/29P")


# --- 1.6131: a shocked AFV that is also immobilized can never finish the step -------------------


def test_a_shocked_afv_still_immobilized_recovers_and_then_makes_the_1_6131d_dr():
    """An AFV immobilized on an earlier half-day keeps its immobilized mark (1.6131d failed: "≥3 No
    change"); it fights on, immobile, and ends this scenario shocked. 1.6131b: the shock dr at the
    table ends "no longer shocked"; the AFV is still a manned, immobilized AFV, so 1.6131d applies:
    dr 2, no DRM (not isolated, no leader) -> 2 ≤ 2: "Becomes Mobile".
    On main the roll ticked for it is dropped (the AFV counts as "freed" by its at-table outcome) while
    the AFV is still required to roll: DomainError "rolls ... add T1" whatever the player sends, a
    mandatory step that cannot be finished."""
    state = make_state(
        german={"retained": [unit("T1", "afv", type="PzIIIF", status="shocked", immobilized=True)]}
    )
    run(
        IMMOB,
        state,
        "german",
        {"at_table": [{"afv": "T1", "outcome": "recovered"}], "rolls": [{"afv": "T1"}]},
        dice={"5/29P/1.6131/german/T1": [2]},
    )
    t1 = state["game"]["sides"]["german"]["retained"][0]
    assert t1["status"] == "ok" and not t1["immobilized"]


def test_a_shocked_afv_still_immobilized_that_is_eliminated_needs_no_1_6131d_dr():
    """Same AFV; C7.47 at the table ends in its elimination (1.6131b): nothing is left to repair.
    It leaves the retained units and, after 1.6067, its club CVP value 5 count for 1.616 only
    (cvp_after_victory 0 + 5 = 5). On main: DomainError "Each manned, immobilized AFV must roll: add T1"
    (and a roll for it is dropped as "freed"): the step can never be finished."""
    state = _after_victory()
    state["game"]["sides"]["german"]["retained"] = [
        unit("T1", "afv", type="PzIIIF", status="shocked", immobilized=True)
    ]
    run(IMMOB, state, "german", {"at_table": [{"afv": "T1", "outcome": "eliminated"}]})
    german = state["game"]["sides"]["german"]
    assert german["retained"] == [] and german["cvp_after_victory"] == {"5/29A": 5}


def test_a_refused_1_6131_roll_names_the_row_as_it_was_sent():
    """T1 recovers from shock mobile at the table (1.6131b), so the roll ticked for it in row 0 is
    dropped; row 1 names an AFV that is not immobilized (P1, ok). The refusal points at rolls[1],
    the row the player sent, not at the position it had after row 0 was dropped."""
    state = make_state(
        german={
            "retained": [
                unit("T1", "afv", type="PzIIIF", status="shocked"),
                unit("P1", "afv", type="PzIIIF", status="ok"),
            ]
        }
    )
    rejects(
        IMMOB,
        state,
        "german",
        {
            "at_table": [{"afv": "T1", "outcome": "recovered"}],
            "rolls": [{"afv": "T1"}, {"afv": "P1"}],
        },
        "rolls[1].afv",
    )


# --- 1.618: the weather, once rolled, is no upcoming roll ----------------------------------------


def test_the_weather_once_rolled_is_no_longer_an_upcoming_roll():
    """1.618 in two parts (R-B7): weather DR 3+3 = 6 -> Clear; the step now waits for the EC only.
    The odds panel lists the side's upcoming rolls: the weather DR has been made, so none is left for
    1.618 (the EC dr is rolled at the table). On main the weather DR is still offered with its odds."""
    state = make_state()
    WEATHER.run(make_ctx(state, {"5/29P/1.618/allied": [3, 3]}), state, "allied", {})
    assert state["game"]["public"]["weather"] is not None and state["game"]["public"]["ec"] is None
    assert WEATHER.upcoming(state, "allied", make_ctx(state)) == []


def test_an_ec_event_without_an_ec_is_not_described_as_none():
    """An ap.1.618 event may now carry no EC (the weather roll alone, R-B7): the history (public)
    must not read "Environmental conditions: None (1.618)"."""
    text = SYSTEM.describe(Record(7, "ap.1.618", {"ec": None}, "ann", "allied"))
    assert "None" not in text


# --- corrections in words: labels keep their capitals -----------------------------------------------


def test_a_correction_keeps_the_capitals_of_the_declared_labels():
    """The escape stack's declared label is "PP over IPC" (PP, IPC: ASL abbreviations); a correction
    of it must not read "pp over ipc". On main nested labels are lowercased."""
    (step,) = escape.STEPS
    rows = _changes(
        {"action": "roll", "stacks": [{"units": ["u1"], "pp_over_ipc": 0}]},
        {"action": "roll", "stacks": [{"units": ["u1"], "pp_over_ipc": 2}]},
        step.fields,
    )
    ((_, _, after),) = rows
    assert "PP over IPC 2" in after, after


# --- 1.6132: the dr of a malfunctioned AFV weapon may be left out -------------------------------


def test_an_afv_marked_malfunctioned_must_roll_for_its_weapon():
    """1.6132: "Each side makes a separate dr ... for each malfunctioned non-captured retained weapon"
    (vehicular-mounted: -2; dr ≥ 3 -> Disabled, MA -> recall). R-A22: the AFV marked malfunctioned at
    the end of the scenario names the weapon. The step must not finish with no weapon named for it:
    on main {"weapons": []} is accepted (only SW and Guns are required) and the AFV simply keeps its
    "malfunctioned" mark until the next end-of-scenario record erases it, the dr never made."""
    repair = step_by_id(equipment.STEPS, "1.6132")
    state = make_state(
        german={
            "retained": [
                unit(
                    "T1",
                    "afv",
                    type="PzIIIF",
                    status="malfunctioned",
                    weapons={"MA": "ok", "CMG": "ok"},
                )
            ]
        }
    )
    assert repair.applies(state, "german")
    rejects(repair, state, "german", {"weapons": []}, "weapons")
