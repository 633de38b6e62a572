"""The campaign page in a real browser (phone-sized): a refused step comes back in
place with its error (htmx, no reload), a good one reloads the page with its
report, a sealed choice shows "waiting" without the other side's choice, and no
page logs a JavaScript error."""

import re

from playwright.sync_api import expect

from tests.browser.session import log_in, log_out


def test_a_step_refused_in_place_then_done(phone, screenshot, skirmish, people):
    log_in(phone, "alice")
    phone.get_by_role("link", name="Test war").first.click()
    phone.get_by_role("button", name="Roll for supply").click()
    expect(phone.locator(".messages")).to_contain_text("Done: Roll for supply.")

    buy = phone.locator("form.action", has=phone.locator("input[value='skirmish.buy']"))
    buy.get_by_label("Count").fill("5")
    with phone.expect_response(re.compile(r"/submit/$")) as answer:
        buy.get_by_role("button", name="Submit").click()
    assert answer.value.status == 400
    refused = phone.locator("form.action.attention")
    expect(refused).to_contain_text("At most 2 reinforcements per round (T.3).")
    expect(refused.get_by_label("Count")).to_have_value("5")  # what was typed stays
    assert not skirmish.events.filter(kind="skirmish.buy").exists()
    screenshot(phone, "campaign-refused-step-phone")

    refused.get_by_label("Count").fill("1")
    refused.get_by_role("button", name="Submit").click()
    expect(phone.locator(".messages")).to_contain_text("Done: Buy reinforcements.")
    assert skirmish.events.filter(kind="skirmish.buy").count() == 1
    assert phone.errors == []


def test_a_sealed_choice_waits_for_the_other_side(phone, skirmish, people):
    from campaigns.services.journal import submit

    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.supply")
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{skirmish.pk}/")
    choose = phone.locator("form.action", has=phone.locator("input[value='sealed.submitted']"))
    choose.get_by_label("Attack").check()
    choose.get_by_role("button", name="Submit").click()
    # "waiting for the other side" is on the page before the choice too ("0 of 2 …"): wait for the
    # page the submission reloads, or "Log out" may be clicked on the page being left (and lost).
    expect(phone.locator("#status")).to_contain_text("1 of 2 sides have chosen")
    expect(phone.locator("#status")).to_contain_text("waiting for the other side")
    log_out(phone)
    log_in(phone, "bob")
    phone.goto(f"/campaigns/{skirmish.pk}/")
    expect(phone.locator("#status")).to_contain_text("1 of 2 sides have chosen")
    expect(phone.locator("#status")).not_to_contain_text("attack")
    assert phone.errors == []
