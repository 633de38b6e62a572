"""Entering turns of the three victory-ledger games on a 390×844 phone: the locations are a list
to tick, pre-filled from the last turn (so a quiet turn is a few taps), units are picked from the
game's unit list; every page passes the page checks (no sideways scroll, no JSON box, no raw keys,
touch targets ≥ 24 px)."""

import time

from playwright.sync_api import expect

from campaigns.services.journal_files import full_state
from campaigns.systems.victory_ledger.tests.harness import Game
from tests.browser.pagechecks import problems
from tests.browser.session import log_in

FAB_SYMBOLS = {"23": ("yellow_star", 1), "47": ("yellow_star", 1), "33": ("white_stars", 2)}


def _shot(name: str):
    """A screenshot's path among the run's others (never a shared /tmp file)."""
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def check(page):
    found = problems(page)
    assert not found, f"{page.url}: " + "; ".join(found[:12])


def state_of(game) -> dict:
    """The state folded from the journal, read once the live server's thread has let go of the
    in-memory SQLite tables (it may still be finishing the page's after-commit work)."""
    from django.db import OperationalError

    for _ in range(50):
        try:
            return full_state(game.campaign)
        except OperationalError:
            time.sleep(0.1)
    return full_state(game.campaign)


def action(page, label):
    """The form of one to-do, opened."""
    form = page.locator("form.action", has=page.get_by_role("heading", name=label))
    details = form.locator("details")
    if details.count() and details.get_attribute("open") is None:
        form.locator("summary").click()
    return form


def submit(page, form, done):
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text(done)
    check(page)


def confirmed(page, game):
    """The other side confirms the record just entered (VL-5: play goes on only then); the page
    is read again. As in state_of, the live server's thread may still hold the in-memory tables."""
    from django.db import OperationalError

    for _ in range(50):
        try:
            game.confirm()
            break
        except OperationalError:
            time.sleep(0.1)
    page.reload()


def row(form, name):
    return form.locator("li.row-item", has=form.page.locator(".row-head", has_text=name))


def pick_unit(form, index, unit, change):
    form.locator(f"select[name='units-{index}-unit']").select_option(label=unit)
    form.locator(f"select[name='units-{index}-change']").select_option(label=change)


def test_patton_s_vanguard_set_up_and_two_turns_on_a_phone(phone, screenshot, club, people):
    game = Game(club, people, "pattons_vanguard", "s2", name="Arracourt")
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{game.campaign.pk}/")
    check(phone)
    setup = action(phone, "Check and confirm the set-up")
    submit(phone, setup, "Done: Check and confirm the set-up.")  # the book's set-up, as pre-filled
    turn = action(phone, "Record Turn 1 (25 Sep)")
    check(phone)
    turn.screenshot(path=str(_shot("pv-turn-form")))
    row(turn, "Area 13").get_by_label("Held by").select_option(label="German")
    pick_unit(turn, 0, "602/D — American, 6-7-6, full strength", "Reduced")
    submit(phone, turn, "Turn 1 (25 Sep) recorded. It counts once")
    confirmed(phone, game)
    state = state_of(game)
    assert state["game"]["public"]["locations"]["13"]["controller"] == "german"
    assert state["game"]["public"]["units"]["602/D"]["status"] == "reduced"
    # Turn 2: only Area 9 changes hands (pre-filled rows keep everything else): two taps and send.
    turn = action(phone, "Record Turn 2 (26 Sep)")
    expect(row(turn, "Area 13").get_by_label("Held by")).to_have_value("german")
    row(turn, "Area 9").get_by_label("Held by").select_option(label="German")
    submit(phone, turn, "Turn 2 (26 Sep) recorded. It counts once")
    confirmed(phone, game)
    ledger = state_of(game)["game"]["public"]["ledger"]
    # 38 (start, 19.2) + 13 + 9 = 1 + 1 + 2 = 4 VP on the map; 602/D reduced ½ → 0: German 4.
    assert [e["scores"]["german"] for e in ledger] == [2, 4]
    expect(phone.locator("#vl-turns-h")).to_be_visible()
    expect(phone.locator("section", has=phone.locator("#vl-turns-h"))).to_contain_text(
        "German controls 4 VP on the map (VP areas), at least 3: no American automatic victory"
    )
    phone.locator("section", has=phone.locator("#vl-now-h")).screenshot(path=str(_shot("pv-panel")))
    phone.locator("section", has=phone.locator("#vl-turns-h")).screenshot(
        path=str(_shot("pv-turns"))
    )
    assert phone.errors == []


def test_ardennes_44_two_turns_with_an_exit_on_a_phone(phone, club, people):
    game = Game(club, people, "ardennes44", "s2", name="Six turns")
    east = [
        {
            "id": "Clervaux",
            "name": "Clervaux",
            "group": "",
            "victory": True,
            "map": "east",
            "start": "allied",
        }
    ]
    game.setup(
        locations=[*game.pub["setup"]["locations"], *east],
        units=[{"id": "Lehr", "name": "Panzer Lehr", "side": "german", "attack": 7}],
    )
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{game.campaign.pk}/")
    turn = action(phone, "Record 16 AM")
    check(phone)
    row(turn, "Clervaux").get_by_label("Held by").select_option(label="German")
    submit(phone, turn, "16 AM recorded. It counts once")
    confirmed(phone, game)
    turn = action(phone, "Record 16 PM")
    row(turn, "West edge of the East Map").get_by_label("Held by").select_option(label="German")
    pick_unit(turn, 0, "Panzer Lehr — German, attack 7, full strength", "Exited off the map")
    turn.locator("select[name='units-0-via']").select_option(label="West edge of the East Map")
    submit(phone, turn, "16 PM recorded. It counts once")
    confirmed(phone, game)
    pub = state_of(game)["game"]["public"]
    # Clervaux 1 + 7 attack factors ÷ 4 = 1 (the exit hex traces supply) = 2 VP (S2.4).
    assert [e["scores"]["german"] for e in pub["ledger"]] == [1, 2]
    assert pub["units"]["Lehr"] == {"status": "exited", "since": "16 PM", "via": "East-west-edge"}
    phone.goto(f"/campaigns/{game.campaign.pk}/records/")  # every turn recorded, at 390 px too
    check(phone)
    expect(phone.locator("#vl-turns-h + ol.timeline > li")).to_have_count(2)
    assert phone.errors == []


