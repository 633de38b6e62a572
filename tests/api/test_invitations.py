"""Invitations: the organizer lists, creates and revokes them; anyone signed in
accepts one by its code and joins the club."""

from campaigns.models import Club, Invitation, Membership

from .conftest import post

URL = "/api/v1/clubs/tuesday/invitations/"


def _invite(club, people, **kwargs):
    return Invitation.objects.create(club=club, created_by=people["olga"], **kwargs)


def test_the_organizer_sees_invitations_with_their_codes(club, people, client_for):
    invitation = _invite(club, people, email="dora@example.org")
    response = client_for("olga").get(URL)
    assert response.status_code == 200
    [shown] = response.json()["results"]
    assert shown["code"] == invitation.code and shown["email"] == "dora@example.org"
    assert (
        shown["created_by"] == "olga" and shown["usable"] is True and shown["accepted_by"] is None
    )


def test_players_may_not_see_invitations_and_strangers_not_the_club(club, people, client_for):
    _invite(club, people)
    assert client_for("alice").get(URL).status_code == 403
    assert client_for("outsider").get(URL).status_code == 404


def test_the_organizer_invites(club, people, client_for):
    response = post(client_for("olga"), URL, {"role": "organizer", "email": "dora@example.org"})
    assert response.status_code == 201
    invitation = Invitation.objects.get()
    assert (invitation.role, invitation.email, invitation.code) == (
        "organizer",
        "dora@example.org",
        response.json()["code"],
    )


def test_bad_invitations_are_refused_and_nothing_is_created(club, people, client_for):
    olga = client_for("olga")
    assert post(olga, URL, {"role": "emperor"}).json().keys() == {"role"}
    assert post(olga, URL, {"email": "not an address"}).json().keys() == {"email"}
    assert post(client_for("alice"), URL, {"role": "player"}).status_code == 403
    assert post(client_for("outsider"), URL, {"role": "player"}).status_code == 404
    assert not Invitation.objects.exists()


def test_the_organizer_revokes(club, people, client_for):
    invitation = _invite(club, people)
    response = post(client_for("olga"), f"{URL}{invitation.pk}/revoke/")
    assert response.status_code == 200 and response.json()["revoked"] is True
    invitation.refresh_from_db()
    assert invitation.revoked and not invitation.usable


def test_only_the_organizer_revokes_and_only_their_clubs(club, people, client_for):
    invitation = _invite(club, people)
    other_club = Club.objects.create(name="Elsewhere", slug="elsewhere")
    foreign = Invitation.objects.create(club=other_club, created_by=people["outsider"])
    assert post(client_for("alice"), f"{URL}{invitation.pk}/revoke/").status_code == 403
    assert post(client_for("olga"), f"{URL}{foreign.pk}/revoke/").status_code == 404
    assert post(client_for("olga"), f"{URL}999999/revoke/").status_code == 404
    assert not Invitation.objects.filter(revoked=True).exists()


def test_accepting_a_code_joins_the_club(club, people, client_for):
    invitation = _invite(club, people, role="player")
    outsider = client_for("outsider")
    assert outsider.get("/api/v1/clubs/tuesday/").status_code == 404
    response = post(outsider, "/api/v1/invitations/accept/", {"code": invitation.code})
    assert response.status_code == 200
    assert response.json()["club"] == {"slug": "tuesday", "name": "Tuesday Night ASL"}
    assert response.json()["role"] == "player" and response.json()["username"] == "outsider"
    assert outsider.get("/api/v1/clubs/tuesday/").status_code == 200


def test_used_revoked_and_unknown_codes_are_not_found(club, people, client_for):
    used = _invite(club, people)
    post(client_for("outsider"), "/api/v1/invitations/accept/", {"code": used.code})
    revoked = _invite(club, people, revoked=True)
    members = Membership.objects.count()
    for code in (used.code, revoked.code, "no-such-code"):
        assert (
            post(client_for("carol"), "/api/v1/invitations/accept/", {"code": code}).status_code
            == 404
        )
    assert post(client_for("carol"), "/api/v1/invitations/accept/", {}).json().keys() == {"code"}
    assert Membership.objects.count() == members


def test_anonymous_people_cannot_accept(club, people, client_for):
    invitation = _invite(club, people)
    assert (
        post(
            client_for("anonymous"), "/api/v1/invitations/accept/", {"code": invitation.code}
        ).status_code
        == 403
    )
    invitation.refresh_from_db()
    assert invitation.usable
