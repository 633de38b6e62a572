"""ELR by nationality (CG14, 1.617, 1.625, 1.31; docs/rules-notes.md R-A25).

CG14: "all German units have an ELR of 3, all French units have an ELR of 3 and all British units
have an ELR of 4. German pioneers have an ELR of 5". 1.617: "On a Final DR of ≤ 2 that side's current
ELR increases by one, to a maximum of 4. On a Final DR of ≥ 13 its current ELR decreases by one, to a
minimum of 0."
"""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.forms import HouseRuleForm
from campaigns.journal.context import Ctx
from campaigns.journal.house_rules import check_house_rule
from campaigns.systems import get_system
from campaigns.systems.achtung_panzer import elr, sheets, words
from campaigns.systems.achtung_panzer.steps import replenishment
from campaigns.systems.achtung_panzer.tests.step_harness import (
    make_ctx,
    make_state,
    roster_line,
    run,
    step_by_id,
)

ELR = step_by_id(replenishment.STEPS, "1.617")
MAIN_ONLY = {"elr.roll_moves": {"value": "the main nationality only", "book": "every nationality"}}


def _unit(uid, kind, nationality, rg, type_="458"):
    return {
        "id": uid,
        "kind": kind,
        "type": type_,
        "nationality": nationality,
        "rg": rg,
        "status": "ok",
    }


def _purchase(pid, rg, nationality):
    return {
        "id": pid,
        "rg": rg,
        "nationality": nationality,
        "half_day": "5/29A",
        "cost": 0,
        "given": True,
        "options": {},
        "units": [],
    }


def _printed(side: str, private: dict, sheet: str) -> dict:
    return sheets.sheet_context(sheet, {"game": {"sides": {side: private}, "public": {}}})


def _html(side: str, private: dict, sheet: str) -> str:
    from rosters.pdf import sheet_html

    definition = next(s for s in sheets.SHEETS if s.slug == sheet)
    return sheet_html(
        definition.template,
        {
            "sheet": {
                "slug": sheet,
                "name": definition.name,
                "audience": definition.audience,
                "landscape": False,
            },
            "paper": "A4",
            "audience": {"key": "x", "label": "Allied only"},
            "club": "Club",
            "as_of": "now",
            "campaign": {"id": 1, "name": "Somme", "system": "Achtung! Panzer!", "variant": "CG I"},
            "side": {"slug": side, "name": side},
            "core": {},
            "system": _printed(side, private, sheet),
        },
    )


def test_at_the_start_british_units_are_at_4_french_at_3_and_every_mmc_prints_its_own(club, people):
    from campaigns.systems.achtung_panzer.tests.test_sequence import War

    war = War(club, people, name="A British half-day")
    allied = war.side("allied")
    assert allied["elr"] == {"french": 3, "british": 4}
    allied = {
        **allied,
        "purchases": [_purchase("p90", "I1", "british"), _purchase("p91", "I2", "french")],
        "retained": [
            _unit("u1", "squad", "british", "p90", "448"),
            _unit("u2", "squad", "french", "p91"),
            _unit("u3", "leader", "british", "p90", "8-1"),
        ],
    }
    retained = _printed("allied", allied, "retained")["retained"]
    by_id = {row["id"]: row["elr"] for row in retained["rows"]}
    assert by_id == {"u1": "4", "u2": "3", "u3": ""}  # a leader has no ELR (A19.1)
    assert retained["elr"] == "French 3, British 4"
    purchases = _printed("allied", allied, "rg_purchases")["purchases"]
    assert [(row["id"], row["elr"]) for row in purchases["rows"]] == [("p90", "4"), ("p91", "3")]
    html = _html("allied", allied, "retained")
    assert "ELR French 3, British 4" in html and '<th scope="col" class="num">ELR</th>' in html
    assert '<td class="num">4</td>' in html and '<td class="num">3</td>' in html
    assert "ELR now: French 3, British 4" in _html("allied", allied, "rg_purchases")


def test_german_pioneers_are_at_5_and_other_germans_at_3(club, people):
    from campaigns.systems.achtung_panzer.tests.test_sequence import War

    war = War(club, people, name="Pioneers")
    german = {
        **war.side("german"),
        "purchases": [_purchase("p80", "I4", "german"), _purchase("p81", "I1", "german")],
        "retained": [
            _unit("u1", "squad", "german", "p80", "548"),
            _unit("u2", "squad", "german", "p81", "467"),
        ],
    }
    assert german["elr"] == {"german": 3, "german_pioneers": 5}
    rows = _printed("german", german, "retained")["retained"]["rows"]
    assert {row["id"]: row["elr"] for row in rows} == {"u1": "5", "u2": "3"}


@pytest.mark.parametrize(
    "change, house_rules, allied, german",
    [
        # +1. Book: every nationality, each within its bounds (British at 4 stay 4, pioneers at 5 stay 5).
        (1, {}, {"french": 4, "british": 4}, {"german": 4, "german_pioneers": 5}),
        # -1 for every nationality.
        (-1, {}, {"french": 2, "british": 3}, {"german": 2, "german_pioneers": 4}),
        # House rule: the main nationality only; British and pioneers keep CG14's values.
        (1, MAIN_ONLY, {"french": 4, "british": 4}, {"german": 4, "german_pioneers": 5}),
        (-1, MAIN_ONLY, {"french": 2, "british": 4}, {"german": 2, "german_pioneers": 5}),
    ],
)
def test_a_1_617_change_moves_the_side_as_the_chosen_reading_says(
    change, house_rules, allied, german
):
    ctx = make_ctx(make_state(house_rules=house_rules))
    assert elr.after_roll(ctx, "allied", {"french": 3, "british": 4}, change) == allied
    assert elr.after_roll(ctx, "german", {"german": 3, "german_pioneers": 5}, change) == german


