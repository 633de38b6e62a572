"""Achtung! Panzer!'s "Units eliminated at the table in the Refit Phase" at 390×844: a long form on
a page of its own (a tick per retained unit), reached from the campaign page's "Other things you
can do". alice (Allied) opens it, sends it empty by mistake and is told what it needs, ticks the
squad lost in melee with its CVP and sends it; it was the squad beside it: she proposes a
correction from the history (the units ticked by name, never by id) and the referee agrees; her
records then count one unit lost. bob (German) sees only
his own units there, and the Allied page's link opened in his browser shows him nothing of theirs;
his records say nothing of the Allied side. The referee finds the page once per side, records a
German loss, and reads both sides' records. Every page passes the page checks (no sideways
scroll, touch targets ≥ 24 px, no keys, snake_case or ids)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_achtung_panzer_at_the_table import Player

pytestmark = pytest.mark.django_db(transaction=True)
ELIMINATED = "Units eliminated at the table in the Refit Phase"


def refit_after_the_first_half_day(club, people):
    """CG I after its Initial Scenario and first half-day, the result confirmed, both sides in the
    Refit Phase's table steps (units can be lost at the table now)."""
    from campaigns.systems.achtung_panzer.tests.campaign_harness import in_the_first_refit_phase

    return in_the_first_refit_phase(club, people)


def open_eliminated(player: Player, label: str = ELIMINATED) -> str:
    """From the campaign page, as a player: "Other things you can do", the page's link. Returns
    the link followed."""
    player.open()
    link = player.tab.locator("#now .more").get_by_role("link", name=label)
    href = link.get_attribute("href")
    link.click()
    player.tab.wait_for_load_state()
    expect(player.tab.get_by_role("heading", name=re.compile(ELIMINATED))).to_be_visible()
    player.check()
    return href


def unit_ticks(tab):
    return tab.locator("#now form.action input[type=checkbox][name=units]")


def tick_labels(tab) -> list[str]:
    return [
        " ".join(t.split())
        for t in tab.locator("#now form.action label.check-line").all_inner_texts()
    ]


