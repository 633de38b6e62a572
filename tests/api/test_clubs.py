"""Clubs: my clubs, a club, its members; the organizer sets roles and hands over."""

from campaigns.models import Club, Membership

from .conftest import post

NOT_FOUND = {"detail": "Not found."}


def _roles(club):
    return dict(club.memberships.values_list("user__username", "role"))


def test_i_see_only_my_clubs_with_my_role(club, people, client_for):
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=people["outsider"], role="organizer")

    mine = client_for("olga").get("/api/v1/clubs/").json()
    assert mine["count"] == 1
    assert mine["results"][0] | {"created_at": None} == {
        "slug": "tuesday",
        "name": "Tuesday Night ASL",
        "role": "organizer",
        "created_at": None,
    }
    assert client_for("alice").get("/api/v1/clubs/").json()["results"][0]["role"] == "player"
    assert [c["slug"] for c in client_for("outsider").get("/api/v1/clubs/").json()["results"]] == [
        "elsewhere"
    ]


def test_founding_a_club_makes_me_its_organizer(people, client_for):
    response = post(client_for("carol"), "/api/v1/clubs/", {"name": "Wednesday Wargamers"})
    assert response.status_code == 201
    assert response.json()["role"] == "organizer"
    club = Club.objects.get(slug=response.json()["slug"])
    assert _roles(club) == {"carol": "organizer"}


def test_a_club_needs_a_name(people, client_for):
    before = Club.objects.count()
    response = post(client_for("carol"), "/api/v1/clubs/", {"name": ""})
    assert response.status_code == 400 and "name" in response.json()
    assert Club.objects.count() == before


def test_a_club_is_shown_to_members_and_hidden_from_others(club, people, client_for):
    assert client_for("carol").get("/api/v1/clubs/tuesday/").json()["role"] == "player"
    hidden = client_for("outsider").get("/api/v1/clubs/tuesday/")
    missing = client_for("outsider").get("/api/v1/clubs/no-such-club/")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json() == NOT_FOUND


def test_members_see_the_member_list(club, people, client_for):
    response = client_for("bob").get("/api/v1/clubs/tuesday/members/")
    assert response.status_code == 200
    assert [(m["username"], m["role"]) for m in response.json()["results"]] == [
        ("alice", "player"),
        ("bob", "player"),
        ("carol", "player"),
        ("olga", "organizer"),
        ("rita", "player"),
    ]
    assert client_for("outsider").get("/api/v1/clubs/tuesday/members/").status_code == 404


def test_the_organizer_sets_a_members_role(club, people, client_for):
    response = post(
        client_for("olga"), "/api/v1/clubs/tuesday/members/carol/role/", {"role": "organizer"}
    )
    assert response.status_code == 200
    assert response.json()["username"] == "carol" and response.json()["role"] == "organizer"
    assert _roles(club)["carol"] == "organizer"


def test_a_player_cannot_set_roles(club, people, client_for):
    response = post(
        client_for("alice"), "/api/v1/clubs/tuesday/members/alice/role/", {"role": "organizer"}
    )
    assert response.status_code == 403
    assert _roles(club)["alice"] == "player"


def test_role_changes_with_bad_input_change_nothing(club, people, client_for):
    olga = client_for("olga")
    before = _roles(club)
    assert post(
        olga, "/api/v1/clubs/tuesday/members/carol/role/", {"role": "king"}
    ).json().keys() == {"role"}
    assert post(olga, "/api/v1/clubs/tuesday/members/carol/role/", {}).status_code == 400
    unknown = post(olga, "/api/v1/clubs/tuesday/members/nobody/role/", {"role": "player"})
    assert unknown.status_code == 400 and "username" in unknown.json()
    last = post(olga, "/api/v1/clubs/tuesday/members/olga/role/", {"role": "player"})
    assert last.status_code == 400 and "at least one organizer" in last.json()["role"][0]
    assert _roles(club) == before


def test_the_organizer_hands_over_and_steps_down(club, people, client_for):
    response = post(client_for("olga"), "/api/v1/clubs/tuesday/hand-over/", {"username": "carol"})
    assert response.status_code == 200 and response.json()["role"] == "organizer"
    assert _roles(club)["carol"] == "organizer" and _roles(club)["olga"] == "player"


def test_hand_over_refuses_players_and_strangers(club, people, client_for):
    before = _roles(club)
    assert (
        post(
            client_for("alice"), "/api/v1/clubs/tuesday/hand-over/", {"username": "alice"}
        ).status_code
        == 403
    )
    assert (
        post(
            client_for("outsider"), "/api/v1/clubs/tuesday/hand-over/", {"username": "carol"}
        ).status_code
        == 404
    )
    bad = post(client_for("olga"), "/api/v1/clubs/tuesday/hand-over/", {"username": "outsider"})
    assert bad.status_code == 400 and "username" in bad.json()
    assert post(client_for("olga"), "/api/v1/clubs/tuesday/hand-over/", {}).json().keys() == {
        "username"
    }
    assert _roles(club) == before
