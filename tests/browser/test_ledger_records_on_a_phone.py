"""A victory ledger's records page at 390×844, reached as the players reach it: four turns of
Ardennes '44 are in; alice (German) records the fifth on her phone, picks a unit but not what
happened to it and is told so in place, fixes it, sees she left a unit out, withdraws her record
and enters it again; bob (Allied) confirms it on his; the campaign page now links every turn
recorded, and alice finds the turn there and proposes a correction of it, the turn's units and
locations picked by name (never by their ids); bob agrees, and the referee reads the corrected
records too. Every page passes the page checks (no sideways scroll, touch targets ≥ 24 px, no
keys, snake_case or ids)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from campaigns.systems.victory_ledger.tests.harness import Game
from tests.browser.pagechecks import check
from tests.browser.test_victory_ledgers_in_the_browser import action, pick_unit, submit

EARLIER = (
    ("16 AM", {"Givet": "Gs", "18VG": "As"}),
    ("16 PM", {"Huy": "Gs", "Liege-1": "Gs"}),
    ("Night 16/17", {}),
    ("17 AM", {"Namur": "Gs", "26VG": "As"}),
)
HEYDTE = "von der Heydte — German, Infantry Type, no replacements (25.2.5), full strength"
PANZER = "150th Panzer Brigade — German, Tank unit, no replacements (25.2.5), full strength"


def _records(tab):
    return tab.locator("section", has=tab.locator("#vl-turns-h")).locator("ol.timeline > li")


def _ids_of(game) -> set[str]:
    """Ids of the set-up's units and locations that are not their names (what must never show)."""
    setup = game.pub["setup"]
    return {
        item["id"]
        for item in [*setup["units"], *setup["locations"]]
        if item["id"] != item["name"] and not item["name"].startswith(item["id"])
    }


def _no_ids(tab, ids: set[str]) -> None:
    text = tab.locator("main").inner_text()
    shown = sorted(i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text))
    assert not shown, f"{tab.url}: ids on the page: {shown}"


