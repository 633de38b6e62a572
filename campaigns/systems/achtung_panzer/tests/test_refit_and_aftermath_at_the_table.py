"""The Refit Phase and the end of the scenario played at the table: forms posted for the other
side, losses and CVP counted before and after 1.6067, corrections from the page, AFV weapons and
platoons, lone SMC, fortifications given back, steps and refusals in words, fanatic MMC, bogged
AFVs. The arithmetic and the rule each one rests on are in its comments."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.errors import DomainError
from campaigns.systems.achtung_panzer import (
    SYSTEM,
    aftermath,
    refit_events,
    refit_steps,
    words,
)
from campaigns.systems.achtung_panzer.steps import (
    equipment,
    escape,
    fortification_removal,
    hardening,
)
from campaigns.systems.achtung_panzer.tests.campaign_harness import War
from campaigns.systems.achtung_panzer.tests.forms_as_drawn import as_drawn
from campaigns.systems.achtung_panzer.tests.step_harness import (
    make_ctx,
    make_state,
    roster_line,
    run,
    step_by_id,
    unit,
)
from tests.browser.pagechecks import SNAKE, STEP_ID

CVP_LIST = {
    f"cvp.{kind}": {"value": value, "book": None}
    for kind, value in (
        # A club's CVP list (house rules, R-L2); the values are the club's, the arithmetic below uses them.
        ("squad", 2),
        ("half_squad", 1),
        ("crew", 1),
        ("leader", 1),
        ("armor_leader", 1),
        ("hero", 1),
        ("afv", 5),
        ("vehicle", 2),
        ("gun", 2),
        ("sw", 1),
    )
}


# --- 1. a page form posted for a side the viewer cannot read: a 500, not a refusal ------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind", ["ap.retained", "ap.cvp", "ap.aftermath", "ap.1.6112", "ap.1.6063"]
)
def test_a_form_posted_for_the_other_side_is_refused_not_a_500(club, people, kind):
    """pages.form_fields reads private(view, side) for any side in SIDES; the German's view has no
    Allied part, so KeyError: 'allied' (status 500) for a German (or a club member) who posts
    `_side=allied`. A hostile post must get a refusal (403/404/400) and write nothing."""
    war = War(club, people, dice_mode="server")
    before = war.campaign.events.count()
    for name, side in (("bob", "allied"), ("carol", "german")):
        client = Client(raise_request_exception=False)
        client.force_login(people[name])
        answer = client.post(
            f"/campaigns/{war.campaign.pk}/submit/",
            {"_kind": kind, "_side": side, "action": "add", "kind": "sw", "type": "LMG"},
        )
        assert answer.status_code < 500, (name, kind, answer.status_code)
    assert war.campaign.events.count() == before


# --- 2. RePh losses before 1.6067: the opponent's one tap decides victory without them ------------


@pytest.mark.django_db
def test_losses_at_the_table_before_1_6067_still_count_after_the_other_side_taps_done(club, people):
    """1.604: an encircled unit that fails its 1TC is eliminated; 1.6067: only units eliminated in the
    RePh AFTER 1.6067 do not count for victory. The page offers the Allied player "Done at the table:
    1.601–1.6066" as soon as the result is confirmed; one tap confirms every map step and runs 1.6067
    at once. The German, whose encircled squad failed its 1TC at 1.604, can then only enter its CVP
    after 1.6067: they go to his private cvp_after_victory and never count for the half-day.

    Result logged: German CVP 5; the squad lost at 1.604 (2 CVP entered) -> 5 + 2 = 7 must count."""
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.walk_both(
        answers={"allied": {"1.622": {"conduct": False}}, "german": {"1.622": {"conduct": False}}}
    )
    for side in ("allied", "german"):
        war.by(side, "ap.aftermath", {"cvp": 0})
    war.result(
        {
            "allied_objectives_end": "23BB5",
            "german_objectives_end": "23R4",
            "allied_cvp": 7,
            "german_cvp": 5,
        }
    )
    allied_actions = SYSTEM.actions(war.state, "allied")
    joint = [a for a in allied_actions if a.kind == "ap.joint"]
    assert joint and joint[0].initial == {"through": "1.6066"}  # what the Allied page offers now
    war.by("allied", "ap.joint", joint[0].initial)  # one tap, as offered
    squad = next(u for u in war.side("german")["retained"] if u["kind"] == "squad")
    war.by(
        "german",
        "ap.cvp",
        {"units": [squad["id"]], "cvp": 2, "note": "encircled, failed its 1TC (1.604)"},
    )
    line = war.public["roster"][0]
    assert line["cvp"]["german"] == 5 + 2, line["victory"]


def test_units_eliminated_in_escape_count_their_cvp_for_the_half_day():
    """1.6067: units eliminated in the RePh BEFORE it count for victory; R-L2: with the club's CVP list
    "the CVP of a side's losses are then worked out for it (end of scenario, 1.603, losses in the
    RePh)". An isolated German squad rolls 6+6 = 12 on the Escape Table: no original 2, final ≥12 ->
    Eliminated (1.6063). The escape DR is secret and the squad leaves the retained units, so nobody can
    list it in "Units eliminated at the table" any more; its CVP (club value 2) are never counted:
    the half-day's German CVP must go from 5 to 5 + 2 = 7 (1.6067 has not run yet)."""
    (step,) = escape.STEPS
    line = dict(roster_line("5/29A"), played=True)
    line["cvp"] = {"allied": 7, "german": 5}
    state = make_state(
        half_day="5/29A",
        roster=[line],
        house_rules=CVP_LIST,
        german={"retained": [unit("S", "squad", isolated=True, pocket="A")]},
    )
    run(
        step,
        state,
        "german",
        {"action": "roll", "stacks": [{"units": ["S"]}]},
        dice={"5/29A/1.6063/german/S": [6, 6]},
    )
    assert (
        state["game"]["sides"]["german"]["retained"] == []
    )  # eliminated (final 12 + 1 for an AM half-day)
    assert state["game"]["public"]["roster"][0]["cvp"]["german"] == 5 + 2


