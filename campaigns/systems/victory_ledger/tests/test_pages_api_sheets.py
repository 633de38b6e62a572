"""The ledger through every door: page forms a person fills without typing JSON, the generic API,
the campaign page's panel with its chart, the printed ledger (HTML and PDF), the demo."""

from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from campaigns.access.visibility import view_state, viewer_for
from campaigns.models import Campaign
from campaigns.services.state import current_state
from campaigns.systems import all_systems, get_system
from campaigns.systems.victory_ledger.system import LedgerSystem
from campaigns.systems.victory_ledger.tests.harness import Game

pytestmark = pytest.mark.django_db
# The games scored by a ledger, read from the registry.
SYSTEMS = sorted(slug for slug, s in all_systems().items() if isinstance(s, LedgerSystem))


def _all_fields(fields):
    for field in fields:
        yield field
        if field.item is not None:
            yield from _all_fields((field.item,))
        yield from _all_fields(field.fields)


@pytest.mark.parametrize("slug", SYSTEMS)
def test_no_event_kind_asks_a_person_for_json(slug):
    system = get_system(slug)
    for kind in system.event_kinds:
        assert all(f.type != "json" for f in _all_fields(kind.fields)), kind.name
    assert all(f.type != "json" for f in _all_fields(system.option_fields))


def test_a_turn_form_lists_every_location_pre_filled_from_the_last_turn(club, people):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    game.turn("Turn 1 (25 Sep)", {"13": "Gs", "9": "Acs"}, [("602/D", "reduced")])
    view = view_state(game.state, viewer_for(people["bob"], game.campaign))
    fields = {
        f.name: f
        for f in game.system.form_fields(view, "american", "pv.turn", {"turn": "Turn 2 (26 Sep)"})
    }
    assert fields["turn"].default == "Turn 2 (26 Sep)" and fields["turn"].widget == "hidden"
    rows = {r["location"]: r for r in fields["locations"].rows}
    assert list(rows) == [
        "7",
        "9",
        "12",
        "13",
        "14",
        "20",
        "21",
        "23",
        "25",
        "38",
    ]  # one row per location
    assert rows["13"] == {
        "location": "13",
        "controller": "german",
        "contested": False,
        "supplied": True,
    }
    assert rows["9"] == {
        "location": "9",
        "controller": "american",
        "contested": True,
        "supplied": True,
    }
    assert rows["38"]["controller"] == "german"  # 19.2: German at the start, never changed
    assert fields["locations"].key == "location"
    assert (
        dict(fields["locations"].labels)["9"] == "Area 9 (Hill 318) (2 VP, 1 VP contested (18.3))"
    )
    unit = {f.name: f for f in fields["units"].item.fields}
    labels = dict(unit["unit"].labels)
    assert labels["602/D"] == "602/D — American, 6-7-6, reduced"
    assert (
        "37/A" not in labels
    )  # withdrawn at the end of turn 1 (19.6): nothing more can happen to it
    assert dict(unit["change"].labels) == {
        "eliminated": "Eliminated",
        "reduced": "Reduced",
        "restored": "Back to full strength",
        "rebuilt": "Rebuilt (reduced)",
    }
    # Who held it when the Refit Phase began, pre-filled with the End Phase holder of turn 2 (the
    # American spent it for one more RP then, 16.2); the End Phase holder follows from it (PV-12).
    assert fields["advantage_refit"].default == "german" and "advantage" not in fields
    assert "supply_through_8" in fields and "advantage_rp" in fields


def test_the_ardennes_form_hides_contested_and_asks_replacements_only_at_night(club, people):
    game = Game(club, people, "ardennes44", "s1")
    game.setup()
    view = view_state(game.state, viewer_for(people["alice"], game.campaign))
    day = {f.name: f for f in game.system.form_fields(view, "german", "a44.turn", {})}
    assert [f.name for f in day["locations"].item.fields] == ["location", "controller", "supplied"]
    assert "replacements_german" not in day
    assert "rebuilt" not in day["units"].item.fields[1].choices  # 25.2: Night turns only
    game.turn("16 AM", {})
    game.turn("16 PM", {})
    view = view_state(game.state, viewer_for(people["alice"], game.campaign))
    night = {f.name: f for f in game.system.form_fields(view, "german", "a44.turn", {})}
    assert night["turn"].default == "Night 16/17"
    assert "replacements_german" in night and "replacements_allied" in night
    via = {f.name: f for f in night["units"].item.fields}["via"]
    assert dict(via.labels) == {
        "": "(not an exit)",
        "F": "F entry hex",
        "G": "G entry hex",
        "East-west-edge": "West edge of the East Map",
    }


