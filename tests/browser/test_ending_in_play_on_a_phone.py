"""At 390×844: an organizer who plays Red ends a campaign in play. It is a proposal: the page says
whose agreement it waits for; Blue's player refuses it, the organizer asks again, thinks better
of it and withdraws, asks a third time, and Blue agrees: the campaign is over. Every page without
sideways scrolling, every control a 24 px target (pagechecks.check)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.pagechecks import check


def _propose(olga, campaign, reason):
    olga.goto(f"/campaigns/{campaign.pk}/setup/")
    olga.get_by_label("Why the campaign ends").fill(reason)
    olga.get_by_role("button", name="End the campaign").click()
    expect(olga.locator("main")).to_contain_text("agreement to end the campaign")
    check(olga)


def test_ending_a_campaign_in_play_waits_for_the_other_side_on_a_phone(phones, skirmish, people):
    olga, bob = phones("olga"), phones("bob")
    _propose(olga, skirmish, "We are losing the hall")
    bob.goto(f"/campaigns/{skirmish.pk}/")
    expect(bob.locator("main")).to_contain_text("We are losing the hall")
    check(bob)
    bob.get_by_role("button", name="Reject").first.click()  # Blue says no
    expect(bob.locator("main")).not_to_contain_text("agreement to end the campaign")

    _propose(olga, skirmish, "The hall closes in May")
    olga.get_by_role("button", name="Withdraw").first.click()  # taken back
    expect(olga.locator("main")).not_to_contain_text("agreement to end the campaign")

    _propose(olga, skirmish, "The hall closes in May, for good")
    bob.goto(f"/campaigns/{skirmish.pk}/")
    bob.get_by_role("button", name="Agree").first.click()
    expect(bob.locator("main")).to_contain_text("Change applied")
    check(bob)
    from campaigns.services.state import current_state

    assert current_state(skirmish)["status"] == "finished"
    assert olga.errors == [] and bob.errors == []
