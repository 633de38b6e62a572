"""At 390×844, with the network cut by the test: a player's steps made without signal wait on the
phone (IndexedDB) as "waiting to send", survive a reload served by the service worker, and land
once each, in order, when the network is back; a step that became illegal meanwhile comes back
with the rules' reason and the input kept; server dice are rolled when the step is sent, table
dice travel with it; the odds and whom the campaign waits for are not pretended offline; the
phone's storage never holds the other side's secrets; signing out forgets it all."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.pagechecks import check
from tests.browser.session import log_in, log_out

STEPS = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("muster-queue", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("steps", { keyPath: "id", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const all = await new Promise((resolve) => {
    const request = db.transaction("steps").objectStore("steps").getAll();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return all;
}"""

PUT_BACK = """async (steps) => {
  const db = await new Promise((resolve) => {
    const request = indexedDB.open("muster-queue", 1);
    request.onsuccess = () => resolve(request.result);
  });
  await new Promise((resolve) => {
    const transaction = db.transaction("steps", "readwrite");
    for (const step of steps) transaction.objectStore("steps").put(step);
    transaction.oncomplete = resolve;
  });
  db.close();
}"""

STORAGE = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      // The site's own static files (precached again as the sign-in page loads) by address only:
      // their code names the queue's keys; what matters is which addresses are kept.
      if (name.startsWith("muster-static-")) found.push("static " + new URL(request.url).pathname);
      else found.push(await (await cache.match(request)).text());
    }
  }
  for (const { name } of await indexedDB.databases()) {
    const db = await new Promise((resolve) => { const r = indexedDB.open(name); r.onsuccess = () => resolve(r.result); });
    for (const store of db.objectStoreNames) {
      const rows = await new Promise((resolve) => {
        const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => resolve(r.result);
      });
      found.push(JSON.stringify(rows));
    }
    db.close();
  }
  found.push(JSON.stringify(Object.entries(localStorage)));
  return found.join("\\n");
}"""


def _controlled_and_kept(tab, path) -> None:
    """The service worker in control, and the page drawn through it (kept for offline)."""
    tab.goto(path)
    tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
    tab.reload()
    assert tab.evaluate("!!navigator.serviceWorker.controller")


def _buy(tab, count: int) -> None:
    form = tab.locator("form.action").filter(has_text="Buy reinforcements")
    if not form.locator("details").evaluate("d => d.open"):
        form.locator("summary").click()
    form.get_by_label("Count").fill(str(count))
    form.get_by_role("button", name=re.compile("Buy reinforcements|Submit")).click()


def _buys(campaign):
    return list(
        campaign.events.filter(kind="skirmish.buy", side="blue")
        .order_by("seq")
        .values_list("data__count", "idempotency_key")
    )


def test_two_steps_made_offline_land_once_each_in_order_when_the_network_is_back(
    phone, skirmish, people
):
    from campaigns.services.journal import submit

    submit(skirmish, people["alice"], "skirmish.supply", {}, side="red")
    path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "bob")
    phone.goto(path)
    phone.get_by_role("button", name="Roll for supply").click()  # online: rolled at once
    expect(phone.locator(".messages")).to_contain_text("Supply roll of Blue")
    expect(phone.locator("#now .waiting")).to_contain_text("Stance")  # both sides choose now
    _controlled_and_kept(phone, path)

    phone.context.set_offline(True)
    _buy(phone, 1)
    queued = phone.locator("#queued .queued-step")
    expect(queued).to_have_count(1)
    expect(queued.first).to_contain_text("Buy reinforcements — Waiting to send")
    expect(queued.first).to_contain_text("Count: 1")
    expect(phone.locator("#offline-status")).to_contain_text(
        re.compile(r"Offline since \d\d:\d\d — 1 step waiting")
    )
    _buy(phone, 1)
    expect(queued).to_have_count(2)
    _buy(phone, 2)  # a slip: given back before it is sent
    expect(queued).to_have_count(3)
    queued.nth(2).get_by_role("button", name="Cancel this step").click()
    expect(queued).to_have_count(2)
    expect(phone.locator("#offline-status")).to_contain_text("2 steps waiting")

    phone.reload()  # no network: the page the worker kept, with the steps still waiting
    expect(phone.locator("h1")).to_have_text(skirmish.name)
    expect(queued).to_have_count(2)
    expect(phone.locator("#offline-status")).to_contain_text(
        re.compile(r"Offline since \d\d:\d\d — 2 steps waiting\. This page as of \d\d:\d\d")
    )
    # Whom the campaign waits for is not pretended: red may have rolled since.
    expect(phone.locator("#now .waiting")).to_have_count(1)
    expect(phone.locator("#now .waiting")).to_be_hidden()
    expect(phone.locator("#now .offline-only")).to_contain_text(
        "known again when the network is back"
    )
    check(phone)
    waiting = phone.evaluate(STEPS)
    assert [(s["label"], s["lines"], s["state"]) for s in waiting] == [
        ("Buy reinforcements", ["Count: 1"], "waiting")
    ] * 2
    assert len({s["key"] for s in waiting}) == 2  # two steps, two keys
    assert _buys(skirmish) == []

    phone.context.set_offline(False)  # both sent, in order, and the page drawn again
    expect(phone.locator("#queued .queued-step.sent")).to_have_count(2)
    expect(phone.locator("#offline-status")).to_have_count(0)
    assert _buys(skirmish) == [(1, s["key"]) for s in waiting]
    check(phone)

    # The same steps sent again (a second tab, a lost answer): written once all the same.
    phone.evaluate(PUT_BACK, waiting)
    phone.reload()
    expect(phone.locator("#queued .queued-step.sent")).to_have_count(2)
    assert _buys(skirmish) == [(1, s["key"]) for s in waiting]
    phone.reload()
    expect(phone.locator("#queued")).to_have_count(0)  # a sent step is said once

    log_out(phone)
    assert phone.evaluate(STEPS) == []
    left = phone.evaluate(STORAGE)  # the static files only: nothing of bob's steps or pages
    assert "Buy reinforcements" not in left and "muster-sent-keys" not in left
    kept_files = [line for line in left.splitlines() if line.startswith("static ")]
    assert all(line.startswith("static /static/") for line in kept_files)
    assert phone.errors == []


def test_a_step_that_became_illegal_comes_back_with_its_reason_and_the_input_kept(
    phone, phones, skirmish, people
):
    from campaigns.services.journal import submit

    submit(skirmish, people["bob"], "skirmish.supply", {}, side="blue")
    path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "bob")
    _controlled_and_kept(phone, path)
    phone.context.set_offline(True)
    _buy(phone, 2)
    expect(phone.locator("#queued .queued-step")).to_contain_text("Waiting to send")

    desk = phones("bob")  # meanwhile, on another device, bob buys one
    desk.goto(path)
    _buy(desk, 1)
    expect(desk.locator(".messages")).to_contain_text("Buy reinforcements")

    phone.context.set_offline(False)
    back = phone.locator("#queued .queued-step.refused")
    expect(back).to_contain_text("Came back")
    expect(back).to_contain_text("Count: At most 2 reinforcements per round (T.3).")
    redo = back.locator("form.action")
    expect(redo.get_by_label("Count")).to_have_value("2")  # the input kept
    check(phone)
    assert _buys(skirmish)[0][0] == 1 and len(_buys(skirmish)) == 1

    redo.get_by_label("Count").fill("1")  # redone: the same step, its key, its place
    redo.get_by_role("button", name=re.compile("Buy reinforcements|Submit")).click()
    expect(phone.locator("#queued .queued-step.sent")).to_contain_text("Count: 1")
    assert [count for count, _ in _buys(skirmish)] == [1, 1]
    assert phone.evaluate(STEPS) == []
    phone.reload()
    expect(phone.locator("#queued")).to_have_count(0)
    assert phone.errors == [] and desk.errors == []


def test_server_dice_roll_when_sent_and_table_dice_travel_with_the_step(phone, club, people):
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    olga = people["olga"]
    made = {}
    for dice in ("server", "entered"):
        campaign = svc.create_campaign(
            club=club,
            user=olga,
            system="skirmish",
            variant="short",
            name=f"Dice {dice}",
            options={"dice_mode": dice},
        )
        svc.assign_player(campaign, olga, side="red", username="alice")
        svc.assign_player(campaign, olga, side="blue", username="bob")
        submit(campaign, olga, "campaign.started")
        made[dice] = campaign
    log_in(phone, "bob")

    # Server dice: queued without a roll, rolled by the site when sent.
    path = f"/campaigns/{made['server'].pk}/"
    _controlled_and_kept(phone, path)
    expect(phone.locator("#odds")).to_be_visible()
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#odds .offline-only")).to_have_text(
        re.compile("The odds need the network")
    )
    expect(phone.locator("#odds h3").first).to_be_hidden()  # no odds pretended offline
    phone.get_by_role("button", name="Roll for supply").click()
    step = phone.locator("#queued .queued-step")
    expect(step).to_contain_text("Dice it needs are rolled by the site when it is sent.")
    check(phone)
    assert made["server"].events.filter(kind="skirmish.supply").count() == 0
    phone.context.set_offline(False)
    expect(phone.locator("#queued .queued-step.sent")).to_contain_text("Supply roll of Blue")
    assert made["server"].events.filter(kind="skirmish.supply", side="blue").count() == 1

    # Table dice: the site asks for the die first; typed offline, the face goes with the step.
    path = f"/campaigns/{made['entered'].pk}/"
    _controlled_and_kept(phone, path)
    phone.get_by_role("button", name="Roll for supply").click()
    die = phone.get_by_label(re.compile("Supply roll of Blue"))
    expect(die).to_be_visible()
    phone.context.set_offline(True)
    die.fill("5")
    phone.locator("form.action").filter(has=die).locator("button[type=submit]").first.click()
    expect(step).to_contain_text("The dice you entered go with it.")
    phone.context.set_offline(False)
    expect(phone.locator("#queued .queued-step.sent")).to_contain_text("Supply roll of Blue: 5")
    rolled = made["entered"].events.get(kind="dice.rolled")
    assert rolled.data["dice"] == [5] and rolled.data["source"] == "entered"
    assert phone.errors == []


def test_the_other_sides_secrets_never_reach_the_phones_storage(phone, phones, skirmish, people):
    path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "bob")
    phone.goto(path)
    phone.get_by_role("button", name="Roll for supply").click()
    expect(phone.locator(".messages")).to_contain_text("Supply roll of Blue")
    _controlled_and_kept(phone, path)
    phone.context.set_offline(True)
    _buy(phone, 1)

    alice = phones("alice")  # red acts in secret meanwhile
    alice.goto(path)
    alice.get_by_role("button", name="Roll for supply").click()
    expect(alice.locator(".messages")).to_contain_text("Supply roll of Red")
    _buy(alice, 1)
    expect(alice.locator(".messages")).to_contain_text("Buy reinforcements")

    phone.context.set_offline(False)
    expect(phone.locator("#queued .queued-step.sent")).to_have_count(1)
    phone.goto("/")
    phone.goto(path)
    kept = phone.evaluate(STORAGE)
    assert "Supply roll of Blue" in kept  # the phone's own side is there
    assert "Supply roll of Red" not in kept and "Red: your side" not in kept
    assert "supply/red" not in kept
    assert phone.errors == [] and alice.errors == []


def test_the_referee_queues_a_step_for_each_side_and_both_land(phone, skirmish, people):
    path = f"/campaigns/{skirmish.pk}/"
    log_in(phone, "rita")
    _controlled_and_kept(phone, path)
    phone.context.set_offline(True)
    rolls = phone.locator("form.action").filter(has_text="Roll for supply")
    expect(rolls).to_have_count(2)  # the referee acts for each side
    for form in (rolls.nth(0), rolls.nth(1)):
        form.locator("button[type=submit]").first.click()
    queued = phone.locator("#queued .queued-step")
    expect(queued).to_have_count(2)
    check(phone)
    assert skirmish.events.filter(kind="skirmish.supply").count() == 0

    phone.context.set_offline(False)
    expect(phone.locator("#queued .queued-step.sent")).to_have_count(2)
    sides = sorted(skirmish.events.filter(kind="skirmish.supply").values_list("side", flat=True))
    assert sides == ["blue", "red"]
    assert phone.errors == []
