"""A solitaire squad on a phone (390×844), in a real browser: create the squad, set up and log a
mission with two soldiers eliminated, and run the end-mission briefing — with dice rolled by the
server, and with dice entered from the table. Every page passes the page checks
(tests/browser/pagechecks.py): no sideways scroll, no JSON box, no raw key, touch targets."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from tests.browser.pagechecks import check
from tests.browser.session import log_in

pytestmark = pytest.mark.browser
NAMES = ("alice",)  # usernames may look like anything; none here has an underscore


def action(page, kind):
    return page.locator("form.action", has=page.locator(f"input[name=_kind][value='{kind}']"))


def open_form(page, kind):
    form = action(page, kind)
    more = page.locator("details.more", has=form)
    if more.count() and more.first.get_attribute("open") is None:
        more.first.locator("summary").first.click()  # "Other things you can do"
    details = form.locator("details")
    if details.count() and details.first.get_attribute("open") is None:
        details.first.locator("summary").click()
    return form


def done(page, words):
    expect(page.locator(".messages")).to_contain_text(words)
    check(page)


def enter_dice(page, kind, faces: dict):
    """The form came back asking for dice, each named in words: type the faces and send."""
    form = action(page, kind)
    expect(form.locator(".notice")).to_contain_text("Enter the dice rolled at the table for")
    check(page)
    for label, face in faces.items():
        form.get_by_label(label).fill(str(face))
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize("dice_mode", ["server", "entered"])
def test_a_squad_from_creation_through_its_first_briefing(
    dice_mode, phone, screenshot, club, people
):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club,
        user=olga,
        system="rifles_ardennes",
        variant="three",
        name="Kampfgruppe",
        options={"dice_mode": dice_mode, "army": "german", "enemy": "us"},
    )
    svc.assign_player(campaign, olga, side="squad", username="alice")
    submit(campaign, olga, "campaign.started")
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{campaign.pk}/")
    check(phone)

    # The squad: 2.2's example squad is offered; the player names two soldiers and sends it.
    squad = open_form(phone, "rifles.squad")
    squad.locator("input[name='soldiers-0-name']").fill("Sgt. Braun")
    squad.locator("input[name='soldiers-3-name']").fill("Pvt. Weber")
    squad.locator("input[name='soldiers-4-name']").fill("Pvt. Lang")
    check(phone)
    screenshot(phone, f"rifles-create-squad-{dice_mode}")
    squad.locator("button[type=submit]").click()
    done(phone, "Done: Create your squad.")

    mission = open_form(phone, "rifles.mission")
    mission.get_by_label("Mission name").fill("Mission 01")
    mission.get_by_label("Game turns").fill("10")
    mission.locator("button[type=submit]").click()
    done(phone, "Done: Set up Mission 1")

    # The log: lost after 10 turns, two soldiers eliminated — one tap each.
    log = open_form(phone, "result.submitted")
    log.get_by_label("Lost").check()
    log.get_by_label("Game turns used").fill("10")
    eliminated = log.locator("fieldset.choice-group", has_text="Eliminated in the mission")
    eliminated.get_by_label("Pvt. Weber (D), Rifle").check()
    eliminated.get_by_label("Pvt. Lang (G), Rifle").check()
    check(phone)
    screenshot(phone, f"rifles-log-mission-{dice_mode}")
    log.locator("button[type=submit]").click()
    done(phone, "Done: Enter the result of Mission 1.")
    expect(phone.locator("#status")).to_contain_text("Mission 01: lost after 10 of 10 game turns.")
    expect(phone.locator("#status")).to_contain_text(
        "Eliminated: Pvt. Weber (D) and Pvt. Lang (G)."
    )

    # (b) experience
    action(phone, "rifles.xp").get_by_role("button").click()
    if dice_mode == "entered":
        enter_dice(phone, "rifles.xp", {"Mission 1: experience roll": 4})
        done(phone, "Experience roll: dr 4 − 1 (mission lost) = 3 → +3 XP")
    else:
        done(phone, "Experience roll: dr ")
    xp = current_state(campaign)["game"]["public"]["squad"]["xp"]
    assert 1 <= xp <= 5  # 1d6 − 1, at least 1 (8.4)

    if xp >= 2:
        spend = open_form(phone, "rifles.spend_xp")
        spend.locator("li.row-item", has_text="Pvt. Weber (D)").get_by_label(
            "Promote to Veteran"
        ).check()
        check(phone)
        spend.locator("button[type=submit]").click()
        done(phone, "Done: Spend XP: Veterans and skills.")
        weber = [
            x
            for x in current_state(campaign)["game"]["public"]["squad"]["soldiers"]
            if x["letter"] == "D"
        ][0]
        assert weber["veteran"] is True

    # (c) the End Mission Table, one roll per eliminated soldier
    action(phone, "rifles.casualties").get_by_role("button").click()
    if dice_mode == "entered":
        enter_dice(
            phone,
            "rifles.casualties",
            {
                "Mission 1: casualty roll for Pvt. Weber (D)": 5,
                "Mission 1: casualty roll for Pvt. Lang (G)": 1,
            },
        )
        done(phone, "Casualty roll for Pvt. Weber (D): dr 5 − 1 (mission lost) = 4 → wounded")
        expect(phone.locator(".messages")).to_contain_text(
            "Casualty roll for Pvt. Lang (G): dr 1 − 1 (mission lost) = 0 → dead"
        )
    else:
        done(phone, "Casualty roll for Pvt. Weber (D): dr ")
    screenshot(phone, f"rifles-briefing-{dice_mode}")

    # (d) reinforcements, when the squad is short of its 10 AP without its wounded
    state = current_state(campaign)
    if action(phone, "rifles.reinforce").count():
        action(phone, "rifles.reinforce").get_by_role("button").click()
        if dice_mode == "entered":
            enter_dice(phone, "rifles.reinforce", {"Mission 1: reinforcements from HQ": 4})
            done(phone, "Reinforcements from HQ: dr 4 → 1 AP to reinforce the squad")
        else:
            done(phone, "Reinforcements from HQ: dr ")
        grant = current_state(campaign)["game"]["public"]["briefing"]["reinforcement"]
        if grant["ap"]:
            recruit = open_form(phone, "rifles.recruit")
            recruit.locator("input[name='soldiers-0-name']").fill("Pvt. Huber")
            recruit.locator("select[name='soldiers-0-unit']").select_option(label="Rifle, 1 AP")
            check(phone)
            recruit.locator("button[type=submit]").click()
            done(phone, "Done: Spend the AP: new soldiers and equipment.")
            expect(phone.locator("#ra-squad-h").locator("xpath=..")).to_contain_text("Pvt. Huber")
    else:
        from campaigns.systems.rifles_ardennes.state import squad_ap

        assert dice_mode == "server" and squad_ap(state) == 10
    action(phone, "rifles.next_mission").get_by_role("button").click()
    done(phone, "Done: Begin Mission 2.")
    state = current_state(campaign)
    assert state["current"] == 1 and state["game"]["public"]["phase"] == "mission"
    sources = set(campaign.events.filter(kind="dice.rolled").values_list("data__source", flat=True))
    assert sources == {"server" if dice_mode == "server" else "entered"}

    for path in (
        f"/campaigns/{campaign.pk}/history/",
        f"/clubs/{club.slug}/",
        f"/campaigns/{campaign.pk}/sheets/squad_roster/print/",
    ):
        phone.goto(path)
        check(phone)
    screenshot(phone, f"rifles-squad-roster-{dice_mode}")
    assert phone.errors == []


def test_a_us_squad_enters_its_army_sheet_first_and_reads_as_cards_on_a_phone(
    phone, screenshot, club, people
):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club,
        user=olga,
        system="rifles_ardennes",
        variant="three",
        name="Easy Company",
        options={"army": "us", "enemy": "german", "ap_budget": 6},
    )
    svc.assign_player(campaign, olga, side="squad", username="alice")
    submit(campaign, olga, "campaign.started")
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{campaign.pk}/")
    check(phone)
    # The first to-do says why the Unit list is empty and is the form that fills it: the BAR as
    # the text gives it, its AP to type.
    first = phone.locator("#now form.action").first
    expect(first).to_contain_text("Give the BAR its AP from your Army Sheet")
    expect(first).to_contain_text("keeps only the BAR, without its AP")
    first.locator("[name=ap]").fill("3")
    first.locator("button[type=submit]").click()
    done(phone, "Done: Give the BAR its AP from your Army Sheet.")
    squad = action(phone, "rifles.squad")
    expect(squad).to_contain_text("First enter your Army Sheet's units (above)")
    for values in (
        {"name": "M1 Garand", "ap": "1", "cf": "1"},
        {"name": "Thompson SMG", "ap": "1", "may_lead": True},
    ):
        catalog = open_form(phone, "rifles.catalog")
        for name, value in values.items():
            field = catalog.locator(f"[name='{name}']")
            if value is True:
                field.check()
            elif name == "item":
                field.select_option(label=value)
            else:
                field.fill(value)
        with phone.expect_navigation():  # the same to-do twice: wait for this one's page
            catalog.locator("button[type=submit]").click()
        done(phone, "Done: First enter your Army Sheet's units.")
    squad = open_form(phone, "rifles.squad")
    expect(squad).not_to_contain_text("First enter")
    for row, (name, unit, role) in enumerate(
        (
            ("Sgt. Adams", "Thompson SMG, 1 AP, may lead", "Leader"),
            ("Pvt. Miller", "BAR, 3 AP", "Gunner"),
            ("Pvt. Brown", "M1 Garand, 1 AP", "Rifleman"),
        )
    ):
        squad.locator(f"input[name='soldiers-{row}-name']").fill(name)
        squad.locator(f"select[name='soldiers-{row}-unit']").select_option(label=unit)
        squad.locator(f"select[name='soldiers-{row}-designation']").select_option(label=role)
    squad.locator("button[type=submit]").click()
    done(phone, "Done: Create your squad.")
    # The squad on a phone: one card per soldier, Status and Veteran in view, nothing sideways.
    table = phone.locator("#ra-squad-h").locator("xpath=..").locator("table")
    card = table.locator("tbody tr", has_text="Pvt. Miller")
    for label, value in (
        ("Status", "ready"),
        ("Unit", "BAR"),
        ("AP", "3"),
        ("Designation", "Gunner"),
    ):
        cell = card.locator(f"td[data-label='{label}']")
        expect(cell).to_contain_text(value)
        # Shown on the card with its heading (the column headings are hidden on a phone).
        shown = cell.evaluate("c => getComputedStyle(c, '::before').content")
        assert shown == f'"{label}" ": "' or shown == f'"{label}: "', shown
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert card.locator("td[data-label='Veteran / skill']").is_hidden()  # empty: no line for it
    assert (
        table.locator("thead").bounding_box()["width"] <= 1
    )  # the head is for screen readers only
    screenshot(phone, "rifles-us-squad-cards")
    # The club's comparison: a card per campaign, words whole.
    phone.goto(f"/clubs/{club.slug}/")
    check(phone)
    compared = (
        phone.locator("section", has_text="the club's campaigns compared").locator("tbody tr").first
    )
    expect(compared.locator("th")).to_contain_text("Easy Company")
    cell = compared.locator("td[data-label='Missions accomplished']")
    expect(cell).to_be_visible()
    box = compared.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(phone, "rifles-club-comparison-cards")
    assert phone.errors == []
