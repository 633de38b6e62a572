"""At 390×844: a member finds the blank sheets from the club page, picks US Letter for one game's
sheet and asks for it; the job's page leads back to the blank sheets. The campaign's sheets panel
offers several sheets in one PDF on the same phone. Every page without sideways scrolling, every
control a 24 px target (pagechecks.check)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check


def test_a_member_asks_for_a_blank_sheet_on_letter_paper_on_a_phone(phones, skirmish, people):
    alice = phones("alice")
    alice.goto(f"/clubs/{skirmish.club.slug}/")
    alice.get_by_role("link", name="Blank sheets").first.click()
    expect(alice).to_have_url(re.compile(r"/sheets/blank/$"))
    check(alice)
    sheet = alice.locator(".sheet-choice").filter(has_text="Squad Roster")
    sheet.get_by_label("Paper").select_option("Letter")
    sheet.get_by_role("button", name="Prepare PDF").click()
    expect(alice.get_by_role("link", name=re.compile("Blank sheets"))).to_be_visible()
    expect(alice.locator("main")).to_contain_text("Squad Roster")
    check(alice)
    alice.get_by_role("link", name=re.compile("Blank sheets")).click()  # the paper remembered
    expect(alice.locator(".sheet-choice").first.get_by_label("Paper")).to_have_value("Letter")

    alice.goto(f"/campaigns/{skirmish.pk}/")
    expect(alice.locator("#sheets").get_by_role("button", name="Prepare one PDF")).to_be_visible()
    check(alice)
    assert alice.errors == []
