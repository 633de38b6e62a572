"""At 390×844, with the network cut by the test: a player's campaign page is kept by the service
worker for them alone, shown offline marked "as of" its time; a page never opened says what is
kept; signing out forgets every kept page, and another person signing in on the same phone never
finds the first one's pages in the browser's storage."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.browser.session import log_in, log_out

KEPT = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith("muster-pages-")) continue;
    const cache = await caches.open(name);
    found[name] = [];
    for (const request of await cache.keys()) {
      const page = await (await cache.match(request)).text();
      const person = (page.match(/<meta name="muster-person" content="([0-9a-f]*)">/) || [])[1];
      found[name].push([new URL(request.url).pathname, person]);
    }
  }
  return found;
}"""


def _controlled(tab) -> None:
    """The page's service worker ready and in control (the first page is not yet controlled)."""
    tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not tab.evaluate("!!navigator.serviceWorker.controller"):
        tab.reload()
    assert tab.evaluate("!!navigator.serviceWorker.controller")


def _kept_copy_running(tab) -> None:
    """The worker's kept copy is shown and its script runs (it drew its own banner in place of the
    worker's): the page now notices the network coming back."""
    expect(tab.locator('meta[name="muster-kept-at"]')).to_have_count(1)
    expect(tab.locator("#offline-status")).to_contain_text("Offline since")


def _the_page_itself(tab) -> None:
    """The page as the site draws it now, not the kept copy."""
    expect(tab.locator('meta[name="muster-kept-at"]')).to_have_count(0)
    expect(tab.locator(".offline-banner")).to_have_count(0)
    expect(tab.locator("html")).not_to_have_class("offline")


def test_a_player_reads_their_page_offline_and_signing_out_forgets_it(phone, skirmish, people):
    from campaigns.views.installable import person_key

    page_path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "bob")
    phone.goto(page_path)
    _controlled(phone)
    phone.reload()  # drawn through the worker: kept
    heading = phone.locator("h1").inner_text()
    bob = f"muster-pages-{person_key(people['bob'])}"
    assert phone.evaluate(KEPT) == {bob: [[page_path, person_key(people["bob"])]]}

    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator(".offline-banner")).to_contain_text(
        re.compile(r"Offline since \d\d:\d\d\. This page as of \d\d:\d\d")
    )
    expect(phone.locator("html")).to_have_class("offline")
    expect(phone.locator("h1")).to_have_text(heading)
    check(phone)
    phone.goto("/notices/")  # never opened: what is kept, with its time
    expect(phone.locator("h1")).to_have_text("You are offline")
    kept_link = phone.get_by_role("link", name=re.compile(re.escape(skirmish.name)))
    expect(kept_link).to_be_visible()
    check(phone)
    kept_link.click()
    _kept_copy_running(phone)

    phone.context.set_offline(False)  # the network is back: the page itself, by itself
    _the_page_itself(phone)
    log_out(phone)
    assert phone.evaluate(KEPT) == {}

    # Another person on the same phone, bob's session gone without signing out: the first page
    # drawn for alice makes the worker forget whatever it kept for anyone else.
    log_in(phone, "bob")
    phone.goto(page_path)
    _controlled(phone)
    phone.reload()
    assert list(phone.evaluate(KEPT)) == [bob]
    phone.context.clear_cookies()
    log_in(phone, "alice")
    phone.goto(page_path)
    _controlled(phone)
    phone.reload()
    alice = f"muster-pages-{person_key(people['alice'])}"
    assert phone.evaluate(KEPT) == {alice: [[page_path, person_key(people["alice"])]]}
    assert phone.errors == []


def test_a_kept_page_comes_back_by_itself_when_the_site_answers_after_the_network(phone, skirmish):
    """The phone says it is online again but the site cannot be reached yet (a network still
    joining, one bar of signal): the kept page stays, and it becomes the page itself once the site
    answers, with no event from the browser to say so."""
    page_path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "bob")
    phone.goto(page_path)
    _controlled(phone)
    phone.reload()  # kept
    phone.context.set_offline(True)
    phone.reload()
    _kept_copy_running(phone)

    def unreachable(route) -> None:
        route.abort("internetdisconnected")

    def for_the_page(request) -> bool:
        return request.url.endswith(page_path)

    phone.context.route("**/*", unreachable)
    with phone.context.expect_event("requestfailed", predicate=for_the_page):
        phone.context.set_offline(False)  # "online": the page is asked for, and does not come
    _kept_copy_running(phone)
    assert phone.evaluate("navigator.onLine")

    phone.context.unroute("**/*", unreachable)  # the site answers: nothing else happens
    _the_page_itself(phone)
    expect(phone.locator("h1")).to_contain_text(skirmish.name)

    # The kept copy drawn while the phone is online all along: no "online" event will come.
    phone.context.route("**/*", unreachable)
    phone.reload()
    _kept_copy_running(phone)
    phone.context.unroute("**/*", unreachable)
    _the_page_itself(phone)
    assert phone.errors == []