def test_fab_two_turns_and_a_refused_turn_on_a_phone(phone, club, people):
    game = Game(club, people, "fab_bulge", "campaign", name="Fast Bulge")
    book = game.pub["setup"]
    locations = [
        dict(
            loc,
            symbol=FAB_SYMBOLS.get(loc["id"], ("none", 0))[0],
            value=FAB_SYMBOLS.get(loc["id"], ("none", 0))[1],
        )
        for loc in book["locations"]
    ]
    units = [dict(u, steps=4 if u["id"] == "US 7 AD" else 0) for u in book["units"]]
    game.setup(locations=locations, units=units, last_turn=6, thresholds=[{"turn": 4, "german": 3}])
    log_in(phone, "alice")
    phone.goto(f"/campaigns/{game.campaign.pk}/")
    turn = action(phone, "Record Turn 1")
    check(phone)
    assert (
        turn.locator("li.row-item", has=phone.locator(".row-head", has_text="[")).count() == 3
    )  # VP areas only
    row(turn, "St. Vith [23]").get_by_label("Held by").select_option(label="German")
    pick_unit(turn, 0, "US 7th Armored Division — Allied, 4 steps, full strength", "Eliminated")
    submit(phone, turn, "Turn 1 recorded. It counts once")
    confirmed(phone, game)
    # Turn 2: the same unit again is refused in place, and nothing is written.
    turn = action(phone, "Record Turn 2")
    pick_unit(turn, 0, "US 7th Armored Division — Allied, 4 steps, eliminated", "Eliminated")
    turn.locator("button[type=submit]").click()
    refused = phone.locator("form.action.attention")
    expect(refused).to_contain_text(
        "US 7th Armored Division was eliminated in Turn 1 and has not been rebuilt"
    )
    check(phone)
    refused.locator("select[name='units-0-unit']").select_option(value="")
    refused.locator("select[name='units-0-change']").select_option(value="")
    row(refused, "Bastogne [47]").get_by_label("Held by").select_option(label="German")
    submit(phone, refused, "Turn 2 recorded. It counts once")
    confirmed(phone, game)
    ledger = state_of(game)["game"]["public"]["ledger"]
    # Turn 1: German St. Vith 1 + US 7 AD 1 = 2, Allied Bastogne 1 → level 1 German.
    # Turn 2: German 1 + 1 (Bastogne) + 1 = 3, Allied 0 → level 3 German.
    assert [e["level"] for e in ledger] == [
        {"side": "german", "value": 1},
        {"side": "german", "value": 3},
    ]
    expect(phone.locator("figure.trend-chart")).to_be_visible()
    assert phone.errors == []


def test_charts_keep_their_labels_inside_on_a_phone(phone, screenshot, club, people):
    """FAB's signed VP-level chart with two-digit values (its labels were clipped to "erman"), and an
    Ardennes '44 objective scenario charting what 30.2 and 30.3 count at each Victory Check."""
    fab = Game(club, people, "fab_bulge", "campaign", name="Fast Bulge")
    book = fab.pub["setup"]
    locations = [
        dict(
            loc,
            symbol=FAB_SYMBOLS.get(loc["id"], ("none", 0))[0],
            value=FAB_SYMBOLS.get(loc["id"], ("none", 0))[1],
        )
        for loc in book["locations"]
    ]
    fab.setup(
        locations=locations,
        units=book["units"],
        last_turn=12,
        thresholds=[{"turn": n, "german": 15, "allied": 12} for n in range(4, 13)],
    )
    fab.turn("Turn 1", {"33": "Gs"})
    fab.turn("Turn 2", {"23": "Gs"})
    a44 = Game(club, people, "ardennes44", "s1", name="The Bulge")
    a44.setup()
    for label, held in (
        ("16 AM", {"Givet": "Gs", "18VG": "As"}),
        ("16 PM", {"Huy": "Gs", "Liege-1": "Gs"}),
        ("Night 16/17", {}),
        ("17 AM", {"Namur": "Gs", "26VG": "As"}),
    ):
        a44.turn(label, held)
    log_in(phone, "alice")
    for game, name in ((fab, "fab-chart"), (a44, "a44-charts")):
        phone.goto(f"/campaigns/{game.campaign.pk}/")
        check(phone)  # every chart label inside its picture, among the rest
        charts = phone.locator("figure.trend-chart")
        expect(charts.first).to_be_visible()
        phone.locator("section", has=phone.locator("#vl-now-h")).screenshot(path=str(_shot(name)))
    expect(phone.locator("figure.trend-chart svg > title")).to_have_text(
        [
            "Victory hexes the German controls (30.2)",
            "Attack factors exited toward Antwerp (30.2)",
            "German at-start areas the Allies occupy (30.3)",
        ]
    )
    phone.goto(f"/campaigns/{fab.campaign.pk}/sheets/ledger/print/")
    check(phone)
    assert phone.errors == []
