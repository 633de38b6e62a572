"""At 390×844: an organizer opens the club's webhooks from the club page, adds one (a local
receiver, as the operator's flags allow in development), sees its secret once, sends a test and
sees it delivered in the log; nothing scrolls sideways, words not keys."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.webhooks.conftest import Receiver


def test_an_organizer_adds_a_webhook_sends_a_test_and_sees_it_delivered(
    phones, screenshot, club, people, settings
):
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = True
    settings.MUSTER_WEBHOOKS_ALLOW_HTTP = True
    receiver = Receiver()
    try:
        olga = phones("olga")
        olga.goto(f"/clubs/{club.slug}/")
        olga.get_by_role("link", name="Webhooks").click()
        expect(olga).to_have_url(re.compile(r"/webhooks/$"))
        check(olga)
        olga.get_by_label("Address (URL)").fill(receiver.url)
        olga.get_by_label("Discord (a one-line message)").check()
        olga.get_by_role("button", name="Add the webhook").click()
        expect(olga.locator("#secret")).to_contain_text("it is not shown again")
        check(olga)
        screenshot(olga, "webhooks-secret-phone")
        olga.goto(f"/clubs/{club.slug}/webhooks/")
        expect(olga.locator("#secret")).to_have_count(0)
        olga.get_by_role("button", name="Send a test").click()
        deadline = time.monotonic() + 30
        while not receiver.posts and time.monotonic() < deadline:
            time.sleep(0.2)
        assert receiver.json()["content"].startswith("A test from Muster")
        olga.reload()
        expect(olga.locator("main")).to_contain_text("Delivered")
        expect(olga.locator("main")).to_contain_text("A test from Muster")
        check(olga)
        screenshot(olga, "webhooks-log-phone")
        assert olga.errors == []
    finally:
        receiver.close()