def test_the_setup_form_is_pre_filled_from_the_book_with_rows_to_add(club, people):
    game = Game(club, people, "fab_bulge", "campaign")
    view = view_state(game.state, viewer_for(people["alice"], game.campaign))
    fields = {f.name: f for f in game.system.form_fields(view, "german", "fab.setup", {})}
    named = [r["name"] for r in fields["locations"].rows if r["name"]]
    assert "Bastogne [47]" in named and "St. Vith [23]" in named
    assert sum(1 for r in fields["locations"].rows if not r["name"]) == 8  # blank rows to add areas
    assert [r["turn"] for r in fields["thresholds"].rows] == [4, 5, 6, 7, 8, 9]
    assert (
        dict(fields["locations"].item.fields[2].labels)["yellow_star"]
        == "Yellow star: VP to whoever holds it"
    )


def test_turns_go_through_the_generic_api(club, people):
    game = Game(club, people, "fab_bulge", "campaign")
    client = APIClient()
    client.force_login(people["alice"])
    url = f"/api/v1/campaigns/{game.campaign.pk}/events/"
    book = game.pub["setup"]
    setup = {"locations": book["locations"], "units": book["units"], "last_turn": 5}
    assert client.post(url, {"kind": "fab.setup", "data": setup}, format="json").status_code == 201
    bad = {
        "turn": "Turn 1",
        "locations": [
            {"location": "23", "controller": "german"},
            {"location": "23", "controller": "allied"},
        ],
    }
    response = client.post(url, {"kind": "fab.turn", "data": bad}, format="json")
    assert response.status_code == 400
    assert response.json()["locations[1].controller"] == [
        "St. Vith [23] is given as held by the German and by the Allied: a location has one controller."
    ]
    good = {
        "turn": "Turn 1",
        "locations": [{"location": "23", "controller": "german", "supplied": True}],
    }
    assert client.post(url, {"kind": "fab.turn", "data": good}, format="json").status_code == 201
    # VL-5: the German's record waits for the Allied player's confirmation, through the same API.
    state = client.get(f"/api/v1/campaigns/{game.campaign.pk}/state/").json()["state"]
    assert state["game"]["public"]["ledger"] == [] and state["scenarios"][0]["status"] == "pending"
    other = APIClient()
    other.force_login(people["bob"])
    assert (
        other.post(
            url, {"kind": "result.confirmed", "data": {"scenario": 0}}, format="json"
        ).status_code
        == 201
    )
    state = client.get(f"/api/v1/campaigns/{game.campaign.pk}/state/").json()["state"]
    assert state["game"]["public"]["ledger"][0]["turn"] == "Turn 1"
    todos = client.get(f"/api/v1/campaigns/{game.campaign.pk}/actions/").json()
    assert any(t["kind"] == "fab.turn" and t["initial"] == {"turn": "Turn 2"} for t in todos)


def test_the_demo_club_holds_one_campaign_of_each_in_progress(db):
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    for slug in SYSTEMS:
        campaign = Campaign.objects.get(club__slug="demo-club", system=slug)
        state = current_state(campaign)
        assert campaign.status == "active" and state["game"]["public"]["phase"] == "play"
        assert state["game"]["public"]["ledger"], slug  # some turns recorded, more to play


