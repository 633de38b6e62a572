"""The admin is for site operators: clubs, people and invitations are managed
there; play data is read-only and a side's secrets never show in it."""

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Event
from campaigns.services.journal import submit
from campaigns.services.snapshots import stored_state
from rosters.models import RosterEntry

from .conftest import text_of


@pytest.fixture
def operator(db):
    return get_user_model().objects.create_superuser(
        "operator", "op@example.org", "operator-pass-1"
    )


@pytest.fixture
def admin_client(client, operator):
    client.force_login(operator)
    return client


@pytest.fixture
def secrets(skirmish, people):
    supply = submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})
    return [e for e in supply.events if e.kind == "dice.rolled"][0]


def test_operators_manage_clubs_people_and_invitations(admin_client, club):
    for model in ("club", "membership", "invitation"):
        assert admin_client.get(f"/admin/campaigns/{model}/add/").status_code == 200, model
    assert admin_client.get(f"/admin/campaigns/club/{club.pk}/change/").status_code == 200
    assert admin_client.get("/admin/auth/user/").status_code == 200


@pytest.mark.parametrize(
    "model", ["campaign", "side", "sideplayer", "scenario", "event", "snapshot"]
)
def test_play_data_is_read_only(admin_client, skirmish, model):
    assert admin_client.get(f"/admin/campaigns/{model}/").status_code == 200
    assert admin_client.get(f"/admin/campaigns/{model}/add/").status_code == 403
    from django.apps import apps

    obj = apps.get_model("campaigns", model).objects.first()
    change = admin_client.get(f"/admin/campaigns/{model}/{obj.pk}/change/")
    assert change.status_code == 200 and 'type="submit" value="Save"' not in text_of(change)
    assert admin_client.post(f"/admin/campaigns/{model}/{obj.pk}/delete/").status_code == 403


def test_an_event_cannot_be_changed_through_the_admin(admin_client, skirmish):
    event = skirmish.events.get(kind="campaign.started")
    admin_client.post(f"/admin/campaigns/event/{event.pk}/change/", {"kind": "campaign.finished"})
    event.refresh_from_db()
    assert event.kind == "campaign.started"


def test_the_journal_list_hides_side_data(admin_client, skirmish, secrets):
    page = text_of(admin_client.get("/admin/campaigns/event/"))
    assert (
        "skirmish.supply" in page and "dice.rolled" in page
    )  # kinds, audiences and times are listed
    assert "private: not shown here" in page
    assert "0/supply/red" not in page and '"count"' not in page
    assert "referee.assigned" in page and "rita" in page  # public data is shown
    detail = text_of(admin_client.get(f"/admin/campaigns/event/{secrets.pk}/change/"))
    assert "0/supply/red" not in detail and "private: not shown here" in detail


def test_the_journal_cannot_be_searched_by_its_data(admin_client, skirmish, secrets):
    page = text_of(admin_client.get("/admin/campaigns/event/?q=supply%2Fred"))
    assert "0 events" in page or "0 results" in page


def test_the_snapshot_shows_only_the_clubs_view(admin_client, skirmish, secrets):
    snapshot = skirmish.snapshot
    red = stored_state(skirmish)["game"]["sides"]["red"]
    assert red["bought"] == 1
    page = text_of(admin_client.get(f"/admin/campaigns/snapshot/{snapshot.pk}/change/"))
    assert "&#x27;bought&#x27;" not in page and "bought" not in page
    assert "wins" in page  # the public game state is there


def test_private_roster_entries_show_nothing(admin_client, skirmish):
    secret = RosterEntry.objects.create(
        campaign=skirmish,
        key="red:sniper",
        side="red",
        audience="side",
        kind="unit",
        name="Hidden sniper",
        status="dug in",
        data={"cpp": 7},
    )
    RosterEntry.objects.create(
        campaign=skirmish,
        key="blue:hq",
        side="blue",
        audience="public",
        kind="unit",
        name="Blue HQ",
        status="ok",
    )
    listing = text_of(admin_client.get("/admin/rosters/rosterentry/"))
    assert "Blue HQ" in listing and "Hidden sniper" not in listing and "dug in" not in listing
    detail = admin_client.get(f"/admin/rosters/rosterentry/{secret.pk}/change/")
    assert detail.status_code == 200
    for leak in ("Hidden sniper", "dug in", "red:sniper", "cpp"):
        assert leak not in text_of(detail), leak
    assert admin_client.get("/admin/rosters/rosterentry/add/").status_code == 403


def test_players_have_no_admin(client_for, skirmish):
    response = client_for("olga").get("/admin/campaigns/event/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Event.objects.exists()
