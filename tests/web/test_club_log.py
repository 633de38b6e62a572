"""Every change to a club's members, roles and invitations is recorded in the club log, which
only the club's organizers read (page) and site operators see read-only (admin)."""

import pytest
from django.contrib.auth import get_user_model

from campaigns.errors import DomainError
from campaigns.models import ClubLogEntry
from campaigns.services import clubs

from .conftest import text_of


def _log(club):
    return [
        (e.actor.username if e.actor else None, e.action, e.detail)
        for e in club.log.order_by("at", "pk")
    ]


def test_every_club_change_is_logged_with_who_and_what(club, people):
    olga = people["olga"]
    invitation = clubs.invite(club=club, user=olga, role="player", email="dan@example.org")
    clubs.accept_invitation(code=invitation.code, user=people["outsider"])
    other = clubs.invite(club=club, user=olga)
    clubs.revoke_invitation(invitation=other, user=olga)
    clubs.set_role(club=club, user=olga, member_username="carol", role="organizer")
    clubs.hand_over_organizer(club=club, user=olga, to_username="alice")
    assert _log(club) == [
        (
            "olga",
            "invitation.created",
            {"invitation": invitation.pk, "role": "player", "email": "dan@example.org"},
        ),
        (
            "outsider",
            "invitation.accepted",
            {"invitation": invitation.pk, "role": "player", "joined": True},
        ),
        ("olga", "invitation.created", {"invitation": other.pk, "role": "player", "email": ""}),
        ("olga", "invitation.revoked", {"invitation": other.pk}),
        ("olga", "member.role", {"username": "carol", "old": "player", "new": "organizer"}),
        ("olga", "member.role", {"username": "alice", "old": "player", "new": "organizer"}),
        ("olga", "member.role", {"username": "olga", "old": "organizer", "new": "player"}),
    ]
    assert invitation.code not in str(_log(club))  # a code in the log would be a usable link


def test_a_refused_change_logs_nothing(club, people):
    with pytest.raises(DomainError):
        clubs.set_role(club=club, user=people["olga"], member_username="nobody", role="organizer")
    assert not club.log.exists()


def test_founding_a_club_is_logged(people):
    founded = clubs.create_club(user=people["carol"], name="Wednesday Group")
    assert _log(founded) == [("carol", "club.created", {"name": "Wednesday Group"})]


def test_only_organizers_read_the_log_on_the_club_page(club, people, client_for):
    clubs.set_role(club=club, user=people["olga"], member_username="carol", role="organizer")
    assert "Club log" in text_of(client_for("olga").get(f"/clubs/{club.slug}/"))
    assert "made carol organizer" in " ".join(
        text_of(client_for("olga").get(f"/clubs/{club.slug}/")).split()
    )
    assert "Club log" not in text_of(client_for("alice").get(f"/clubs/{club.slug}/"))


def test_the_log_is_append_only(club, people):
    clubs.set_role(club=club, user=people["olga"], member_username="carol", role="organizer")
    entry = ClubLogEntry.objects.get()
    entry.action = "edited"
    with pytest.raises(ValueError):
        entry.save()


def test_operators_see_the_log_read_only_in_the_admin(club, people, client):
    clubs.set_role(club=club, user=people["olga"], member_username="carol", role="organizer")
    operator = get_user_model().objects.create_superuser("op", "op@example.org", "pass-word-123")
    client.force_login(operator)
    assert client.get("/admin/campaigns/clublogentry/").status_code == 200
    assert client.get("/admin/campaigns/clublogentry/add/").status_code == 403
    entry = ClubLogEntry.objects.get()
    assert (
        client.post(
            f"/admin/campaigns/clublogentry/{entry.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert ClubLogEntry.objects.filter(pk=entry.pk).exists()
