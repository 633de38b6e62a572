"""Achtung! Panzer! at the table, on phones: two players in two browser contexts at 390×844
play CG I's Initial Scenario refit, the half-day's end (losses on the end-of-scenario screen,
the result, its confirmation) and the whole Refit Phase after it with server dice, through the
pages only. Every page they see passes the table checks (tests/browser/pagechecks.py); each
side's Refit Phase takes at most 12 submissions. A second run does one Refit Phase with dice
entered from the table, including a roll that asks for another (an "Attached" RG's weapon).
Screenshots: var/artifacts/screenshots/ap-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import pagechecks

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = {"allied": "alice", "german": "bob"}


def war(club, people, dice_mode):
    from campaigns.systems.achtung_panzer.tests.campaign_harness import War

    return War(club, people, variant="cg1", dice_mode=dice_mode, name="Somme at the table")


class Player:
    """One side's phone: opens the campaign page, checks it, submits the form at the top."""

    def __init__(self, tab, campaign, side, screenshot):
        self.tab, self.campaign, self.side, self.shot = tab, campaign, side, screenshot
        self.submissions = 0
        self.shots = 0

    def open(self):
        self.tab.goto(f"/campaigns/{self.campaign.pk}/")
        self.check()

    def check(self):
        pagechecks.check(self.tab, allow_snake=())
        assert self.tab.errors == []

    def snap(self, name):
        self.shots += 1
        self.shot(self.tab, f"ap-{self.side}-{self.shots:02d}-{name}", "#now")

    def form(self, kind, step=None):
        """The form of one thing to do, found by the event kind it sends (and the step it finishes)."""
        found = self.tab.locator(f"#now form.action:has(input[name=_kind][value='{kind}'])")
        if step:
            found = found.filter(has=self.tab.locator(f"input[name=step][value='{step}']"))
        return unfold(found.first)

    def own_page_form(self, kind, ticked=0):
        """A long form on a page of its own (the end of the scenario, issue 21 item 7): its link on the
        campaign page, then its first screen, where the first `ticked` units are ticked."""
        self.tab.locator(f"#now .action.elsewhere[data-kind='{kind}'] a.button").click()
        self.tab.wait_for_load_state()
        self.check()
        picks = self.tab.locator("#now input[name=picked]")
        if picks.count():  # its rows are picked first (Action.pick)
            for index in range(picks.count()):
                picks.nth(index).set_checked(index < ticked)
            self.tab.get_by_role("button", name="Next: what happened to them").click()
            self.tab.wait_for_load_state()
            self.check()
        return self.form(kind)

    def first_form(self):
        forms = self.tab.locator("#now > form.action")
        return unfold(forms.first) if forms.count() else None

    def submit(self, form, button=None):
        """Press the form's button; the page reloads (done) or the form comes back (refused). Returns once
        the new page or the refused form is in place, so the next locator finds the new one."""
        invalid = form.evaluate(
            "f => [...f.querySelectorAll(':invalid')].map(e => e.name || e.tagName)"
        )
        assert not invalid, f"the browser would not send the form: {invalid}"
        form.evaluate("f => { f.dataset.sent = '1'; }")  # gone once htmx has swapped the answer in
        loads = []
        self.tab.once("load", lambda *_: loads.append(True))
        with self.tab.expect_response(re.compile(r"/submit/$")) as answer:
            (
                form.get_by_role("button", name=button)
                if button
                else form.locator("button[type=submit]").first
            ).click()
        self.submissions += 1
        if (
            answer.value.status == 204
        ):  # done: htmx follows HX-Redirect; wait until that page has loaded
            for _ in range(600):  # 30 s, as every other wait of the browser tests
                if loads:
                    break
                self.tab.wait_for_timeout(50)
            assert loads, "the page did not load after the submission"
        elif answer.value.status == 400:  # refused: the answer replaces the form; wait until it has
            self.tab.wait_for_function("() => !document.querySelector('form[data-sent]')")
        self.tab.wait_for_load_state()
        return answer.value.status

    def title(self, form) -> str:
        return form.locator("h3").first.inner_text()


def unfold(form):
    """A form folded away (only the first to-do is open) is opened as a player taps its title."""
    details = form.locator("details")
    if details.count() and details.first.get_attribute("open") is None:
        details.first.locator("summary").click()
    return form


