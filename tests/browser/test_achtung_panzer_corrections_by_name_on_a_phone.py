"""Achtung! Panzer!'s corrections by name at 390×844. bob (German) recorded the end of the first
half-day with the wrong squad eliminated. The referee proposes the correction from the history:
each unit of the record is a select of the German units by the names the Germans give them (no
id anywhere, no box to type one). By mistake she also picks the right squad in the record's empty
row: refused on the same page, the squad named in words; she empties that row and proposes again,
and her word applies it. bob's records then count the right squad lost. alice (Allied) sees none
of it: the German record's correction is no page of hers, and her history and proposals name no
German unit. Every page passes the page checks (no sideways scroll, touch targets ≥ 24 px, no
keys, snake_case or ids)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from campaigns.systems.achtung_panzer import words
from tests.browser.test_achtung_panzer_at_the_table import Player

pytestmark = pytest.mark.django_db(transaction=True)
AN_ID = re.compile(r"\b[upf]\d+\b")
RECORD = "German: End of scenario: what happened to your units"


def squads_after_the_first_half_day(club, people):
    """CG I after its Initial Scenario and first half-day, the Germans' end-of-scenario record
    marking their first squad eliminated, both sides in the Refit Phase's table steps."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import in_the_first_refit_phase

    squads: list[dict] = []

    def first_squad_eliminated(war) -> dict:
        squads.extend(u for u in war.side("german")["retained"] if u["kind"] == "squad")
        return {"german": {"units": [{"unit": squads[0]["id"], "fate": "eliminated"}]}}

    war = in_the_first_refit_phase(club, people, first_squad_eliminated)
    return war, squads[0], squads[1]


def the_correction_of(player: Player, record: str) -> None:
    """From the campaign page's history: the record's "Fix this", "Propose a correction"."""
    player.open()
    entry = player.tab.locator("section[aria-labelledby=hist-h] li", has_text=record).first
    entry.locator("summary", has_text="Fix this").click()
    entry.get_by_role("link", name="Propose a correction").click()
    expect(player.tab.get_by_role("heading", name="Propose a correction")).to_be_visible()
    player.check()


def test_the_referee_corrects_an_end_of_scenario_by_name_on_a_phone(
    phones, screenshot, club, people
):
    war, wrong, right = squads_after_the_first_half_day(club, people)
    base = f"/campaigns/{war.campaign.pk}/"
    german = words.Names(war.side("german"))
    wrong_name, right_name = german.label(wrong), german.label(right)
    allied_names = {
        words.Names(war.side("allied")).label(u) for u in war.side("allied")["retained"]
    }
    rita = Player(phones("rita"), war.campaign, "referee", screenshot)
    alice = Player(phones("alice"), war.campaign, "allied", screenshot)
    bob = Player(phones("bob"), war.campaign, "german", screenshot)

    # The referee's correction of the German record: units picked by name, none typed.
    the_correction_of(rita, RECORD)
    correction_url = rita.tab.url
    main = rita.tab.locator("main")
    assert AN_ID.search(main.inner_text()) is None, "a unit's id"
    expect(main.locator("input[type=text][name$='-unit']")).to_have_count(0)
    expect(main.locator("input[type=text][name=oba_fired]")).to_have_count(
        0
    )  # the Germans have none
    first = main.locator("select[name='units-0-unit']")
    expect(first.locator("option:checked")).to_have_text(wrong_name)
    offered = set(first.locator("option").all_inner_texts())
    assert right_name in offered and not offered & allied_names
    rita.shot(rita.tab, "ap-referee-correction-phone")

    # By mistake the right squad is picked twice: refused in place, the squad named in words.
    first.select_option(label=right_name)
    second = main.locator("select[name='units-1-unit']")
    second.select_option(label=right_name)
    main.locator("select[name='units-1-fate']").select_option(label="eliminated")
    rita.tab.get_by_label("Reason").fill("the squad beside it was lost")
    rita.tab.get_by_role("button", name="Propose").click()
    expect(rita.tab.get_by_role("heading", name="Propose a correction")).to_be_visible()
    expect(main).to_contain_text(f"{german.unit(right)} is listed twice")
    assert AN_ID.search(main.inner_text()) is None, "a unit's id in the refusal"
    rita.check()
    assert [u["id"] for u in war.side("german")["eliminated"]] == [wrong["id"]]

    # The empty row emptied again; proposed, and the referee's word applies it.
    main.locator("select[name='units-1-unit']").select_option(index=0)
    main.locator("select[name='units-1-fate']").select_option(index=0)
    rita.tab.get_by_role("button", name="Propose").click()
    expect(rita.tab.locator(".messages")).to_contain_text("Correction proposed")
    rita.check()
    assert [u["id"] for u in war.side("german")["eliminated"]] == [right["id"]]
    assert wrong["id"] in {u["id"] for u in war.side("german")["retained"]}

    # bob's records count one squad lost, the right one: his page offers the other to harden.
    bob.tab.goto(base + "records/")
    mine = bob.tab.locator("section", has=bob.tab.locator("#ap-side-german"))
    expect(mine).to_contain_text("German: your side's records")
    bob.check()
    expect(mine).to_contain_text("1 unit eliminated so far.")
    bob.tab.goto(base + "history/")
    bob.check()
    entry = bob.tab.locator("main li", has_text=RECORD)
    expect(entry).to_contain_text("corrected")
    bob.open()  # the squads that may battle harden: the wrong one is back, the right one gone
    squads = bob.tab.locator("#now").inner_text()
    assert german.unit(wrong) in squads and german.unit(right) not in squads
    bob.shot(bob.tab, "ap-corrected-records-german-phone")

    # alice: the German record's correction is no page of hers; her pages name no German unit.
    answer = alice.tab.goto(correction_url)
    assert answer is not None and answer.status == 404
    alice.open()
    shown = alice.tab.locator("main").inner_text()
    assert wrong_name not in shown and right_name not in shown
    assert "the squad beside it was lost" not in shown
    alice.tab.goto(base + "history/")
    alice.check()
    assert RECORD not in alice.tab.locator("main").inner_text()
