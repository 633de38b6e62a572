"""At 390×844, a club with more campaigns than its page shows: the organizer follows the club
page's link to all the campaigns and on to the next page; a player follows the dashboard's link to
all of theirs. Every page without sideways scrolling, every control a 24 px target."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.web.test_club_page_weight import _campaigns


def test_the_club_page_and_the_dashboard_link_to_all_the_campaigns_on_a_phone(
    phones, screenshot, club, people
):
    _campaigns(club, people, 60)

    olga = phones("olga")
    olga.goto(f"/clubs/{club.slug}/")
    check(olga)
    olga.get_by_role("link", name="All 60 campaigns", exact=True).click()
    expect(olga).to_have_url(re.compile(rf"/clubs/{club.slug}/campaigns/$"))
    expect(olga.locator("main")).to_contain_text("page 1 of 2")
    check(olga)
    screenshot(olga, "club-all-campaigns-phone")
    olga.get_by_role("link", name="Next page").first.click()
    expect(olga.locator("main")).to_contain_text("page 2 of 2")
    check(olga)

    alice = phones("alice")
    check(alice)
    alice.get_by_role("link", name="All 60 campaigns", exact=True).click()
    expect(alice).to_have_url(re.compile(r"/campaigns/$"))
    expect(alice.locator("main")).to_contain_text("page 1 of 2")
    check(alice)
    screenshot(alice, "my-campaigns-phone")
    assert olga.errors == [] and alice.errors == []