def fill_dice(form, given=None):
    """Every empty dice field gets faces for its dice (the form says which: 2d6, 1d6, 1d3)."""
    faces = {"2d6": "3 4", "1d6": "3", "1d3": "2"}
    for field in form.locator("input[name^='dice:']").all():
        name = field.get_attribute("name")
        if name in (given or {}):
            field.fill(given[name])
        elif not field.input_value():
            expr = form.locator(f"input[name='dice-expr:{name[5:]}']").input_value()
            field.fill(faces.get(expr, "3"))


def fill_choices(form):
    """Every required radio group left empty gets its first choice that can be chosen."""
    for group in form.locator("fieldset.choice-group").all():
        radios = group.locator("input[type=radio]:not([disabled])")
        if radios.count() and not group.locator("input[type=radio]:checked").count():
            radios.first.check()


def answer(player: Player, form) -> None:
    """What a player at the table would choose at each step, from what the form offers."""
    title = player.title(form)
    if "End of" in title:
        rows = form.locator("fieldset.rows").first.locator("li.row-item")
        for index in range(min(2, rows.count())):  # two units lost
            row = rows.nth(index)
            row.locator(".row-head input[type=checkbox]").check()
            row.get_by_label("Fate").select_option("eliminated")
        form.locator("input[name=cvp_unlisted]").fill("4")  # the demo club has no CVP list (A26.2)
    elif "your choice after the roll" in title and form.locator("input[name=becomes]").count():
        form.locator("input[name=becomes]").fill("9-2")  # whoever hardens becomes a 9-2
    elif "Environmental" in title or "Weather" in title:
        form.get_by_label("Moist").check()
    elif "Purchase Reinforcement Groups" in title:
        form.locator("input[name=rg]:not([disabled])").first.check()
    elif "Initiative" in title or "Choose" in title:
        form.get_by_label("Attack").check() if player.side == "allied" else form.get_by_label(
            "Idle"
        ).check()
    fill_choices(form)


FINISH_BUYING = "Buy and finish buying: roll for my RGs"


def play_refit(
    players: dict, counts: dict, bought: dict, limit=80, want=1, remove=False, rounds=None
):
    """Both sides work through their Refit Phase until the half-day is being played: `want`
    purchases a side (the last with "Buy and finish buying"), and with `remove` a roll to remove
    the enemy wire at 23R5 (1.615, "Roll and finish"). With dice entered from the table, a form
    sent back asking for dice is filled and sent again: `rounds` counts those extra rounds."""
    removed = set()
    for _ in range(limit):
        moved = False
        for side, player in players.items():
            player.open()
            form = player.first_form()
            if form is None:
                continue
            title = player.title(form)
            if "End of" in title or "Enter the result" in title:
                return  # the half-day is being played
            can_buy = form.locator("input[name=rg]:not([disabled])").count() > 0
            if "Purchase Reinforcement Groups" in title and (bought[side] >= want or not can_buy):
                form = player.form("ap.check", "1.619")  # done buying
            elif "Purchase fortifications" in title:  # keep it short: the unspent FPP are forfeit
                form = player.form("ap.check", "1.621")
            answer(player, form)
            finish = None
            if "Purchase Reinforcement Groups" in title and bought[side] + 1 >= want:
                finish = FINISH_BUYING  # the last purchase and "Done buying" in one submission (issue 21, item 5)
            elif "Weather" in title and remove:  # the EC and "an ordinary half-day" (CG13) in one
                finish = "Record the EC; an ordinary half-day (no Armor or British, CG13)"
            elif "Fortification removal" in title and remove and side not in removed:
                form.locator("select[name='items-0-kind']").select_option("wire")
                form.locator("input[name='items-0-location']").fill("23R5")
                finish = "Roll and finish"
                removed.add(side)
            if finish and not form.get_by_role("button", name=finish).count():
                finish = None  # not offered with dice entered from the table
            status = player.submit(form, finish)
            for again in range(1, 5):
                asked = player.tab.locator("form.action.attention")
                if status != 400 or "Enter the dice rolled at the table" not in asked.inner_text():
                    break
                # Every die certainly due is asked at once; only one that depends on another's
                # result (R-C10, R-C15) comes in a second round (issue 21, item 6).
                assert again <= 2, f"{side} at {title!r}: dice asked {again} times"
                fill_dice(asked)
                player.check()
                status = player.submit(asked)
                rounds[side] += 1
            if status == 400:
                errors = player.tab.locator(
                    "form.action.attention .error, form.action.attention .errors"
                ).all_inner_texts()
                raise AssertionError(f"{side} at {title!r}: refused: {errors}")
            counts[side] += 1
            if "Purchase Reinforcement Groups" in title:
                bought[side] = (
                    want if finish or bought[side] >= want or not can_buy else bought[side] + 1
                )
            if counts[side] in (1, 4, 8):
                player.snap(re.sub(r"\W+", "-", title.lower())[:40])
            moved = True
        if not moved:
            return