# --- 3. corrections of the end of the scenario and of escape cannot be sent from the page ----------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["ap.aftermath", "ap.1.6063"])
def test_the_end_of_scenario_and_escape_can_be_corrected_from_the_page(club, people, kind):
    """aftermath.apply refuses a second record with "propose a correction to change it", but the
    correction page draws the declared fields: `platoons_on_map` (ap.aftermath) and each escape
    stack's `units` (ap.1.6063) are lists of plain text, drawn as a one-line box pre-filled with a
    Python list ("['p4', 'p5']"). Sent back unchanged the box is refused ("Must be a list."), so the
    record can only be corrected by typing JSON; option values (armor_leader, half_squad,
    within_two) are shown as they are."""
    from campaigns.systems.achtung_panzer.tests.table_play import play_cg

    table = play_cg(club, people, "cg1", "server", half_days=1)
    event = table.campaign.events.filter(kind=kind, side="german").first()
    client = Client()
    client.force_login(people["bob"])
    url = f"/campaigns/{table.campaign.pk}/history/{event.uid}/correct/"
    page = client.get(url).content.decode()
    body = page.split("<main", 1)[-1]
    assert not re.search(r'<input type="text" name="[^"]+" value="[\[{]', body), (
        "a box holding a list"
    )
    options = re.findall(r"<option [^>]*>([^<]*)</option>|<span>([^<]*)</span></label>", body)
    shown = " ".join(a or b for a, b in options)
    assert not SNAKE.findall(shown), SNAKE.findall(shown)
    posted = _defaults(body)
    posted["proposal-reason"] = "the wounded leader was forgotten"
    assert client.post(url, posted).status_code == 302


def _defaults(page: str) -> dict:
    """What a browser posts for the correction form left as drawn."""
    return as_drawn(page.split('<form method="post">', 1)[1].split("</form>", 1)[0])


# --- 4. 1.6132: an AFV whose weapon was repaired or disabled before can never be repaired again ------


def test_a_second_malfunction_of_an_afv_weapon_rolls_for_repair():
    """1.6132: "a separate dr ... for each malfunctioned non-captured retained weapon". T1's MA was
    repaired in an earlier Refit Phase (weapons map {"MA": "ok"}); the end of this scenario marks T1
    malfunctioned again. Naming its MA is refused ("T1's MA is not malfunctioned") and so is any other
    weapon (not in the map); the only way on is to untick T1, skipping its mandatory dr and leaving it
    malfunctioned. With dr 1 − 2 (vehicular-mounted) = −1 ≤ 2 it is repaired."""
    repair = step_by_id(equipment.STEPS, "1.6132")
    state = make_state(
        german={
            "retained": [
                unit("T1", "afv", type="PzIIIF", status="malfunctioned", weapons={"MA": "ok"})
            ]
        }
    )
    run(
        repair,
        state,
        "german",
        {"weapons": [{"unit": "T1", "weapon": "MA", "main_armament": True}]},
        dice={"5/29P/1.6132/german/T1/MA": [1]},
    )
    t1 = state["game"]["sides"]["german"]["retained"][0]
    assert t1["status"] == "ok" and t1["weapons"]["MA"] == "ok"