def test_units_eliminated_at_the_table_at_each_seat_on_a_phone(phones, screenshot, club, people):
    war = refit_after_the_first_half_day(club, people)
    base = f"/campaigns/{war.campaign.pk}/"
    alice = Player(phones("alice"), war.campaign, "allied", screenshot)
    bob = Player(phones("bob"), war.campaign, "german", screenshot)
    rita = Player(phones("rita"), war.campaign, "referee", screenshot)
    allied = {u["id"] for u in war.side("allied")["retained"]}
    german = {u["id"] for u in war.side("german")["retained"]}

    # alice: every Allied retained unit is a tick, nothing of the German's.
    allied_link = open_eliminated(alice)
    ticks = unit_ticks(alice.tab)
    assert {t.get_attribute("value") for t in ticks.all()} == allied
    allied_labels = tick_labels(alice.tab)
    assert len(allied_labels) == len(allied)
    alice.snap("eliminated-page")

    # Sent empty by mistake: refused on the same page, saying what it needs.
    form = alice.tab.locator("#now form.action")
    assert alice.submit(form) == 400
    expect(alice.tab.locator("#now form.action")).to_contain_text(
        "Give the units eliminated or the CVP sustained."
    )
    expect(alice.tab.get_by_role("heading", name=re.compile(ELIMINATED))).to_be_visible()
    alice.check()

    # The squad lost in melee, with the CVP the club's list does not give.
    squad = next(u for u in war.side("allied")["retained"] if u["kind"] == "squad")
    form = alice.tab.locator("#now form.action")
    form.locator(f"input[name=units][value='{squad['id']}']").check()
    form.get_by_label(re.compile(r"^CVP of ")).fill("2")
    form.get_by_label("How (melee, 1TC, minefield …)").fill("melee at 23R5")
    assert alice.submit(form) == 204
    expect(alice.tab.locator(".messages")).to_be_visible()
    alice.check()
    assert [u["id"] for u in war.side("allied")["eliminated"]] == [squad["id"]]
    assert war.side("german")["eliminated"] == []

    # It was the squad beside it: the record's correction, from the campaign page's history, ticks
    # the units by name; the referee agrees to it.
    other = next(
        u for u in war.side("allied")["retained"] if u["kind"] == "squad" and u["id"] != squad["id"]
    )
    alice.open()
    entry = alice.tab.locator(
        "section[aria-labelledby=hist-h] li", has_text="Allied: Units eliminated in the Refit Phase"
    )
    entry.locator("summary", has_text="Fix this").click()
    entry.get_by_role("link", name="Propose a correction").click()
    expect(alice.tab.get_by_role("heading", name="Propose a correction")).to_be_visible()
    alice.check()
    assert re.search(r"\bu\d+\b", alice.tab.locator("main").inner_text()) is None, "a unit's id"
    ticks = alice.tab.locator("main input[type=checkbox][name=units]")
    assert {t.get_attribute("value") for t in ticks.all()} == allied
    expect(alice.tab.locator(f"main input[name=units][value='{squad['id']}']")).to_be_checked()
    alice.tab.locator(f"main input[name=units][value='{squad['id']}']").uncheck()
    alice.tab.locator(f"main input[name=units][value='{other['id']}']").check()
    alice.tab.get_by_label("Reason").fill("the squad beside it was lost")
    alice.tab.get_by_role("button", name="Propose").click()
    expect(alice.tab.locator(".messages")).to_contain_text("Correction proposed")
    alice.check()
    rita.open()
    proposal = rita.tab.locator("#proposals li", has_text="the squad beside it was lost")
    expect(proposal).to_contain_text("Correction proposed by alice (Allied)")
    assert re.search(r"\bu\d+\b", proposal.inner_text()) is None, proposal.inner_text()
    agree = rita.tab.locator(
        "#now form.action",
        has=rita.tab.get_by_role("heading", name="Agree to a proposed correction"),
    )
    assert rita.submit(agree) == 204
    assert [u["id"] for u in war.side("allied")["eliminated"]] == [other["id"]]

    # Her records count it, and hold nothing of the German side.
    alice.open()
    alice.tab.get_by_role("link", name=re.compile(r"^Every RG and unit")).click()
    expect(alice.tab).to_have_url(re.compile(rf"{base}records/"))
    mine = alice.tab.locator("section", has=alice.tab.locator("#ap-side-allied"))
    expect(mine).to_contain_text("Allied: your side's records")
    expect(mine).to_contain_text("1 unit eliminated so far.")
    expect(alice.tab.locator("#ap-side-german")).to_have_count(0)
    alice.check()
    screenshot(alice.tab, "ap-records-allied-phone")

    # bob: his own units only; the Allied page's link in his browser shows nothing of theirs.
    open_eliminated(bob)
    assert {t.get_attribute("value") for t in unit_ticks(bob.tab).all()} == german
    german_labels = tick_labels(bob.tab)
    assert not set(german_labels) & set(allied_labels)
    bob.tab.goto(base + allied_link)
    bob.check()
    expect(bob.tab.locator("#now form.action input[name=_side][value=allied]")).to_have_count(0)
    shown = bob.tab.locator("main").inner_text()
    assert not [label for label in allied_labels if label in shown]
    assert "melee at 23R5" not in shown
    bob.tab.goto(base + "records/")
    expect(bob.tab.locator("#ap-side-german")).to_contain_text("German: your side's records")
    expect(bob.tab.locator("#ap-side-allied")).to_have_count(0)
    assert "eliminated so far" not in bob.tab.locator("main").inner_text()
    bob.check()

    # The referee: the page once per side, named by its side; a German loss recorded for bob.
    rita.open()
    more = rita.tab.locator("#now .more")
    expect(more.get_by_role("link", name=f"Allied: {ELIMINATED}")).to_have_count(1)
    expect(more.get_by_role("link", name=f"German: {ELIMINATED}")).to_have_count(1)
    open_eliminated(rita, f"German: {ELIMINATED}")
    assert {t.get_attribute("value") for t in unit_ticks(rita.tab).all()} == german
    leader = next(u for u in war.side("german")["retained"] if u["kind"] == "leader")
    form = rita.tab.locator("#now form.action")
    form.locator(f"input[name=units][value='{leader['id']}']").check()
    form.get_by_label(re.compile(r"^CVP of ")).fill("1")
    rita.snap("eliminated-referee")
    assert rita.submit(form) == 204
    assert [u["id"] for u in war.side("german")["eliminated"]] == [leader["id"]]
    rita.tab.goto(base + "records/")
    for slug, name in (("allied", "Allied"), ("german", "German")):
        side = rita.tab.locator("section", has=rita.tab.locator(f"#ap-side-{slug}"))
        expect(side).to_contain_text(f"{name} side's records")
        expect(side).to_contain_text("1 unit eliminated so far.")
    rita.check()
    screenshot(rita.tab, "ap-records-referee-phone")
