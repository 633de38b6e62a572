"""Push notices on the settings page at 390×844, as a person meets them: bob opens his settings from
the header, finds an old device listed, chooses nothing for one campaign (a push follows the mail
choice), taps "Push notices to this device", blocks the browser's question by mistake and is told
so in words, allows it, sees this phone listed, removes the old device and stops pushing to this
one. A browser without push, a browser whose push service refuses (headless Chromium's own), a site
without keys and a browser without JavaScript each say so in words and offer nothing that cannot
work. Every page passes the page checks (no sideways scroll, touch targets ≥ 24 px, no keys).

Headless Chromium has no push service: for the walk the browser's PushManager answers as a phone
does (an init script: "Block" refuses with NotAllowedError, "Allow" gives a subscription whose
keys the test made); the page's script, the service worker and the site are the real ones."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.browser.session import log_in

ON = "Push notices to this device"
OFF = "Stop pushing to this device"

# The browser's push service as a phone has it: the person's answer to the browser's question is
# localStorage "push-answer" ("block" or "allow"); a subscription lasts across reloads.
PHONE_PUSH = """
(() => {
  const device = %s;
  const subscription = {
    endpoint: device.endpoint,
    toJSON: () => ({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }),
    unsubscribe: async () => { localStorage.removeItem("push-subscribed"); return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    if (localStorage.getItem("push-answer") !== "allow")
      throw new DOMException("Registration failed - permission denied", "NotAllowedError");
    localStorage.setItem("push-key-bytes", String(new Uint8Array(options.applicationServerKey).length));
    localStorage.setItem("push-subscribed", "1");
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("push-subscribed") ? subscription : null;
  };
})();
"""

NO_PUSH = "delete window.PushManager;"


@pytest.fixture
def push_on(settings):
    """The site with its keys set, taking plain-http devices on this machine (as a test site may)."""
    from campaigns.push import keys

    private, public = keys.make_pair()
    settings.MUSTER_VAPID_PRIVATE_KEY, settings.MUSTER_VAPID_PUBLIC_KEY = private, public
    settings.MUSTER_PUSH_ALLOW_HTTP = settings.MUSTER_PUSH_ALLOW_PRIVATE = True
    return public


def _device(name: str, label: str = "") -> dict[str, str]:
    from tests.push.conftest import new_device

    return new_device(f"http://127.0.0.1:9/push/{name}", label).fields


def _push_section(tab):
    return tab.locator("section#push")


def _labels_of_devices(user) -> list[str]:
    from campaigns.models import PushSubscription

    return sorted(PushSubscription.objects.filter(user=user).values_list("label", flat=True))


def test_a_player_turns_push_on_and_off_on_a_phone(phones, push_on, skirmish, people, screenshot):
    from campaigns.mails import choices
    from campaigns.models import MailChoice
    from campaigns.push import subscriptions

    subscriptions.subscribe(people["bob"], _device("old", "Old tablet"))
    bob = phones("bob")
    bob.context.add_init_script(PHONE_PUSH % json.dumps(_device("phone")))
    bob.goto("/")
    bob.get_by_role("link", name="bob").click()
    expect(bob).to_have_url(re.compile(r"/accounts/settings/$"))
    push = _push_section(bob)
    expect(push.get_by_role("heading")).to_have_text("Push notices on your devices")
    expect(push).to_contain_text("It follows your mail choice above")
    expect(push.locator("ul.push-devices > li")).to_have_count(1)
    expect(push.locator("ul.push-devices")).to_contain_text("Old tablet (since ")
    expect(push.get_by_role("button", name=ON)).to_be_visible()
    expect(push.get_by_role("button", name=OFF)).to_be_hidden()  # nothing to stop yet
    check(bob)
    screenshot(bob, "push-settings-phone")

    # A push follows the mail choice: nothing for this campaign, chosen on the same page.
    bob.get_by_label("Test war").select_option(label="Nothing")
    bob.locator("li", has=bob.get_by_label("Test war")).get_by_role("button", name="Save").click()
    expect(bob.get_by_label("Test war")).to_have_value(MailChoice.NOTHING)
    assert choices.choice_for(people["bob"].pk, skirmish.pk) == MailChoice.NOTHING

    # The browser asks; bob taps "Block" by mistake: the page says what to do, in words.
    push.get_by_label("This device's name").fill("Bob's phone")
    bob.evaluate("localStorage.setItem('push-answer', 'block')")
    push.get_by_role("button", name=ON).click()
    expect(push.get_by_role("status")).to_have_text(
        "Push notices were not allowed on this device: allow notifications for this site in "
        "the browser's settings, then try again."
    )
    expect(push.get_by_role("button", name=OFF)).to_be_hidden()
    check(bob)
    assert _labels_of_devices(people["bob"]) == ["Old tablet"]

    # He allows it: the page reloads with this phone listed under his name for it.
    bob.evaluate("localStorage.setItem('push-answer', 'allow')")
    push.get_by_role("button", name=ON).click()
    expect(push.locator("ul.push-devices > li")).to_have_count(2)
    expect(push.locator("ul.push-devices")).to_contain_text("Bob's phone (since ")
    expect(push.get_by_role("status")).to_have_text("This device takes your push notices.")
    expect(push.get_by_role("button", name=OFF)).to_be_visible()
    expect(push.get_by_role("button", name=ON)).to_be_hidden()
    assert bob.evaluate("localStorage.getItem('push-key-bytes')") == "65"  # the site's P-256 key
    assert _labels_of_devices(people["bob"]) == ["Bob's phone", "Old tablet"]
    check(bob)
    screenshot(bob, "push-settings-subscribed-phone")

    # The old tablet is gone from his life: its Remove button, no JavaScript needed.
    push.locator("li", has_text="Old tablet").get_by_role("button", name="Remove").click()
    expect(bob.locator(".messages")).to_contain_text("That device no longer takes your notices.")
    expect(push.locator("ul.push-devices > li")).to_have_count(1)
    check(bob)
    assert _labels_of_devices(people["bob"]) == ["Bob's phone"]

    # And this phone stops: the site forgets it and the page offers to push again.
    push.get_by_role("button", name=OFF).click()
    expect(push).to_contain_text("No device takes your notices yet.")
    expect(push.get_by_role("button", name=ON)).to_be_visible()
    expect(push.get_by_role("button", name=OFF)).to_be_hidden()
    check(bob)
    assert _labels_of_devices(people["bob"]) == []
    assert bob.errors == []


def test_a_browser_without_push_says_so_and_offers_no_button(phones, push_on, people):
    from campaigns.push import subscriptions

    subscriptions.subscribe(people["bob"], _device("old", "Old tablet"))
    bob = phones("bob")
    bob.context.add_init_script(NO_PUSH)
    bob.goto("/accounts/settings/")
    push = _push_section(bob)
    expect(push.locator("#push-unsupported")).to_have_text(
        "This browser cannot take push notices (or the site is not served over https)."
    )
    expect(push.get_by_role("button", name=ON)).to_be_hidden()
    expect(push.get_by_role("button", name=OFF)).to_be_hidden()
    expect(push.get_by_label("This device's name")).to_be_hidden()
    check(bob)
    # A device listed can still be removed from here.
    push.get_by_role("button", name="Remove").click()
    expect(push).to_contain_text("No device takes your notices yet.")
    check(bob)
    assert bob.errors == []


def test_a_push_service_that_refuses_is_told_in_words(phones, push_on, people):
    """Headless Chromium's own push service (none): notifications allowed, the subscription is
    refused; the page says so without the browser's error name."""
    bob = phones("bob")
    bob.context.grant_permissions(["notifications"])
    bob.goto("/accounts/settings/")
    push = _push_section(bob)
    push.get_by_role("button", name=ON).click()
    status = push.get_by_role("status")
    expect(status).to_have_text(
        re.compile(
            r"^(Push notices were not allowed on this device|This browser's push service did not "
            r"take this device|This device could not take push notices)"
        )
    )
    assert not re.search(r"[A-Z][a-z]+Error", status.inner_text()), status.inner_text()
    expect(push.get_by_role("button", name=ON)).to_be_visible()
    expect(push.get_by_role("button", name=OFF)).to_be_hidden()
    check(bob)
    assert _labels_of_devices(people["bob"]) == []
    assert bob.errors == []


def test_without_keys_or_javascript_the_page_says_push_is_off_in_words(
    phones, phone_without_javascript, settings, people
):
    settings.MUSTER_VAPID_PRIVATE_KEY = settings.MUSTER_VAPID_PUBLIC_KEY = ""
    bob = phones("bob")
    bob.goto("/accounts/settings/")
    push = _push_section(bob)
    expect(push).to_contain_text(
        "Push notices are off on this site: its operator has not set up the keys they need. Your "
        "notices still come by mail as you chose above, and in your inbox."
    )
    expect(push.get_by_role("button")).to_have_count(0)
    check(bob)

    settings.MUSTER_VAPID_PRIVATE_KEY, settings.MUSTER_VAPID_PUBLIC_KEY = _keys()
    tab = phone_without_javascript
    log_in(tab, "bob")
    tab.goto("/accounts/settings/")
    push = _push_section(tab)
    # What is drawn (Playwright's text matching leaves <noscript> out, the page shows it).
    assert "Push notices need JavaScript: turn it on to have this device take them." in (
        push.evaluate("section => section.innerText")
    )
    expect(push.get_by_role("button", name=ON)).to_be_hidden()
    expect(push.locator("#push-unsupported")).to_be_hidden()
    check(tab)


def _keys() -> tuple[str, str]:
    from campaigns.push import keys

    return keys.make_pair()
