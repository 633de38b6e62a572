"""At 390×844: a player opens their settings from the header, sees their address unconfirmed,
chooses mails each at once by default, opens "Mails for this campaign" from the campaign page and
chooses nothing for it; an unsubscribe link opened without signing in asks before it stops."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check


def test_a_player_chooses_their_mails_on_a_phone(phones, phone, screenshot, skirmish, people):
    from campaigns.mails import choices, unsubscribe
    from campaigns.models import MailChoice

    bob = phones("bob")
    bob.goto("/")
    bob.get_by_role("link", name="bob").click()
    expect(bob).to_have_url(re.compile(r"/accounts/settings/$"))
    expect(bob.locator("main")).to_contain_text("Unconfirmed")
    check(bob)
    screenshot(bob, "mail-settings-phone")
    bob.get_by_label("For campaigns you set nothing for").select_option("at_once")
    bob.locator("form", has=bob.locator("#default-choice")).get_by_role("button").click()
    expect(bob.get_by_label("For campaigns you set nothing for")).to_have_value("at_once")
    assert choices.default_of(people["bob"].pk) == MailChoice.AT_ONCE

    bob.goto(f"/campaigns/{skirmish.pk}/")
    bob.get_by_role("link", name="Mails for this campaign").click()
    expect(bob).to_have_url(re.compile(rf"/campaigns/{skirmish.pk}/mails/$"))  # then read
    check(bob)
    bob.get_by_label("Nothing").check()
    bob.get_by_role("button", name="Save").click()
    expect(bob).to_have_url(re.compile(rf"/campaigns/{skirmish.pk}/$"))
    assert choices.choice_for(people["bob"].pk, skirmish.pk) == MailChoice.NOTHING

    phone.goto(f"/mails/unsubscribe/{unsubscribe.token(people['alice'].pk)}/")
    expect(phone.get_by_role("button", name="Unsubscribe")).to_be_visible()
    check(phone)
    screenshot(phone, "mail-unsubscribe-phone")
    assert choices.default_of(people["alice"].pk) == MailChoice.DIGEST
    phone.get_by_role("button", name="Unsubscribe").click()
    expect(phone.locator("main")).to_contain_text("no more mails")
    assert choices.default_of(people["alice"].pk) == MailChoice.NOTHING
