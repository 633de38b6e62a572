"""Signing in and out, passwords, and joining a club through an invitation."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from campaigns.models import Invitation, Membership

from .conftest import text_of


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/"


def test_login_and_logout(people, client):
    wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 200 and "Wrong username or password" in text_of(wrong)
    ok = client.post("/accounts/login/", {"username": "alice", "password": "pass-word-123"})
    assert ok.status_code == 302 and ok["Location"] == "/"
    assert "Hello, alice" in text_of(client.get("/"))
    assert client.get("/accounts/logout/").status_code == 405  # logging out is a POST
    out = client.post("/accounts/logout/")
    assert out.status_code == 302 and client.get("/").status_code == 302


def test_password_change(people, client):
    client.force_login(people["alice"])
    bad = client.post(
        "/accounts/password/change/",
        {
            "old_password": "wrong",
            "new_password1": "a-new-secret-77",
            "new_password2": "a-new-secret-77",
        },
    )
    assert bad.status_code == 200 and "Your old password was entered incorrectly" in text_of(bad)
    ok = client.post(
        "/accounts/password/change/",
        {
            "old_password": "pass-word-123",
            "new_password1": "a-new-secret-77",
            "new_password2": "a-new-secret-77",
        },
    )
    assert ok.status_code == 302 and ok["Location"] == "/accounts/password/change/done/"
    people["alice"].refresh_from_db()
    assert people["alice"].check_password("a-new-secret-77")


def test_password_reset_by_email(people, client):
    response = client.post("/accounts/password/reset/", {"email": "bob@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.org"]
    link = re.search(
        r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body
    ).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in text_of(form)
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "fresh-start-42", "new_password2": "fresh-start-42"},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert (
        client.post(
            "/accounts/login/", {"username": "bob", "password": "fresh-start-42"}
        ).status_code
        == 302
    )
    assert "no longer works" in text_of(client.get(link, follow=True))  # used once


def test_password_reset_for_an_unknown_address_says_the_same(people, client):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and not mail.outbox


# --- invitations -------------------------------------------------------------------------


@pytest.fixture
def invitation(club, people):
    return Invitation.objects.create(
        club=club, created_by=people["olga"], role="player", email="new@example.org"
    )


def test_the_invitation_page_names_the_club_and_role(invitation, client):
    page = text_of(client.get(f"/join/{invitation.code}/"))
    assert "Join Tuesday Night ASL" in page and "<strong>player</strong>" in page
    assert 'value="new@example.org"' in page  # the e-mail the organizer gave is suggested


def test_a_new_person_signs_up_and_joins(invitation, client):
    response = client.post(
        f"/join/{invitation.code}/",
        {
            "username": "newbie",
            "email": "new@example.org",
            "password1": "tank-commander-9",
            "password2": "tank-commander-9",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/tuesday/"
    user = get_user_model().objects.get(username="newbie")
    assert Membership.objects.get(user=user).role == "player"
    invitation.refresh_from_db()
    assert invitation.accepted_by == user
    assert "Welcome to Tuesday Night ASL, newbie." in text_of(client.get("/clubs/tuesday/"))


@pytest.mark.parametrize(
    "data,error",
    [
        (
            {"username": "alice", "password1": "tank-commander-9", "password2": "tank-commander-9"},
            "This username is taken.",
        ),
        (
            {
                "username": "newbie",
                "password1": "tank-commander-9",
                "password2": "tank-commander-8",
            },
            "The two passwords differ.",
        ),
        (
            {"username": "newbie", "password1": "12345678", "password2": "12345678"},
            "This password is too common.",
        ),
        (
            {
                "username": "new bie",
                "password1": "tank-commander-9",
                "password2": "tank-commander-9",
            },
            "Enter a valid username.",
        ),
    ],
)
def test_a_bad_signup_writes_nothing(invitation, client, people, data, error):
    users = get_user_model().objects.count()
    response = client.post(f"/join/{invitation.code}/", data)
    assert response.status_code == 400 and error in text_of(response)
    assert get_user_model().objects.count() == users
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


def test_a_signed_in_person_accepts(invitation, people, client):
    client.force_login(people["outsider"])
    assert "Join as outsider" in text_of(client.get(f"/join/{invitation.code}/"))
    response = client.post(f"/join/{invitation.code}/")
    assert response.status_code == 302 and response["Location"] == "/clubs/tuesday/"
    assert Membership.objects.filter(user=people["outsider"], club=invitation.club).exists()


def test_a_member_does_not_use_up_an_invitation(invitation, people, client):
    client.force_login(people["carol"])
    assert "You are already a member" in text_of(client.get(f"/join/{invitation.code}/"))
    client.post(f"/join/{invitation.code}/")
    invitation.refresh_from_db()
    assert invitation.usable


@pytest.mark.parametrize(
    "spoil,message",
    [
        (lambda inv, people: setattr(inv, "revoked", True), "withdrawn"),
        (
            lambda inv, people: (
                setattr(inv, "accepted_at", timezone.now()),
                setattr(inv, "accepted_by", people["bob"]),
            ),
            "already been used",
        ),
        (
            lambda inv, people: setattr(inv, "expires_at", timezone.now() - timedelta(minutes=1)),
            "expired",
        ),
    ],
)
def test_dead_invitations_say_why(invitation, people, client, spoil, message):
    spoil(invitation, people)
    invitation.save()
    page = client.get(f"/join/{invitation.code}/")
    assert page.status_code == 404 and message in text_of(page)
    assert "Tuesday" not in text_of(page)  # a dead code does not name the club
    users = get_user_model().objects.count()
    refused = client.post(
        f"/join/{invitation.code}/",
        {"username": "late", "password1": "tank-commander-9", "password2": "tank-commander-9"},
    )
    assert refused.status_code == 404 and get_user_model().objects.count() == users


def test_an_unknown_code(db, client):
    page = client.get("/join/not-a-code/")
    assert page.status_code == 404 and "not known" in text_of(page)