@pytest.mark.django_db
def test_a_club_plays_two_half_days_at_the_table(club, people):
    """The table harness's own campaign with a second half-day, dice entered (every die a 3): at the
    first 1.6132 the third AFV's MA is repaired (dr 3 − 2 = 1 ≤ 2), at the end of the second half-day
    the same AFV is marked malfunctioned again, and 1.6132 refuses "u..'s MA is not malfunctioned."."""
    from campaigns.systems.achtung_panzer.tests.table_play import play_cg

    table = play_cg(club, people, "cg1", "entered", half_days=2)
    assert table.public["phase"] == "play" and table.public["half_day"] == "5/30A"


# --- 5. 1.6142: captured AFVs never roll for withdrawal -----------------------------------------------


def test_a_captured_afv_rolls_for_platoon_withdrawal():
    """1.6142: "a secret dr ... for each friendly (including captured) non-isolated, retained AFV
    Platoon (or portion thereof) that has had at least one AFV of it's platoon on the map". A captured
    AFV was on the map (it was captured there) and is retained; it is added in the end-of-scenario
    record without a platoon, so it never qualifies and is never rolled for (the step is skipped)."""
    withdraw = step_by_id(equipment.STEPS, "1.6142")
    state = make_state(
        german={"retained": [unit("T9", "afv", type="S35", nationality="french", captured=True)]}
    )
    assert withdraw.applies(state, "german")


# --- 6. 1.6141 (R-A18): AFVs eliminated under recall add no CVP ---------------------------------------


def test_afv_eliminated_under_recall_count_their_cvp_for_1_616():
    """R-A18: "confirming 1.6141 eliminates every mobile, non-isolated AFV under recall ... Their CVP
    count when the club's CVP list covers them." After 1.6067 they count for 1.616 only, privately
    (R-A9: sides.<side>.cvp_after_victory). Club value of an AFV: 5 -> cvp_after_victory["5/29A"] = 5."""
    line = dict(roster_line("5/29A", "allied"), played=True)
    state = make_state(
        half_day="5/29P",
        roster=[line],
        house_rules=CVP_LIST,
        refit_key="5/29P",
        german={"retained": [unit("T1", "afv", status="recalled")]},
    )
    refit_steps.BY_ID["1.6141"].confirm(make_ctx(state), state, "german")
    german = state["game"]["sides"]["german"]
    assert [u["id"] for u in german["eliminated"]] == ["T1"]
    assert german.get("cvp_after_victory", {}).get("5/29A") == 5


# --- 7. R-B25: equipment in the pocket makes a leader "not lone" ---------------------------------------


def test_an_smc_with_only_a_support_weapon_in_its_pocket_is_lone():
    """1.606: "Isolated MMC and the SMC stacked with them may ... remain"; "Isolated, lone SMC must
    attempt escape"; R-B25: lone "unless an isolated MMC of its side is in the same pocket". An LMG
    (SW) is no MMC (nor can it make a pocket, 1.6056), yet _lone_smc counts every non-SMC kind, so the
    leader may stay with it and the step finishes."""
    state = make_state(
        german={
            "retained": [
                unit("L", "leader", type="8-0", isolated=True, pocket="A"),
                unit("W", "sw", type="LMG", isolated=True, pocket="A"),
            ]
        }
    )
    with pytest.raises(DomainError) as caught:
        escape.finish(make_ctx(state), state, "german")
    assert "8-0 leader (isolated in pocket A)" in caught.value.message


# --- 8. 1.621: a fortification bought by mistake cannot be given back on the page ---------------------


@pytest.mark.django_db
def test_a_fortification_can_be_given_back_from_the_page(club, people):
    """R-C21: "a purchase can be removed until the side finishes the step"; fortifications._applies
    keeps 1.621 current "for one that spent them all ... may still give one back" and
    fortifications.form_remove exists, but pages.refit_todos.refit_actions offers no such to-do at 1.621 (only
    "Done with fortifications"), so no form ever posts action=remove."""
    war = War(club, people, dice_mode="server")
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("german", "ap.check", {"step": "1.619"})
    assert war.current("german").id == "1.621"
    war.by("german", "ap.fortify", {"action": "buy", "item": "Wire"})
    offered = SYSTEM.actions(war.state, "german")
    assert any(a.kind == "ap.fortify" and a.initial.get("action") == "remove" for a in offered), [
        (a.kind, a.label) for a in offered
    ]


# --- 9. words, not keys -----------------------------------------------------------------------------------


