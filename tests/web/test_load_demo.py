"""python manage.py load_demo: the demo club and its people (made through the club
services, so the club log tells how they joined), a campaign per system through each
system's demo hook, safe to run again, and refused on a site configured for the public."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from campaigns.models import Campaign, Club, ClubLogEntry, Invitation, Membership
from campaigns.services import clubs
from campaigns.systems import get_system


def _skirmish_demo(table):
    campaign = table.create(variant="short", name="Demo war")
    table.seat("red", "alice")
    table.seat("blue", "bob")
    table.referee("referee")
    table.submit("organizer", "campaign.started")
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
    assert roles == {
        "demo-organizer": "organizer",
        "demo-alice": "player",
        "demo-bob": "player",
        "demo-referee": "player",
    }
    for username in roles:
        assert get_user_model().objects.get(username=username).check_password("muster-demo")
    demo = Campaign.objects.get(club=club, system="skirmish")
    assert demo.status == "active" and demo.referee.username == "demo-referee"
    assert (
        "http://127.0.0.1:8000/" in output
        and "demo-organizer" in output
        and "muster-demo" in output
    )
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
    signed_in = client.post(
        "/accounts/login/", {"username": "demo-organizer", "password": "muster-demo"}
    )
    assert signed_in.status_code == 302
    invitations = Club.objects.get(slug="demo-club").invitations
    before = invitations.count()
    response = client.post("/clubs/demo-club/invitations/", {"role": "player"})
    assert response.status_code == 302
    assert invitations.count() == before + 1
    assert (
        client.get(f"/campaigns/{Campaign.objects.get(system='skirmish').pk}/").status_code == 200
    )


def test_a_broken_demo_is_reported_and_leaves_nothing(db, monkeypatch):
    def broken(table):
        table.create(variant="short", name="Half")
        raise RuntimeError("table missing")

    monkeypatch.setattr(get_system("skirmish"), "demo", broken, raising=False)
    err = StringIO()
    call_command("load_demo", stdout=StringIO(), stderr=err)
    assert (
        "Skirmish (test system): its demo campaign could not be created (RuntimeError: table missing)"
        in err.getvalue()
    )
    assert not Campaign.objects.filter(name="Half").exists()
    assert Club.objects.filter(slug="demo-club").exists()


def _log(club):
    return [
        (e.actor.username, e.action, {k: v for k, v in e.detail.items() if k != "invitation"})
        for e in club.log.order_by("at", "pk")
    ]


def test_the_demo_club_is_founded_and_joined_through_the_club_services(db):
    run()
    club = Club.objects.get(slug="demo-club")
    # Like any club: the organizer founds it, invites each person, each accepts.
    assert _log(club) == [
        ("demo-organizer", "club.created", {"name": "Demo Club"}),
        ("demo-organizer", "invitation.created", {"role": "player", "email": ""}),
        ("demo-alice", "invitation.accepted", {"role": "player", "joined": True}),
        ("demo-organizer", "invitation.created", {"role": "player", "email": ""}),
        ("demo-bob", "invitation.accepted", {"role": "player", "joined": True}),
        ("demo-organizer", "invitation.created", {"role": "player", "email": ""}),
        ("demo-referee", "invitation.accepted", {"role": "player", "joined": True}),
    ]
    accepted = Invitation.objects.filter(club=club).values_list("accepted_by__username", flat=True)
    assert sorted(accepted) == ["demo-alice", "demo-bob", "demo-referee"]
    entries = ClubLogEntry.objects.count()
    run()  # make run loads it at every start: nothing more is logged
    assert ClubLogEntry.objects.count() == entries and Invitation.objects.count() == 3


def test_a_changed_demo_role_or_membership_is_put_back_through_the_services(db):
    run()
    club = Club.objects.get(slug="demo-club")
    organizer = get_user_model().objects.get(username="demo-organizer")
    clubs.hand_over_organizer(club=club, user=organizer, to_username="demo-alice")
    Membership.objects.filter(club=club, user__username="demo-bob").delete()
    since = club.log.count()
    run()
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {
        "demo-organizer": "organizer",
        "demo-alice": "player",
        "demo-bob": "player",
        "demo-referee": "player",
    }
    # alice (organizer now) gives the role back, the demo organizer sets alice back to
    # player, then re-invites bob, who accepts.
    assert [(actor, action) for actor, action, _ in _log(club)[since:]] == [
        ("demo-alice", "member.role"),
        ("demo-organizer", "member.role"),
        ("demo-organizer", "invitation.created"),
        ("demo-bob", "invitation.accepted"),
    ]


def test_load_demo_refuses_a_public_site_and_changes_nothing(db, settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["muster.example.org", "127.0.0.1"]
    with pytest.raises(CommandError) as refused:
        call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    assert refused.value.returncode == 2
    assert "--yes-on-production" in str(refused.value) and "muster.example.org" in str(
        refused.value
    )
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_load_demo_on_a_public_site_when_told_so(db, settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["muster.example.org"]
    call_command("load_demo", "--yes-on-production", stdout=StringIO(), stderr=StringIO())
    assert Club.objects.filter(slug="demo-club").exists()


@pytest.mark.parametrize(
    "debug, hosts",
    [
        (False, ["127.0.0.1", "localhost"]),  # make run: DEBUG off on the loopback
        (True, ["muster.example.org"]),  # a developer
    ],
)
def test_load_demo_runs_on_the_loopback_and_in_debug(db, settings, debug, hosts):
    settings.DEBUG, settings.ALLOWED_HOSTS = debug, hosts
    run()
    assert Club.objects.filter(slug="demo-club").exists()


def test_the_refusal_exits_with_code_2(tmp_path):
    """As an operator meets it: the command line, production settings, exit code 2."""
    database = tmp_path / "site.sqlite3"
    env = {
        **os.environ,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "muster.example.org",
        "SECRET_KEY": "k" * 20 + "-a-long-enough-and-varied-key-0123456789",
        "DATABASE_URL": f"sqlite:///{database}",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "load_demo"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "configured for the public" in done.stderr and "Traceback" not in done.stderr
    assert (
        not database.exists() or database.stat().st_size == 0
    )  # refused before touching the database