def test_a_turn_recorded_given_back_confirmed_and_corrected_from_the_records_page(
    phones, screenshot, club, people
):
    game = Game(club, people, "ardennes44", "s1", name="The Bulge")
    game.setup()
    for label, held in EARLIER:
        game.turn(label, held)
    ids = _ids_of(game)
    alice, bob, rita = phones("alice"), phones("bob"), phones("rita")
    base = f"/campaigns/{game.campaign.pk}/"

    # With four turns the campaign page shows them all: no link to the records page yet.
    alice.goto(base)
    expect(alice.get_by_role("link", name=re.compile(r"^Every turn recorded"))).to_have_count(0)

    # 17 PM: a unit picked without what happened to it is refused in place, in words.
    turn = action(alice, "Record 17 PM")
    turn.locator("select[name='units-0-unit']").select_option(label=HEYDTE)
    turn.locator("button[type=submit]").click()
    refused = alice.locator("form.action.attention")
    expect(refused).to_contain_text("Say what happened to von der Heydte.")
    check(alice)
    _no_ids(alice, ids)
    refused.locator("select[name='units-0-change']").select_option(label="Eliminated")
    submit(alice, refused, "17 PM recorded. It counts once the Allied confirms it")
    _no_ids(alice, ids)

    # The 150th Panzer Brigade was reduced too: she withdraws her record and enters it again.
    withdraw = action(alice, "Withdraw your record of 17 PM")
    withdraw.locator("button[type=submit]").click()
    # The page drawn again after the withdrawal (the form to record 17 PM back on it) before it is
    # read: checking the page while it reloads reads a page that is going away.
    expect(alice.get_by_role("heading", name="Record 17 PM")).to_have_count(1)
    turn = action(alice, "Record 17 PM")
    check(alice)
    pick_unit(turn, 0, HEYDTE, "Eliminated")
    pick_unit(turn, 1, PANZER, "Reduced")
    submit(alice, turn, "17 PM recorded. It counts once the Allied confirms it")

    # bob confirms it on his phone, with what alice entered before him.
    bob.goto(base)
    confirm = action(bob, "Confirm the German's record of 17 PM")
    expect(confirm).to_contain_text("von der Heydte: eliminated")
    expect(confirm).to_contain_text("150th Panzer Brigade: reduced")
    check(bob)
    _no_ids(bob, ids)
    confirm.locator("button[type=submit]").click()
    expect(bob.locator(".messages")).to_be_visible()
    check(bob)
    ledger = game.pub["ledger"]
    assert [e["turn"] for e in ledger] == ["16 AM", "16 PM", "Night 16/17", "17 AM", "17 PM"]

    # Five turns: the campaign page shows the last four and links every turn recorded.
    alice.goto(base)
    alice.get_by_role("link", name="Every turn recorded (5)").click()
    expect(alice).to_have_url(re.compile(rf"{base}records/"))
    entries = _records(alice)
    expect(entries).to_have_count(5)
    expect(entries.locator("summary strong")).to_have_text(
        ["17 PM", "17 AM", "Night 16/17", "16 PM", "16 AM"]
    )
    newest = entries.first
    expect(newest).to_contain_text(
        "Units: von der Heydte: eliminated; 150th Panzer Brigade: reduced"
    )
    expect(newest).to_contain_text("Recorded by alice")
    entries.last.locator("summary").click()  # an older turn opens with a tap
    expect(entries.last).to_contain_text("Locations changed: Givet: German")
    check(alice)
    _no_ids(alice, ids)
    screenshot(alice, "ledger-records-phone")

    # Bastogne hex 1 was German at the end of 17 PM too: a correction of that turn, units and
    # locations picked by name.
    newest.get_by_role("link", name="propose a correction of this turn").click()
    expect(alice.get_by_role("heading", name="Propose a correction")).to_be_visible()
    check(alice)
    _no_ids(alice, ids)
    expect(alice.locator("select[name='units-0-unit'] option:checked")).to_have_text(
        "von der Heydte — German"
    )
    screenshot(alice, "ledger-correction-phone")
    bastogne = alice.locator("select[name$='-location']").evaluate_all(
        "all => all.findIndex(s => s.selectedOptions[0].text.startsWith('Bastogne hex 1 '))"
    )
    assert bastogne >= 0, "every location of the turn is on the correction, by name"
    alice.locator(f"select[name='locations-{bastogne}-controller']").select_option(label="German")
    alice.get_by_label("Reason").fill("Bastogne hex 1 fell in 17 PM as well")
    alice.get_by_role("button", name="Propose").click()
    expect(alice.locator(".messages")).to_contain_text("Correction proposed")
    check(alice)

    # bob agrees from his campaign page; the records page shows the turn as corrected.
    bob.goto(base)
    proposal = bob.locator("#proposals li", has_text="Bastogne hex 1 fell in 17 PM as well")
    expect(proposal).to_contain_text("Correction proposed by alice (German)")
    expect(proposal).to_contain_text("Bastogne hex 1")
    # Of the turn's locations, the proposal says only the one that changed (short on a phone).
    locations = proposal.locator("ul.changes li", has_text="Locations")
    expect(locations).to_contain_text("Bastogne hex 1")
    assert "Givet" not in locations.inner_text() and locations.inner_text().count(";") < 8
    check(bob)
    _no_ids(bob, ids)
    agree = action(bob, "Agree to a proposed correction")
    agree.locator("button[type=submit]").click()
    expect(bob.locator(".messages")).to_be_visible()
    bob.goto(base + "records/")
    expect(_records(bob).first).to_contain_text("Bastogne hex 1: German")
    check(bob)

    # The referee's seat reads the same records (nothing in these games is secret).
    rita.goto(base)
    check(rita)
    rita.get_by_role("link", name="Every turn recorded (5)").click()
    expect(_records(rita)).to_have_count(5)
    expect(_records(rita).first).to_contain_text("Bastogne hex 1: German")
    expect(_records(rita).first).to_contain_text("von der Heydte: eliminated")
    check(rita)
    _no_ids(rita, ids)
    for tab in (alice, bob, rita):
        assert tab.errors == []
