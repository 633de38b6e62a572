"""An invitation is used up only by a person who joins; control characters are refused in names;
a bad filter is a documented 400."""

import pytest

from campaigns.models import Campaign, Club, ClubLogEntry, Invitation

from .conftest import post


def test_an_existing_member_accepting_leaves_the_invitation_for_someone_else(
    club, people, client_for
):
    invitation = Invitation.objects.create(club=club, created_by=people["olga"])
    answer = post(client_for("alice"), "/api/v1/invitations/accept/", {"code": invitation.code})
    assert answer.status_code == 200 and answer.json()["role"] == "player"
    invitation.refresh_from_db()
    assert invitation.usable and invitation.accepted_by is None
    assert not ClubLogEntry.objects.filter(action="invitation.accepted").exists()
    joined = post(client_for("outsider"), "/api/v1/invitations/accept/", {"code": invitation.code})
    assert joined.status_code == 200
    invitation.refresh_from_db()
    assert invitation.accepted_by == people["outsider"] and not invitation.usable


NAMES = [
    "Tuesday\x00Night",
    "Bell\x07",
    "Esc\x1b[31mred",
    "Line\nbreak",
    "Del\x7f",
    "C1\x85C2",
    "\u202eevil",
]


@pytest.mark.parametrize("name", NAMES)
def test_control_characters_are_refused_in_club_names(people, client_for, name):
    answer = post(client_for("carol"), "/api/v1/clubs/", {"name": name})
    assert answer.status_code == 400 and list(answer.json()) == ["name"], answer.json()
    assert not Club.objects.exclude(slug="tuesday").exists()


@pytest.mark.parametrize("name", NAMES)
def test_control_characters_are_refused_in_campaign_names(club, people, client_for, name):
    answer = post(
        client_for("olga"),
        "/api/v1/campaigns/",
        {"club": "tuesday", "system": "skirmish", "variant": "short", "name": name},
    )
    assert answer.status_code == 400 and list(answer.json()) == ["name"], answer.json()
    assert not Campaign.objects.exists()


def test_the_pages_refuse_them_too(club, people):
    from django.test import Client

    client = Client()
    client.force_login(people["olga"])
    answer = client.post("/clubs/new/", {"name": "Evil\x1b[2J"})
    assert answer.status_code == 400 and not Club.objects.exclude(slug="tuesday").exists()
    answer = client.post(
        "/clubs/tuesday/campaigns/new/skirmish/", {"name": "War\x07", "variant": "short"}
    )
    assert answer.status_code == 400 and not Campaign.objects.exists()


def test_plain_names_are_fine(people, client_for):
    answer = post(client_for("carol"), "/api/v1/clubs/", {"name": "Les Grognards — Lyon 2ᵉ"})
    assert answer.status_code == 201 and answer.json()["name"] == "Les Grognards — Lyon 2ᵉ"


def test_a_bad_filter_is_a_documented_400(skirmish, client_for):
    """GET /campaigns/?status=0 (found by the fuzz run): a 400 naming the filter, and the schema says so."""
    answer = client_for("alice").get("/api/v1/campaigns/", {"status": "0"})
    assert answer.status_code == 400 and list(answer.json()) == ["status"]
    schema = client_for("alice").get("/api/schema/", {"format": "json"}).json()
    assert "400" in schema["paths"]["/api/v1/campaigns/"]["get"]["responses"]
