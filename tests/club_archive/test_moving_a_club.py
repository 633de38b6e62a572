"""Moving a club (docs/operations.md, "Moving a club"): export_club writes the club, its members and
roles and every campaign's journal in one archive, never a password hash or an open invitation's
code; replay_club restores it on an empty site, and export -> replay -> export is identical."""

import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.errors import DomainError
from campaigns.models import Campaign, Club, Invitation, Membership
from campaigns.services import club_archive, clubs as club_services, journal_files
from campaigns.services.journal import submit
from tests.journal.test_the_journal_is_the_truth import _play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def moving(club, skirmish, people):
    _play_round(skirmish, people, 3, 1)
    submit(
        skirmish,
        people["alice"],
        "note.added",
        {"scenario": 0, "text": "Held the ford.", "private": True},
    )
    invitation = club_services.invite(club=club, user=people["olga"], email="new@example.org")
    for user in people.values():
        user.set_password("a-secret-pass-word")
        user.save()
    return invitation


def _entries(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def _wipe():
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def test_the_archive_holds_the_club_and_its_campaigns_and_no_secret_of_the_site(
    club, skirmish, people, moving
):
    data = club_archive.export_club(club)
    entries = _entries(data)
    assert sorted(entries) == ["campaigns/001.json", "club.json"]
    head = json.loads(entries["club.json"])
    assert head["club"] == {
        "slug": "tuesday",
        "name": "Tuesday Night ASL",
        "created_at": club.created_at.isoformat(),
    }
    assert [(m["username"], m["role"]) for m in head["members"]] == [
        ("alice", "player"),
        ("bob", "player"),
        ("carol", "player"),
        ("olga", "organizer"),
        ("rita", "player"),
    ]
    assert json.loads(entries["campaigns/001.json"]) == journal_files.export_journal(skirmish)
    text = "".join(entries.values())
    assert (
        moving.code not in text and "new@example.org" not in text
    )  # an open invitation stays here
    assert all(user.password not in text for user in people.values())
    assert "pbkdf2" not in text and "md5$" not in text and "password" not in text
    assert club_archive.export_club(club) == data  # the same bytes for the same club


def test_export_replay_export_is_identical_and_restores_the_club(
    club, skirmish, people, moving, tmp_path
):
    joined = {m.user.username: m.joined_at for m in club.memberships.select_related("user")}
    states = {skirmish.name: journal_files.full_state(skirmish)}
    path = tmp_path / "tuesday.zip"
    call_command("export_club", "tuesday", "--output", str(path), stderr=io.StringIO())
    data = path.read_bytes()
    _wipe()
    out = io.StringIO()
    call_command("replay_club", str(path), "--create-people", stdout=out)
    assert (
        out.getvalue().splitlines()[0]
        == "Club “Tuesday Night ASL” (tuesday), 5 members, 1 campaigns."
    )
    restored = Club.objects.get(slug="tuesday")
    assert restored.created_at == club.created_at
    assert {
        m.user.username: (m.role, m.joined_at) for m in restored.memberships.select_related("user")
    } == {name: ("organizer" if name == "olga" else "player", at) for name, at in joined.items()}
    assert not Invitation.objects.exists()
    assert not any(
        u.has_usable_password() for u in get_user_model().objects.all()
    )  # "forgot password"
    campaign = Campaign.objects.get(club=restored)
    assert journal_files.full_state(campaign) == states[campaign.name]
    assert club_archive.export_club(restored) == data


def test_a_club_that_exists_or_a_bad_journal_is_refused_and_nothing_is_written(
    club, skirmish, people, moving, tmp_path
):
    data = club_archive.export_club(club)
    with pytest.raises(DomainError, match="A club 'tuesday' already exists here"):
        club_archive.replay_club(data, create_people=True)
    entries = _entries(data)
    journal = json.loads(entries["campaigns/001.json"])
    journal["events"][8]["data"] = {"scenario": 0, "data": {"red": -1, "blue": 1}}
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("club.json", entries["club.json"])
        archive.writestr("campaigns/001.json", json.dumps(journal))
    _wipe()
    path = tmp_path / "broken.zip"
    path.write_bytes(broken.getvalue())
    with pytest.raises(CommandError) as error:
        call_command("replay_club", str(path), "--create-people")
    assert error.value.returncode == 2 and str(error.value).startswith(
        "campaigns/001.json events[8]"
    )
    assert (
        not Club.objects.exists()
        and not get_user_model().objects.exists()
        and not Membership.objects.exists()
    )
    path.write_bytes(b"not a zip")
    with pytest.raises(CommandError, match="Not a Muster club archive"):
        call_command("replay_club", str(path))


def test_dry_run_says_what_it_would_restore_and_writes_nothing(
    club, skirmish, people, moving, tmp_path
):
    path = tmp_path / "tuesday.zip"
    path.write_bytes(club_archive.export_club(club))
    _wipe()
    out = io.StringIO()
    call_command("replay_club", str(path), "--create-people", "--dry-run", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1] == (
        'People created without a password (they choose one with "forgot password"): alice, bob, '
        'carol, olga, rita.'
    )
    assert (
        lines[2].startswith("Campaign “Test war” (skirmish): ")
        and lines[-1] == "Nothing was written (--dry-run)."
    )
    assert not Club.objects.exists() and not get_user_model().objects.exists()