@pytest.mark.parametrize("dice_mode", ["server", "entered"])
def test_a_cg1_half_day_and_its_refit_phase_on_two_phones(
    phones, screenshot, club, people, monkeypatch, dice_mode
):
    from campaigns.systems.achtung_panzer.tests.campaign_harness import fix_server_dice

    fix_server_dice(monkeypatch)  # the same path on every run: threes (sixes for leader hardening)
    table = war(club, people, dice_mode)
    players = {
        side: Player(phones(name), table.campaign, side, screenshot) for side, name in NAMES.items()
    }
    rounds = {"allied": 0, "german": 0}  # forms sent again with dice entered from the table
    # The Initial Scenario's refit (1.619-1.622): the declaration, purchases with the picker, fortifications.
    play_refit(players, {"allied": 0, "german": 0}, {"allied": 0, "german": 0}, rounds=rounds)
    assert table.public["phase"] == "play"

    # The end of the half-day: each side records its losses, the Allies enter the result, the Germans confirm.
    for side, player in players.items():
        player.open()
        form = player.own_page_form("ap.aftermath", ticked=2)
        answer(player, form)
        player.snap("end-of-scenario")
        assert player.submit(form) in (200, 204, 302)
        assert len(table.side(side)["eliminated"]) == 2
    alice = players["allied"]
    alice.open()
    result = alice.own_page_form("result.submitted")
    hill = result.locator("li.row-item", has_text="Hill 520")
    for index in range(hill.count()):
        hill.nth(index).get_by_label("Allied").last.check()
    alice.snap("result")
    assert alice.submit(result) in (200, 204, 302)
    bob = players["german"]
    bob.open()
    assert "Provisional result" in bob.tab.locator("#status").inner_text()
    confirm = bob.form("result.confirmed")
    assert bob.submit(confirm) in (200, 204, 302)
    assert table.public["phase"] == "refit"

    # The Refit Phase after it, server dice: at most 12 submissions a side (issue 21, item 5; 14 before
    # "Buy and finish buying" and the "Continue" folded into fortification removal).
    counts = {"allied": 0, "german": 0}
    rounds = {"allied": 0, "german": 0}
    play_refit(players, counts, {"allied": 0, "german": 0}, want=2, remove=True, rounds=rounds)
    assert table.public["phase"] == "play" and table.public["half_day"] == "5/29P"
    assert table.public["roster"][0]["winner"] == "allied"  # Hill 520's 7 hexes: +7 ≥ +5 (1.51)
    print(f"Refit Phase submissions per side ({dice_mode} dice):", counts, "dice rounds:", rounds)
    if dice_mode == "server":
        assert counts["allied"] <= 11, (
            counts
        )  # with these dice (14 on a shorter path before issue 21's merges)
    assert (
        table.campaign.events.filter(kind="ap.1.615", side="allied").count() == 2
    )  # rolled, then finished
    allied = table.campaign.events.filter(kind="ap.purchase", side="allied").values_list(
        "seq", flat=True
    )
    assert (
        len([seq for seq in allied if seq > table.campaign.events.get(kind="result.confirmed").seq])
        == 2
    )
    if dice_mode == "server":
        assert 0 < counts["allied"] <= 12 and 0 < counts["german"] <= 12, counts
    else:  # most second buttons and folded "Continue"s need Muster's dice; each step that rolls asks once
        assert (
            counts["allied"] <= 14
            and counts["german"] <= 10
            and rounds["allied"] <= 6
            and rounds["german"] <= 5
        )
    for player in players.values():
        player.open()
        player.snap("next-half-day")
        base = f"/campaigns/{table.campaign.pk}/"
        for url in (
            "history/",
            "sheets/summary/print/",
            "sheets/cg_roster/print/",
            f"sheets/rg_purchases/print/?side={player.side}",
            f"sheets/retained/print/?side={player.side}",
            "/",
        ):
            player.tab.goto(url if url == "/" else base + url)
            player.check()


