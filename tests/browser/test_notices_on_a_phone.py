"""At 390×844: a player sees the unread count in the header, opens the inbox, opens the notice of
what waits for them (their sealed choice), lands on that step, makes it, and the notice is gone.
Notices are made by the site's task after each change: a real worker over Redis where there is
one (CI), else inline after commit (`sheet_renderer` says which)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from campaigns.notices.outbox import SWEEP_AFTER
from tests.browser.pagechecks import check

# A worker makes the notices a moment after the change; a task lost on the way is sent again by
# the workers' sweep once its row is SWEEP_AFTER old: the notice comes within that and a sweep.
WITHIN = SWEEP_AFTER.total_seconds() + 15


def _reload_until(tab, locator, text: str, seconds: float = WITHIN) -> None:
    """Reload until `locator` shows `text` (the notices are made by a worker after the change)."""
    deadline = time.monotonic() + seconds
    while True:
        if locator.count() and text in locator.first.inner_text():
            return
        if time.monotonic() > deadline:
            expect(locator.first).to_contain_text(text)  # fails, saying what was there
        time.sleep(0.5)
        tab.reload()


def test_a_player_opens_the_notice_lands_on_the_step_acts_and_the_notice_is_gone(
    sheet_renderer, phones, screenshot, skirmish, people
):
    from campaigns.models import Notice
    from campaigns.services.journal import submit

    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.supply")  # both rolled: the stances are due

    bob = phones("bob")
    badge = bob.locator("header .unread")
    _reload_until(bob, badge, "3")  # the war started; blue's turn; blue's stance
    check(bob)

    bob.get_by_role("link", name=re.compile(r"^Notices")).click()
    expect(bob).to_have_url(re.compile(r"/notices/$"))
    notice = bob.get_by_role("link", name=re.compile(r"Choose: Stance"))
    expect(notice).to_be_visible()
    expect(bob.locator("main")).not_to_contain_text("sealed/")  # words, never keys
    check(bob)
    screenshot(bob, "notices-inbox-phone")

    notice.click()
    expect(bob).to_have_url(re.compile(rf"/campaigns/{skirmish.pk}/\?do=\w+"))
    expect(badge).to_have_text("2")  # opened: read
    choose = bob.locator("form.action", has=bob.locator("input[value='sealed.submitted']"))
    expect(choose.get_by_label("Hold")).to_be_visible()  # the step, open
    check(bob)
    choose.get_by_label("Hold").check()
    choose.get_by_role("button", name="Submit").click()
    expect(bob.locator("#status")).to_contain_text("1 of 2 sides have chosen")

    deadline = time.monotonic() + WITHIN
    sealed = Notice.objects.filter(recipient=people["bob"], key__startswith="sealed/")
    while sealed.filter(resolved_at=None).exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    bob.goto("/notices/")
    expect(bob.locator("main")).not_to_contain_text("Choose: Stance")
    bob.get_by_role("button", name="Mark all read").click()
    expect(bob).to_have_url(re.compile(r"/notices/$"))
    expect(badge).to_have_count(0)
    check(bob)
    assert bob.errors == []
