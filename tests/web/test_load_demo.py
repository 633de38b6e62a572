"""python manage.py load_demo: the demo club and its people, a campaign per
system through each system's demo hook, and safe to run again."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign, Club, Membership
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.systems import get_system


def _skirmish_demo(club, users):
    organizer = users["organizer"]
    campaign = svc.create_campaign(club=club, user=organizer, system="skirmish", variant="short", name="Demo war")
    svc.assign_player(campaign, organizer, side="red", username=users["alice"].username)
    svc.assign_player(campaign, organizer, side="blue", username=users["bob"].username)
    svc.assign_referee(campaign, organizer, username=users["referee"].username)
    submit(campaign, organizer, "campaign.started")
    return campaign


@pytest.fixture
def skirmish_demo(monkeypatch):
    monkeypatch.setattr(get_system("skirmish"), "demo", _skirmish_demo, raising=False)


def run() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, stderr=StringIO())
    return out.getvalue()


def test_load_demo_creates_the_club_people_and_campaigns_once(db, skirmish_demo):
    output = run()
    club = Club.objects.get(name="Demo Club")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"demo-organizer": "organizer", "demo-alice": "player", "demo-bob": "player",
                     "demo-referee": "player"}
    for username in roles:
        assert get_user_model().objects.get(username=username).check_password("muster-demo")
    demo = Campaign.objects.get(club=club, system="skirmish")
    assert demo.status == "active" and demo.referee.username == "demo-referee"
    assert "http://127.0.0.1:8000/" in output and "demo-organizer" in output and "muster-demo" in output
    events, campaigns = demo.events.count(), Campaign.objects.filter(club=club).count()
    run()
    assert Club.objects.filter(name="Demo Club").count() == 1
    assert Campaign.objects.filter(club=club).count() == campaigns and demo.events.count() == events
    assert Membership.objects.filter(club=club).count() == 4


def test_load_demo_restores_a_changed_demo_password(db, skirmish_demo):
    run()
    user = get_user_model().objects.get(username="demo-bob")
    user.set_password("something-else")
    user.save()
    run()
    user.refresh_from_db()
    assert user.check_password("muster-demo")


def test_systems_without_a_demo_are_skipped(db):
    run()
    assert not Campaign.objects.filter(system="skirmish").exists()


def test_the_demo_organizer_can_log_in_and_invite(db, skirmish_demo, client):
    run()
    assert client.login(username="demo-organizer", password="muster-demo")
    response = client.post("/clubs/demo-club/invitations/", {"role": "player"})
    assert response.status_code == 302
    assert Club.objects.get(slug="demo-club").invitations.count() == 1
    assert client.get(f"/campaigns/{Campaign.objects.get(system='skirmish').pk}/").status_code == 200


def test_a_broken_demo_is_reported_and_leaves_nothing(db, monkeypatch):
    def broken(club, users):
        svc.create_campaign(club=club, user=users["organizer"], system="skirmish", variant="short", name="Half")
        raise RuntimeError("table missing")

    monkeypatch.setattr(get_system("skirmish"), "demo", broken, raising=False)
    err = StringIO()
    call_command("load_demo", stdout=StringIO(), stderr=err)
    assert "Skirmish (test system): its demo campaign could not be created (RuntimeError: table missing)" in err.getvalue()
    assert not Campaign.objects.filter(name="Half").exists()
    assert Club.objects.filter(slug="demo-club").exists()