def test_a_refit_phase_with_entered_dice_keeps_the_dice_of_a_chained_roll(
    phones, screenshot, club, people
):
    """Entered dice: "Done buying" asks in one form for every die of 1.6201-1.6206 that is due
    whatever the others show; a strength DR of 2 makes the Allied 1st Line Coy "Attached", which
    asks for the attached weapon's dr: the dice typed so far stay on the form, and that is the
    only second round."""
    table = war(club, people, "entered")
    alice = Player(phones("alice"), table.campaign, "allied", screenshot)
    table.by("allied", "ap.declare", {"special": "none"})
    alice.open()
    form = alice.first_form()
    assert "Purchase Reinforcement Groups" in alice.title(form)
    form.get_by_label(re.compile(r"^\s*I2 1st Line")).check()
    assert alice.submit(form) in (200, 204, 302)
    bought = next(
        p for p in table.side("allied")["purchases"] if p["rg"] == "I2" and not p.get("given")
    )
    alice.open()
    done = alice.form("ap.check", "1.619")
    assert alice.submit(done) == 400  # the dice of 1.6201 are asked for
    asked = alice.tab.locator("form.action.attention")
    expect(asked).to_contain_text("Enter the dice rolled at the table for")
    expect(asked).to_contain_text("support weapon of")  # 1.6202's dice with 1.6201's, in words
    expect(asked).to_contain_text("infantry leaders of")
    alice.check()
    strength = f"dice:5/29A/1.6201/allied/{bought['id']}"
    fill_dice(asked, {strength: "1 1"})  # 2 − 2 (historical DRM 5/29A) = 0: Attached (≤2)
    typed = {
        f.get_attribute("name"): f.input_value()
        for f in asked.locator("input[name^='dice:']").all()
    }
    alice.snap("entered-dice")
    assert alice.submit(asked) == 400  # "Attached": the attached weapon's dr comes next
    again = alice.tab.locator("form.action.attention")
    attached = again.locator(f"input[name='{strength}/attached']")
    expect(attached).to_have_count(1)
    for name, value in typed.items():  # nothing typed so far was dropped
        expect(again.locator(f"input[name='{name}']")).to_have_value(value)
    alice.check()
    attached.fill("3")
    alice.snap("chained-roll")
    # Every other die of 1.6201-1.6206 was in the first form: "Done buying" came back twice in all,
    # the second time for the die that depends on another (issue 21.6; it came back 6 times before).
    assert alice.submit(again) in (200, 204, 302)
    record = next(p for p in table.side("allied")["purchases"] if p["id"] == bought["id"])
    assert record["strength"] == "attached" and record["attached"]
    assert table.campaign.events.filter(
        kind="dice.rolled", data__key=f"{strength[5:]}/attached"
    ).exists()


def test_the_organizers_pages_on_a_phone(phones, screenshot, club, people):
    """Setup (house rules picked table → row → column, the start confirmation), the club page and
    the dashboard pass the same checks at 390 px."""
    from campaigns.services import campaigns as svc

    fresh = svc.create_campaign(
        club=club,
        user=people["olga"],
        system="achtung_panzer",
        variant="cg1",
        name="Not started yet",
    )
    olga = phones("olga")
    for url in (
        f"/campaigns/{fresh.pk}/setup/",
        f"/campaigns/{fresh.pk}/setup/?rule_table=1.616",
        f"/campaigns/{fresh.pk}/setup/?rule_table=constants",
        "/clubs/tuesday/",
        "/",
    ):
        olga.goto(url)
        pagechecks.check(olga)
    olga.goto(f"/campaigns/{fresh.pk}/setup/?rule_table=1.616")
    olga.get_by_label("Final roll (row)").select_option("3-4")
    olga.get_by_label("Column").select_option("cpp")
    olga.get_by_role("textbox", name="Value").fill("15")
    olga.get_by_role("button", name="Set house rule").click()
    expect(olga.locator(".messages")).to_contain_text("House rule recorded.")
    expect(olga.locator("#hr-h").locator("..")).to_contain_text("(book: 14)")
    pagechecks.check(olga)
    screenshot(olga, "ap-organizer-setup", "main")