def test_the_campaign_page_shows_the_ledger_and_its_chart(client, db):
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="demo-bob"))
    pv = Campaign.objects.get(club__slug="demo-club", system="pattons_vanguard")
    html = client.get(f"/campaigns/{pv.pk}/").content.decode()
    assert "Victory ledger" in html and "<svg" in html and "German VP by turn" in html
    assert (
        "German controls 3 VP on the map (VP areas), at least 3: no American automatic victory"
        in html
    )
    a44 = Campaign.objects.get(club__slug="demo-club", system="ardennes44")
    html = client.get(f"/campaigns/{a44.pk}/").content.decode()
    # The Campaign Game has no score: its chart is what 30.2 and 30.3 count at each Victory Check.
    assert "Next: <strong>17 AM</strong>" in html and html.count("<svg") == 3
    for title in (
        "Victory hexes the German controls (30.2)",
        "Attack factors exited toward Antwerp (30.2)",
        "German at-start areas the Allies occupy (30.3)",
    ):
        assert f"<title>{title}</title>" in html


def test_the_printed_ledger_renders_with_its_chart(
    db, settings, tmp_path, django_capture_on_commit_callbacks, caplog
):
    import logging

    from django.contrib.auth import get_user_model

    from rosters.services import request_sheet
    from tests.rosters.helpers import job_pdf, pdf_pages

    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    alice = get_user_model().objects.get(username="demo-alice")
    fab = Campaign.objects.get(club__slug="demo-club", system="fab_bulge")
    with (
        caplog.at_level(logging.WARNING, logger="weasyprint"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        job, _ = request_sheet(alice, fab, "ledger", "A4")
    job.refresh_from_db()
    assert job.status == "done", job.error
    # pygal's SVG prints as WeasyPrint draws it: no warning (no repeated id, nothing unknown)
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []
    ledger = job.context["system"]["ledger"]
    assert [t["turn"] for t in ledger["turns"]] == ["Turn 1", "Turn 2", "Turn 3"]
    assert ledger["chart"]["title"] == "VP level by turn"
    text = " ".join(" ".join(pdf_pages(job_pdf(job))).split())
    # the chart's own words, drawn inside the picture (its legend and the sides named), and its
    # numbers printed under it
    assert "Above 0: German ahead" in text and "VP level by turn in numbers" in text
    assert "Victory ledger" in text and "Turn by turn" in text and "VP level by turn" in text
    assert "US 106th Infantry Division: eliminated" in text


def test_a_club_enters_a_game_s_set_up_once(club, people):
    from campaigns.services.suggested import suggested_data

    first = Game(club, people, "ardennes44", "s2", name="First evening")
    extra = [
        {
            "id": "Wiltz",
            "name": "Wiltz",
            "group": "",
            "victory": True,
            "map": "east",
            "start": "allied",
        }
    ]
    first.setup(
        locations=[*first.pub["setup"]["locations"], *extra],
        units=[{"id": "Lehr", "name": "Panzer Lehr", "side": "german", "attack": 7}],
    )
    second = Game(club, people, "ardennes44", "s3", name="Second series")
    suggested = suggested_data(second.campaign, "a44.setup")
    assert suggested["copied_from"] == "First evening"
    from django.test import Client

    browser = Client()
    browser.force_login(people["bob"])
    page = browser.get(f"/campaigns/{second.campaign.pk}/").content.decode()
    assert (
        "Wiltz" in page and "Panzer Lehr" in page
    )  # the page's set-up form starts from the club's last
    view = view_state(second.state, viewer_for(people["alice"], second.campaign))
    fields = {f.name: f for f in second.system.form_fields(view, "german", "a44.setup", suggested)}
    assert "Wiltz" in [r["name"] for r in fields["locations"].rows]
    assert [r["name"] for r in fields["units"].rows if r["name"]] == ["Panzer Lehr"]
    assert (
        fields["copied_from"].default == "First evening"
        and fields["copied_from"].widget == "hidden"
    )
    second.by("german", "a44.setup", {k: v for k, v in suggested.items()})
    assert (
        second.pub["setup"]["params"]["copied_from"] == "First evening"
    )  # in this campaign's journal
    assert (
        suggested_data(Game(club, people, "fab_bulge", "campaign").campaign, "fab.setup") == {}
    )  # no FAB set-up yet