def test_bounds_0_to_4_and_pioneers_to_5():
    ctx = make_ctx(make_state())
    assert elr.after_roll(ctx, "german", {"german": 0, "german_pioneers": 0}, -1) == {
        "german": 0,
        "german_pioneers": 0,
    }
    assert elr.after_roll(ctx, "german", {"german": 4, "german_pioneers": 4}, 1) == {
        "german": 4,
        "german_pioneers": 5,
    }
    assert elr.after_roll(ctx, "allied", {"french": 0, "british": 4}, 1) == {
        "french": 1,
        "british": 4,
    }


def test_the_1_617_roll_changes_every_nationality_and_says_so():
    # 5/29P, historical DRM Allied -1, German 0: DR 2 -> final 1 and 2, both ≤2: +1
    state = make_state(
        allied={"elr": {"french": 3, "british": 4}},
        german={"elr": {"german": 3, "german_pioneers": 5}},
    )
    run(ELR, state, "allied", dice={"5/29P/1.617/allied": [1, 1]})
    run(ELR, state, "german", dice={"5/29P/1.617/german": [1, 1]})
    sides = state["game"]["sides"]
    assert sides["allied"]["elr"] == {"french": 4, "british": 4}
    assert sides["german"]["elr"] == {"german": 4, "german_pioneers": 5}
    # 5/30A, German historical DRM +1: DR 12 -> final 13: -1
    state = make_state(
        half_day="5/30A",
        roster=[roster_line("5/29A", "allied"), roster_line("5/29P", "allied")],
        german={"elr": {"german": 3, "german_pioneers": 5}},
    )
    run(ELR, state, "german", dice={"5/30A/1.617/german": [6, 6]})
    report = state["game"]["sides"]["german"]["rolls"][-1]
    assert report["final"] == 13
    assert words.roll_result(report) == "ELR −1 (now German 2, German pioneers 4)"


def test_a_journal_before_v5_keeps_one_elr_per_side():
    state = make_state(
        allied={"elr": {"french": 3, "british": 3}},
        german={"elr": {"german": 4, "german_pioneers": 4}},
    )
    state["journals"] = {"core": 1, "achtung_panzer": 4}
    ctx = make_ctx(state)
    assert elr.initial(ctx, "allied", 2) == {"french": 2, "british": 2}
    assert elr.initial(ctx, "german", 4) == {"german": 4, "german_pioneers": 4}
    run(ELR, state, "german", dice={"5/29P/1.617/german": [1, 1]})  # +1: everyone to 4 at most
    assert state["game"]["sides"]["german"]["elr"] == {"german": 4, "german_pioneers": 4}
    run(ELR, state, "allied", dice={"5/29P/1.617/allied": [1, 1]})
    assert state["game"]["sides"]["allied"]["elr"] == {"french": 4, "british": 4}
    assert elr.words(state["game"]["sides"]["allied"]["elr"]) == "4"  # one number, as then


def test_the_house_rule_is_one_of_the_two_readings_and_shown_beside_the_book():
    system = get_system("achtung_panzer")
    state = make_state()
    ctx = Ctx.reading(system, state)
    assert (
        check_house_rule(state, ctx, "elr.roll_moves", "the main nationality only")
        == "every nationality"
    )
    with pytest.raises(DomainError) as error:
        check_house_rule(state, ctx, "elr.roll_moves", "British only")
    assert error.value.message == "Must be one of: every nationality; the main nationality only."
    # The organizer picks the reading from the list; no value to type.
    form = HouseRuleForm(
        {"rule_table": "constants", "row": "elr.roll_moves=the main nationality only", "value": ""},
        system=system,
        table="constants",
    )
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["key"], form.cleaned_data["value"]) == (
        "elr.roll_moves",
        "the main nationality only",
    )
    label = dict(form.fields["row"].choices)["elr.roll_moves=the main nationality only"]
    assert (
        label.endswith(": the main nationality only — book: every nationality") and "1.617" in label
    )
    # A value typed beside a reading is refused, not silently replaced.
    form = HouseRuleForm(
        {
            "rule_table": "constants",
            "row": "elr.roll_moves=the main nationality only",
            "value": "British only",
        },
        system=system,
        table="constants",
    )
    assert not form.is_valid() and form.errors["value"] == [
        "The reading picked is the value: leave this empty."
    ]
    # A number still needs its value.
    form = HouseRuleForm(
        {"rule_table": "constants", "row": "elr.max", "value": ""}, system=system, table="constants"
    )
    assert not form.is_valid() and "value" in form.errors


def test_the_campaign_page_shows_the_reading_beside_the_book_and_every_nationality(club, people):
    from django.test import Client

    from campaigns.systems.achtung_panzer.tests.campaign_harness import War

    war = War(
        club,
        people,
        dice_mode="server",
        house_rules={"elr.roll_moves": "the main nationality only"},
    )
    assert war.state["house_rules"]["elr.roll_moves"]["book"] == "every nationality"
    bob = Client(raise_request_exception=True)
    bob.force_login(people["bob"])
    page = bob.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert (
        "<strong>the main nationality only</strong>" in page and "(book: every nationality)" in page
    )
    assert "German 3, German pioneers 5" in page  # his side's ELR, every group
    assert "British 4" not in page  # the Allied ELR is the Allies' until 1.625 announces it
    # A late house rule is proposed from the list of readings; nothing to type.
    rules = bob.get(f"/campaigns/{war.campaign.pk}/?rule_table=constants").content.decode()
    assert '<option value="elr.roll_moves=every nationality">' in rules
