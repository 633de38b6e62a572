"""Achtung! Panzer! on two 390×844 phones, the path a real player takes when something goes
wrong: the Allied player mis-taps a purchase and gives it back;
the German player buys a fortification and gives it back with JavaScript off; he corrects one
field of a retained leader and the others stay, on the page and in the printed sheet; at the
end of the half-day he confirms the result with it on his screen. Every page passes the table
checks (tests/browser/pagechecks.py). Screenshots: var/artifacts/screenshots/ap-fix-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import pagechecks
from tests.browser.session import log_in
from tests.browser.test_achtung_panzer_at_the_table import (
    Player,
    edit_a_leaders_rg,
    fill_choices,
    other_things,
)
from tests.browser.test_sheets_in_the_browser import prepare_and_download, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_give_back_correct_and_confirm_on_two_phones(
    phones, phone_without_javascript, screenshot, sheet_renderer, club, people
):
    from campaigns.systems.achtung_panzer.tests.campaign_harness import War

    table = War(club, people, variant="cg1", dice_mode="server", name="Somme, second pass")
    alice = Player(phones("alice"), table.campaign, "allied", screenshot)
    bob = Player(phones("bob"), table.campaign, "german", screenshot)

    # --- 1.619: the Allied player mis-taps a purchase and gives it back ----------------------
    alice.open()
    declare = alice.first_form()
    assert "Allied declaration" in alice.title(declare)
    fill_choices(declare)
    alice.submit(declare)
    alice.open()
    cpp = table.side("allied")["cpp"]
    buy = alice.form("ap.purchase")
    buy.locator("input[name=rg]:not([disabled])").nth(1).check()  # the wrong one
    alice.submit(buy)
    mistake = table.side("allied")["purchases"][-1]
    assert not mistake.get("given") and table.side("allied")["cpp"] == cpp - mistake["cost"]
    alice.open()
    other_things(alice, "Give back a purchase of this step")
    give_back = alice.tab.locator("#now form.action:has(input[name=action][value=remove])")
    expect(give_back).to_contain_text(
        f"{mistake['rg']} {mistake['group_type']}: {mistake['cost']} CPP back"
    )
    expect(give_back.locator("input[name=purchase]:checked")).to_have_value(mistake["id"])
    alice.snap("fix-give-back")
    assert alice.submit(give_back, "Give back") == 204
    expect(alice.tab.locator(".messages")).to_contain_text(
        f"Purchase given back: you have {cpp} CPP."
    )
    assert table.side("allied")["cpp"] == cpp and mistake["id"] not in {
        p["id"] for p in table.side("allied")["purchases"]
    }
    alice.check()
    alice.submit(alice.form("ap.check", "1.619"))

    # --- 1.621: the German player gives a fortification back, JavaScript off -----------------
    bob.open()
    bob.submit(bob.form("ap.check", "1.619"))  # nothing bought: 1.620 rolls the given RGs
    bob.open()
    fpp = table.side("german")["fpp"]
    fortify = bob.form("ap.fortify")
    fortify.get_by_label(re.compile(r"^Fortification")).select_option("Wire")
    bob.submit(fortify)
    assert table.side("german")["fpp"] < fpp
    tab = phone_without_javascript
    log_in(tab, "bob")
    tab.goto(f"/campaigns/{table.campaign.pk}/")
    tab.locator("#now .more").get_by_role(
        "link", name="Give back a fortification of this step"
    ).click()
    form = tab.locator("#now form.action:has(input[name=action][value=remove])")
    expect(form).to_contain_text("Wire: 7 FPP back")
    pagechecks.check(tab)
    form.get_by_role("button", name="Give back").click()
    expect(tab.locator(".messages")).to_contain_text(
        f"Fortification given back: you have {fpp} FPP."
    )
    pagechecks.check(tab)
    assert table.side("german")["fpp"] == fpp and not table.side("german")["fortifications"]

    # --- Correct your retained units: one field of a leader, the others stay ---------------
    leader, new_rg = edit_a_leaders_rg(table, bob, "german", "fix-edit-unit")
    bob.check()
    bob.tab.goto(f"/campaigns/{table.campaign.pk}/records/")  # the side's records in full
    bob.check()
    records = bob.tab.locator("section[aria-labelledby=ap-side-german]").text_content()
    assert f"{leader['type']} leader" in records
    bob.tab.goto(f"/campaigns/{table.campaign.pk}/scenarios/")  # every scenario, at 390 px too
    bob.check()
    bob.open()  # the whole between-game procedure is a page of its own, linked from the page
    bob.tab.get_by_role("link", name="The whole procedure, step by step").click()
    bob.tab.wait_for_load_state()
    bob.check()
    expect(bob.tab.locator("ol.checklist li").first).to_be_visible()
    bob.tab.goto(f"/campaigns/{table.campaign.pk}/history/")  # a page of the history at 390 px
    bob.check()
    bob.open()  # the sheets are printed from the campaign page
    pdf = prepare_and_download(bob.tab, "Retained units")
    text = " ".join(text_of(pdf)[1].split())
    # Each leader of that type in the new RG prints "<type> German <RG> (…)" on its row: the changed
    # one too (a blanked type would print one row fewer).
    same = [
        u
        for u in table.side("german")["retained"]
        if u["type"] == leader["type"] and u["rg"] == new_rg["id"]
    ]
    from campaigns.systems.achtung_panzer.words import Names

    rg_name = Names(table.side("german")).rg(new_rg["id"])
    rows = re.findall(rf"(?<!\S){re.escape(leader['type'])} German {re.escape(rg_name)} ok", text)
    assert len(rows) == len(same) >= 1, (
        f"the leader's row in the PDF keeps its type:\n{text[:3000]}"
    )

    # --- The half-day is played: the German confirms the result with it on his screen -------
    for player in (alice, bob):
        for _ in range(30):
            player.open()
            form = player.first_form()
            if (
                form is None
                or "End of" in player.title(form)
                or "Enter the result" in player.title(form)
            ):
                break
            if "Purchase fortifications" in player.title(form):
                form = player.form("ap.check", "1.621")
            fill_choices(form)
            player.submit(form)
    assert table.public["phase"] == "play"
    for player in (alice, bob):
        player.open()
        player.submit(player.own_page_form("ap.aftermath"))
    alice.open()
    result = alice.own_page_form("result.submitted")
    hill = result.locator("li.row-item", has_text="Hill 520")
    for index in range(hill.count()):
        hill.nth(index).get_by_label("Allied").last.check()
    result.get_by_label("CVP sustained (A26.2)").first.fill("3")
    result.get_by_label("CVP sustained (A26.2)").last.fill("5")
    alice.submit(result)
    bob.open()
    confirm = bob.form("result.confirmed")
    shown = confirm.locator(".confirming")
    expect(shown).to_contain_text("The result of 5/29A entered by alice (Allied):")
    expect(shown).to_contain_text(
        "Allied objective hexes at the end: Hill 520 (all 7 hexes) — 7 hexes, 3 objective points"
    )
    expect(shown).to_contain_text("CVP sustained (A26.2): Allied 3, German 5.")
    expect(shown).to_contain_text("Provisional result: Allied win.")
    # On the same screen as the button: both inside the viewport once the button is.
    button = confirm.get_by_role("button", name="Confirm the result of 5/29A")
    button.scroll_into_view_if_needed()
    top = shown.bounding_box()["y"]
    bottom = button.bounding_box()["y"] + button.bounding_box()["height"]
    assert bottom - top < 844, "the result and its Confirm button do not fit one phone screen"
    dispute = bob.form("result.disputed")
    assert dispute.bounding_box()["y"] > button.bounding_box()["y"]  # Dispute right after it
    bob.snap("fix-confirm")
    assert bob.submit(confirm) == 204
    assert table.public["phase"] == "refit"