def test_fortification_removal_speaks_in_words():
    """A second A-T ditch roll in 7D7 is refused with "... (1.615): at_ditch in 7D7."; the form's help
    then lists "Already rolled for: at_ditch in 7D7." Both are shown on the page."""
    step = fortification_removal.STEPS[0]
    state = make_state(german={"retained": []})
    item = {"kind": "at_ditch", "location": "7D7", "position": "front_line"}
    run(step, state, "german", {"items": [item]}, dice={"5/29P/1.615/german/7D7/at_ditch": [5]})
    with pytest.raises(DomainError) as caught:
        run(step, state, "german", {"items": [item]}, dice={})
    assert not SNAKE.findall(caught.value.message), caught.value.message
    items = next(
        f for f in fortification_removal.form(make_ctx(state), state, "german") if f.name == "items"
    )
    assert not SNAKE.findall(items.help), items.help


def test_the_dual_attack_set_up_roll_is_named_in_words():
    """Entered dice: the Dual Attack set-up dr (1.6231, key <hd>/1.6231/public/sets_up_first) is asked
    for as "5/30A Dual Attack: sets up first of sets_up_first (1.6231)"."""
    label = SYSTEM.roll_label({}, "5/30A/1.6231/public/sets_up_first")
    assert not SNAKE.findall(label), label


def test_a_refused_check_names_the_step_in_words():
    """refit_events.apply_check refuses "1.619.declare Allied declaration: … is not confirmed this way."
    (a dotted step id on the page, for a form posted with another step)."""
    state = make_state(allied={"retained": []})
    record = type("R", (), {"side": "allied", "data": {"step": "1.619.declare"}})()
    with pytest.raises(DomainError) as caught:
        refit_events.apply_check(state, record, make_ctx(state))
    assert not STEP_ID.findall(caught.value.message), caught.value.message


# --- 10. 1.6112: the elite MMC made fanatic is never shown so, nor back to normal after the scenario ----


def test_a_fanatic_mmc_is_shown_and_only_for_the_next_scenario():
    """1.6112: "an elite MMC that battle hardens becomes fanatic (but only for the duration of the next
    scenario; 1.602e)". The flag is set but no unit label says so (the player must set it up fanatic),
    and no step clears it once that scenario has ended."""
    step = hardening.STEPS[0]
    state = make_state(
        german={
            "retained": [unit("S", "squad", type="838", elite=True)],
            "pending": {"1.6112": {"mmc": 1, "heroes": 0, "half_day": "5/29P"}},
        }
    )
    run(step, state, "german", {"action": "harden", "hardened": [{"unit": "S"}]})
    squad = state["game"]["sides"]["german"]["retained"][0]
    assert "fanatic" in words.unit_words(squad)
    # The next scenario is played; its end of scenario is recorded (the squad left unticked: ok).
    state["game"]["public"].update(phase="play", half_day="5/30A")
    aftermath.apply(
        state,
        "german",
        {"units": [], "added": [], "platoons_on_map": [], "oba_fired": [], "cvp": 0, "note": ""},
        make_ctx(state),
    )
    assert not squad.get("fanatic")


# --- 11. 1.6131: a bogged (or shocked) AFV skips the step that resolves it --------------------------------


def test_a_bogged_afv_is_resolved_at_1_6131():
    """1.6131 c: "Each manned, bogged AFV must undergo Bog Removal attempts (D8.3) until it is either
    unbogged or immobilized" (then d: the immobilization dr). A side whose only AFV is bogged skips
    1.6131 (applies is false), so an AFV that bogs down to immobilized never rolls d, and "bogged"
    stays on the unit into the next scenario."""
    immob = step_by_id(equipment.STEPS, "1.6131")
    state = make_state(german={"retained": [unit("T1", "afv", type="PzIIIF", status="bogged")]})
    assert immob.applies(state, "german")


@pytest.mark.django_db
def test_a_proposed_correction_says_what_it_changes_in_words(club, people):
    """proposals_shown._changes prints the values of a correction as they are stored: correcting an added
    unit's kind shows "Kind: squad → half_squad" (and "True"/"False" for ticks) in the proposals of
    the campaign page."""
    war = War(club, people, dice_mode="server")
    war.by(
        "allied", "ap.retained", {"action": "add", "kind": "squad", "type": "457", "captured": True}
    )
    event = war.campaign.events.filter(kind="ap.retained").last()
    war.act(
        "alice",
        "proposal.made",
        {
            "action": "correct",
            "target": str(event.uid),
            "reason": "a half-squad",
            "data": dict(event.data, kind="half_squad", type="237", captured=False),
        },
    )
    client = Client()
    client.force_login(people["alice"])
    page = client.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    proposals = re.sub(
        r"<[^>]+>", " ", page.split('id="proposals"', 1)[1].split("</section>", 1)[0]
    )
    assert "237" in proposals  # the change is shown …
    assert not SNAKE.findall(proposals), SNAKE.findall(proposals)  # … in words
