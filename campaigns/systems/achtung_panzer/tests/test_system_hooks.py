"""The A!P! GameSystem hooks: declarations, actions, procedure, standings, describe, roster,
the panel a page renders per viewer, and the demo campaign."""

from io import StringIO

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.access import visibility
from campaigns.journal.records import Record
from campaigns.models import Campaign
from campaigns.systems import get_system
from campaigns.systems.achtung_panzer import SYSTEM, refit_steps
from campaigns.systems.achtung_panzer.steps.base import kind_name
from campaigns.systems.achtung_panzer.system import DATA
from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War, refused

BOTH = {"allied": QUIET, "german": QUIET}


def test_declarations():
    assert get_system("achtung_panzer") is SYSTEM
    assert [s.slug for s in SYSTEM.sides] == ["allied", "german"]
    calendars = {v.slug: v.calendar for v in SYSTEM.variants}
    assert calendars["cg1"] == ("5/29A", "5/29P", "5/30A", "5/30P", "5/31A", "5/31P")
    assert calendars["cg2"] == ("6/1A", "6/1P", "6/2A", "6/2P", "6/3A", "6/3P", "6/4A")
    assert len(calendars["cg3"]) == 13
    with (DATA / "constants.yaml").open(encoding="utf-8") as handle:
        assert SYSTEM.constants() == yaml.safe_load(handle)
    assert [f.name for f in SYSTEM.option_fields] == ["balance"]


def test_every_step_with_input_has_its_event_kind_and_audience():
    for step in refit_steps.STEPS:
        if step.checklist or step.scope == "system":
            assert SYSTEM.event_kind(kind_name(step)) is None or step.checklist is False
            continue
        kind = SYSTEM.event_kind(kind_name(step))
        assert kind is not None, step.id
        expected = "public" if step.audience == "public" or step.scope == "joint" else "side"
        assert kind.audience == expected, step.id
    assert SYSTEM.event_kind("ap.1.616").audience == "side"
    assert SYSTEM.event_kind("ap.1.618").audience == "public"  # weather is rolled in the open
    assert {SYSTEM.event_kind(k).audience for k in ("ap.retained", "ap.cvp", "ap.check")} == {
        "side"
    }
    assert SYSTEM.event_kind("ap.joint").audience == "public"


def test_describe_is_a_sentence_for_those_who_may_read_the_event():
    """Only the side and the referee ever read a side's event (visibility); to them it says what happened."""
    record = Record(5, "ap.purchase", {"action": "buy", "rg": "A4"}, "bob", "german", "side")
    assert SYSTEM.describe(record) == "RG A4 bought"
    record = Record(
        6, "ap.check", {"step": "1.607", "note": "kept 3 squads"}, "bob", "german", "side"
    )
    assert (
        SYSTEM.describe(record)
        == "Done: Clearing the map; retained equipment; hidden fortifications (1.607)"
    )
    record = Record(7, "ap.joint", {"through": "1.6066"}, "bob", "german", "public")
    assert SYSTEM.describe(record) == "Done at the table, up to Drawing the perimeter (1.6066)"


@pytest.mark.django_db
def test_actions_follow_each_sides_current_step(club, people):
    war = War(club, people)
    allied = {a.kind: a for a in SYSTEM.actions(war.state, "allied")}
    german = {a.kind for a in SYSTEM.actions(war.state, "german")}
    assert "ap.declare" in allied and "ap.purchase" not in allied and "ap.retained" in allied
    assert {"ap.purchase", "ap.check", "ap.retained"} <= german
    finish = next(a for a in SYSTEM.actions(war.state, "german") if a.kind == "ap.check")
    assert finish.initial == {"step": "1.619"}
    assert SYSTEM.actions(war.state, None) == []
    war.walk_both(answers=BOTH)
    # Playing the half-day: the end-of-scenario record waits for each side; retained units can be corrected.
    assert {a.kind for a in SYSTEM.actions(war.state, "allied")} == {"ap.aftermath", "ap.retained"}
    assert SYSTEM.result_open(war.state, 0) is None


@pytest.mark.django_db
def test_standings_and_scenario_summary_are_public_numbers(club, people):
    war = War(club, people)
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520 6N4", "allied_cvp": 12, "german_cvp": 20})
    war.walk_both(until="1.607", answers=BOTH)
    standings = {(s["side"], s["label"]): s["value"] for s in SYSTEM.standings(war.state)}
    assert standings[("allied", "Win:loss")] == "1:0" and standings[("german", "Win:loss")] == "0:1"
    assert (
        standings[("allied", "Objective points")] == 5
        and standings[("german", "CVP sustained")] == 20
    )
    summary = SYSTEM.scenario_summary(war.state, 0)
    assert summary["winner"] == "allied" and summary["op"] == {"allied": 5, "german": 0}


