"""At 390×844: an organizer archives a finished campaign from its page, finds it in the club
page's archived section, starts a campaign like it (the form filled from it), and restores it.
Every page without sideways scrolling, every control a 24 px target (pagechecks.check)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check


def test_an_organizer_archives_starts_one_like_it_and_restores_it_on_a_phone(
    phones, screenshot, skirmish, people
):
    from campaigns.services import campaigns
    from campaigns.services.journal import submit

    made = campaigns.finish_campaign(skirmish, people["olga"], reason="Called off")
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})

    olga = phones("olga")
    olga.goto(f"/campaigns/{skirmish.pk}/")
    olga.get_by_text("Archive this campaign").click()
    check(olga)
    olga.get_by_role("button", name="Archive Test war").click()
    expect(olga.locator("#archive")).to_contain_text("was archived on")
    check(olga)
    screenshot(olga, "campaign-archived-phone")

    olga.goto(f"/clubs/{skirmish.club.slug}/")
    expect(olga.locator("#camp-h + *")).not_to_contain_text("Test war")
    olga.get_by_text("Archived campaigns (1)").click()
    check(olga)
    screenshot(olga, "club-archived-phone")
    olga.get_by_role("link", name="Start one like Test war").click()
    expect(olga).to_have_url(re.compile(rf"/campaigns/{skirmish.pk}/again/$"))
    expect(olga.get_by_label("Campaign name")).to_have_value("Test war (again)")
    expect(olga.get_by_label("alice plays Red")).to_be_checked()
    check(olga)
    screenshot(olga, "campaign-like-phone")
    olga.get_by_label("Campaign name").fill("Test war II")
    olga.get_by_role("button", name="Create, then set up").click()
    expect(olga).to_have_url(re.compile(r"/campaigns/\d+/setup/$"))
    expect(olga.locator("main")).to_contain_text("alice")

    olga.goto(f"/clubs/{skirmish.club.slug}/")
    olga.get_by_text("Archived campaigns (1)").click()
    olga.get_by_role("button", name="Restore Test war").click()
    expect(olga.locator("main")).to_contain_text("is back in the lists")
    check(olga)
    assert olga.errors == []
