"""Night Patrol played through both doors: a campaign created, its night scouted and its result
entered, the game's own panel on the campaign page; the API answers the same state."""

from rest_framework.test import APIClient

from campaigns.models import Campaign
from campaigns.services.state import current_state

from .conftest import text_of


def _page(campaign, tail=""):
    return f"/campaigns/{campaign.pk}/{tail}"


def test_a_night_played_through_the_pages(club, people, client_for):
    olga, alice = client_for("olga"), client_for("alice")
    created = olga.post(
        "/clubs/tuesday/campaigns/new/night_patrol/", {"name": "Out at night", "variant": "short"}
    )
    campaign = Campaign.objects.get(name="Out at night")
    assert created.status_code == 302 and campaign.system == "night_patrol"
    olga.post(_page(campaign, "setup/players/"), {"side": "patrol", "username": "alice"})
    assert olga.post(_page(campaign, "setup/start/"), {"confirm": "yes"}).status_code == 302

    before = text_of(alice.get(_page(campaign)))
    assert 'value="patrol.scout"' in before and "Ground scouted: 0" in before
    scouted = alice.post(_page(campaign, "submit/"), {"_kind": "patrol.scout"})
    assert scouted.status_code == 302
    ground = current_state(campaign)["game"]["public"]["ground"]
    assert len(ground) == 1 and 1 <= ground[0] <= 6

    page = text_of(alice.get(_page(campaign)))
    assert f"Ground scouted: {ground[0]} ({ground[0]})" in page  # the game's own panel
    assert 'value="patrol.scout"' not in page  # once a night
    assert 'value="result.submitted"' in page  # then the core asks for the night's result


def _api(person) -> APIClient:
    client = APIClient()
    client.force_login(person)
    return client


def post(client, url, data=None):
    return client.post(url, data or {}, format="json")


def test_a_night_played_through_the_api(club, people):
    olga, alice = _api(people["olga"]), _api(people["alice"])
    made = post(
        olga,
        "/api/v1/campaigns/",
        {"club": "tuesday", "system": "night_patrol", "variant": "short", "name": "By API"},
    )
    assert made.status_code == 201
    base = f"/api/v1/campaigns/{made.json()['id']}/"
    assert post(olga, base + "players/", {"side": "patrol", "username": "alice"}).status_code == 201
    assert post(olga, base + "events/", {"kind": "campaign.started"}).status_code == 201

    offered = [a["kind"] for a in alice.get(base + "actions/").json()]
    assert "patrol.scout" in offered
    assert post(alice, base + "events/", {"kind": "patrol.scout"}).status_code == 201
    refused = post(alice, base + "events/", {"kind": "patrol.scout"})
    assert refused.status_code == 400 and "already scouted" in refused.content.decode()
    result = {"kind": "result.submitted", "data": {"scenario": 0, "data": {"contacts": 2}}}
    assert post(alice, base + "events/", result).status_code == 201  # solitaire: confirmed at once

    state = alice.get(base + "state/").json()["state"]
    assert state["current"] == 1 and state["game"]["public"]["contacts"] == 2
    assert [s["status"] for s in state["scenarios"]] == ["played", "current"]