@pytest.mark.django_db
def test_upcoming_rolls_come_from_the_sides_remaining_steps(club, people):
    war = War(club, people)
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520"})
    war.walk_both(until="1.615", answers=BOTH)
    from campaigns.dice.pool import DicePool, RefuseMissingDice
    from campaigns.journal.context import Ctx

    state = war.state
    ctx = Ctx(SYSTEM, state, Record(1, "t", {}, "t"), DicePool(), RefuseMissingDice())
    rolls = SYSTEM.upcoming_rolls(state, "allied", ctx)
    cpp = next(r for r in rolls if r.table == "1.616")
    assert cpp.key == "5/29P/1.616/allied"
    assert ("Won Previous Half-Day", "1.616", 1) in cpp.modifiers
    assert not [r for r in SYSTEM.upcoming_rolls(state, "german", ctx) if r.key.endswith("/allied")]


@pytest.mark.django_db
def test_the_panel_shows_the_viewers_side_only(club, people):
    war = War(club, people)
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    war.by("german", "ap.purchase", {"action": "buy", "rg": "A4"})
    url = reverse("campaign", args=[war.campaign.pk])
    pages = {}
    for name in ("alice", "bob", "rita"):
        client = Client()
        client.force_login(people[name])
        # The campaign page summarizes each side's records; its records page has them in full.
        for page in (url, reverse("campaign-records", args=[war.campaign.pk])):
            response = client.get(page)
            assert response.status_code == 200
            pages[name] = pages.get(name, "") + response.content.decode()
    assert (
        "Allied: your side&#x27;s records" in pages["alice"]
        or "Allied: your side's records" in pages["alice"]
    )
    assert "German: your side" not in pages["alice"] and "Allied: your side" not in pages["bob"]
    # The referee reads both, each named by its side, never "your side".
    assert "German side's records" in pages["rita"] and "Allied side's records" in pages["rita"]
    assert "your side" not in pages["rita"]
    assert 'id="ap-roster-h"' in pages["alice"] and "5/31P" in pages["bob"]  # this system's panel
    # bob's purchase (A4 Pz IIIF) and CPP left (8 − 7 = 1) never reach alice's page.
    assert "Pz IIIF" not in pages["alice"] and "RG A4" not in pages["alice"]
    assert "RG A4 (" in pages["bob"]


@pytest.mark.django_db
def test_the_other_sides_step_error_names_only_the_actors_side(club, people):
    war = War(club, people)
    war.by("allied", "ap.declare", {"special": "none"})
    error = refused(war.by, "german", "ap.purchase", {"action": "buy", "rg": "A5"})  # A5: May max 0
    assert "German" in error.message or "A5" in error.message
    assert "allied" not in error.message.lower() and "french" not in error.message.lower()


@pytest.mark.django_db
def test_the_demo_holds_a_cg1_campaign_in_progress(db):
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    campaign = Campaign.objects.get(system="achtung_panzer")
    viewer = visibility.operator_viewer()
    from campaigns.services.state import current_state

    state = current_state(campaign)
    assert state["status"] == "active" and state["variant"] == "cg1"
    assert state["sides"]["allied"]["players"] == ["demo-organizer", "demo-alice"]
    assert (
        state["sides"]["german"]["players"] == ["demo-bob"] and state["referee"] == "demo-referee"
    )
    line = state["game"]["public"]["roster"][0]
    assert line["played"] and line["winner"] == "allied"
    assert state["game"]["public"]["phase"] == "refit"
    assert viewer is not None


@pytest.mark.django_db
def test_the_odds_task_gets_the_sides_upcoming_rolls_with_cpp_after(club, people):
    from campaigns.services import odds

    war = War(club, people)
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520"})
    war.walk_both(until="1.615", answers=BOTH)
    data = odds.compute(war.campaign, "allied")
    cpp = next(
        r for r in data["rolls"] if r.get("after", {}).get("label") == "CPP after replenishment"
    )
    values = {v["value"] for v in cpp["after"]["values"]}
    cpp_now = war.side("allied")["cpp"]
    assert values <= {cpp_now + n for n in range(8, 16)} and len(values) > 1


@pytest.mark.django_db
def test_a_step_waiting_for_a_choice_after_its_roll_says_so(club, people):
    war = War(club, people)
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520"})
    war.walk_both(until="1.6111", answers=BOTH)
    war.by("allied", "ap.continue", {"checklists": True})  # confirms 1.6111
    # The DR with no MMC named before it (R-A26): the choice follows it.
    war.by("allied", "ap.1.6112", {"action": "roll"})
    labels = [a.label for a in SYSTEM.actions(war.state, "allied")]
    assert "Heroes and MMC battle hardening: your choice after the roll" in labels
    german = [a for a in SYSTEM.actions(war.state, "german") if a.kind == "ap.1.6112"]
    assert [a.label for a in german] == ["Heroes and MMC battle hardening"]
    # The map step 1.6111 is confirmed with the DR (it rolls nothing: folded with entered dice too).
    assert german[0].before == (("ap.continue", {"checklists": True}),)
