"""Campaigns: list with filters, create, detail, scenarios, roster, and the
organizer's management of players and referee."""

from campaigns.models import Campaign, Club, Event, Membership
from campaigns.services import campaigns as svc
from rosters.models import RosterEntry

from .conftest import post

NOT_FOUND = {"detail": "Not found."}


def _new(club, people, name="Second war", variant="short"):
    return svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant=variant, name=name
    )


# --- list ------------------------------------------------------------------------------------


def test_members_list_their_clubs_campaigns_newest_first(skirmish, club, people, client_for):
    second = _new(club, people)
    listed = client_for("carol").get("/api/v1/campaigns/").json()
    assert [c["id"] for c in listed["results"]] == [second.pk, skirmish.pk]
    first = listed["results"][1]
    assert first | {"created_at": None} == {
        "id": skirmish.pk,
        "name": "Test war",
        "club": {"slug": "tuesday", "name": "Tuesday Night ASL"},
        "system": "skirmish",
        "variant": "short",
        "status": "active",
        "referee": "rita",
        "created_by": "olga",
        "created_at": None,
        "archived_at": None,
    }
    assert client_for("outsider").get("/api/v1/campaigns/").json()["count"] == 0


def test_campaigns_filter_by_club_status_and_system(skirmish, club, people, client_for):
    setup = _new(club, people)
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=people["alice"], role="organizer")
    elsewhere = svc.create_campaign(
        club=other, user=people["alice"], system="skirmish", variant="duel", name="Away"
    )
    alice = client_for("alice")

    def ids(query):
        response = alice.get(f"/api/v1/campaigns/?{query}")
        assert response.status_code == 200
        return {c["id"] for c in response.json()["results"]}

    assert ids("") == {skirmish.pk, setup.pk, elsewhere.pk}
    assert ids("club=elsewhere") == {elsewhere.pk}
    assert ids("status=active") == {skirmish.pk}
    assert ids("status=setup&club=tuesday") == {setup.pk}
    assert ids("system=skirmish") == {skirmish.pk, setup.pk, elsewhere.pk}
    assert ids("system=achtung") == set()


def test_a_bad_status_filter_is_a_field_error(skirmish, client_for):
    response = client_for("alice").get("/api/v1/campaigns/?status=sleeping")
    assert response.status_code == 400 and "status" in response.json()


# --- create ----------------------------------------------------------------------------------


def test_the_organizer_creates_a_campaign(club, people, client_for):
    response = post(
        client_for("olga"),
        "/api/v1/campaigns/",
        {
            "club": "tuesday",
            "system": "skirmish",
            "variant": "duel",
            "name": "Quick one",
            "options": {"starting_supply": 4, "dice_mode": "entered"},
        },
    )
    assert response.status_code == 201
    body = response.json()
    campaign = Campaign.objects.get(pk=body["id"])
    assert (campaign.name, campaign.variant, campaign.status) == ("Quick one", "duel", "setup")
    assert body["scenarios"] == [
        {"index": 0, "label": "Only round", "status": "upcoming", "summary": {}}
    ]
    assert body["viewer"]["organizer"] is True
    state = client_for("olga").get(f"/api/v1/campaigns/{campaign.pk}/state/").json()["state"]
    assert state["options"] == {"dice_mode": "entered", "starting_supply": 4}


def test_a_bad_campaign_is_refused_field_by_field_and_nothing_is_created(club, people, client_for):
    olga = client_for("olga")
    good = {"club": "tuesday", "system": "skirmish", "variant": "short", "name": "X"}
    cases = [
        ({**good, "system": "chess"}, "system"),
        ({**good, "variant": "endless"}, "variant"),
        ({**good, "name": ""}, "name"),
        ({**good, "options": {"starting_supply": 99}}, "options.starting_supply"),
        ({**good, "options": {"fog": True}}, "options.fog"),
        ({**good, "options": "lots"}, "options"),
        ({k: v for k, v in good.items() if k != "variant"}, "variant"),
    ]
    for data, field in cases:
        response = post(olga, "/api/v1/campaigns/", data)
        assert response.status_code == 400, data
        assert field in response.json(), (data, response.json())
    assert not Campaign.objects.exists()


def test_only_an_organizer_of_the_club_creates_campaigns(club, people, client_for):
    data = {"club": "tuesday", "system": "skirmish", "variant": "short", "name": "Mine"}
    assert post(client_for("alice"), "/api/v1/campaigns/", data).status_code == 403
    assert post(client_for("outsider"), "/api/v1/campaigns/", data).status_code == 404
    assert not Campaign.objects.exists()


# --- detail ----------------------------------------------------------------------------------


def test_the_detail_shows_sides_players_referee_scenarios_standings(skirmish, client_for):
    body = client_for("carol").get(f"/api/v1/campaigns/{skirmish.pk}/").json()
    assert body["sides"] == [
        {"slug": "red", "name": "Red", "players": ["olga", "alice"]},
        {"slug": "blue", "name": "Blue", "players": ["bob"]},
    ]
    assert body["referee"] == "rita" and body["status"] == "active"
    assert [(s["label"], s["status"]) for s in body["scenarios"]] == [
        ("Round 1", "current"),
        ("Round 2", "upcoming"),
        ("Round 3", "upcoming"),
    ]
    assert body["standings"] == [
        {"side": "red", "label": "Wins", "value": 0},
        {"side": "blue", "label": "Wins", "value": 0},
    ]
    assert body["viewer"] == {
        "playing": None,
        "referee": False,
        "organizer": False,
        "arbiter": False,
        "sides": [],
    }
    assert (
        body["system_name"] == "Skirmish (test system)" and body["variant_name"] == "Short campaign"
    )


def test_the_detail_says_who_i_am_in_the_campaign(skirmish, client_for):
    def viewer(name):
        return client_for(name).get(f"/api/v1/campaigns/{skirmish.pk}/").json()["viewer"]

    assert viewer("olga") == {
        "playing": "red",
        "referee": False,
        "organizer": True,
        "arbiter": False,
        "sides": ["red"],
    }
    assert viewer("rita") == {
        "playing": None,
        "referee": True,
        "organizer": False,
        "arbiter": True,
        "sides": ["blue", "red"],
    }


def test_a_campaign_of_another_club_does_not_exist_for_me(skirmish, client_for):
    hidden = client_for("outsider").get(f"/api/v1/campaigns/{skirmish.pk}/")
    missing = client_for("outsider").get("/api/v1/campaigns/999999/")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json() == NOT_FOUND


# --- scenarios and roster ---------------------------------------------------------------------


def test_scenarios_are_listed_in_order(skirmish, client_for):
    response = client_for("bob").get(f"/api/v1/campaigns/{skirmish.pk}/scenarios/")
    assert [s["index"] for s in response.json()["results"]] == [0, 1, 2]
    assert (
        client_for("outsider").get(f"/api/v1/campaigns/{skirmish.pk}/scenarios/").status_code == 404
    )


def _roster(campaign):
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(
                campaign=campaign,
                key="red-hq",
                side="red",
                audience="public",
                kind="unit",
                name="Red HQ",
            ),
            RosterEntry(
                campaign=campaign,
                key="red-spy",
                side="red",
                audience="side",
                kind="unit",
                name="Red spy",
                data={"hidden_at": "the mill"},
            ),
            RosterEntry(
                campaign=campaign,
                key="blue-hq",
                side="blue",
                audience="public",
                kind="unit",
                name="Blue HQ",
            ),
            RosterEntry(
                campaign=campaign,
                key="blue-scout",
                side="blue",
                audience="side",
                kind="unit",
                name="Scout",
            ),
        ]
    )


def test_the_roster_shows_public_entries_and_my_sides(skirmish, client_for):
    _roster(skirmish)

    def keys(name):
        return {
            e["key"]
            for e in client_for(name)
            .get(f"/api/v1/campaigns/{skirmish.pk}/roster/")
            .json()["results"]
        }

    assert keys("alice") == keys("olga") == {"red-hq", "red-spy", "blue-hq"}
    assert keys("bob") == {"red-hq", "blue-hq", "blue-scout"}
    assert keys("carol") == {"red-hq", "blue-hq"}
    assert keys("rita") == {"red-hq", "red-spy", "blue-hq", "blue-scout"}
    assert client_for("outsider").get(f"/api/v1/campaigns/{skirmish.pk}/roster/").status_code == 404
    spy = next(
        e
        for e in client_for("alice")
        .get(f"/api/v1/campaigns/{skirmish.pk}/roster/")
        .json()["results"]
        if e["key"] == "red-spy"
    )
    assert spy == {
        "key": "red-spy",
        "side": "red",
        "audience": "side",
        "kind": "unit",
        "name": "Red spy",
        "status": "",
        "data": {"hidden_at": "the mill"},
    }


# --- players and referee ------------------------------------------------------------------------


def _players(campaign):
    campaign.refresh_from_db()
    return {
        side.slug: sorted(side.players.values_list("username", flat=True))
        for side in campaign.sides.all()
    }


def test_the_organizer_puts_a_member_on_a_side(skirmish, client_for):
    response = post(
        client_for("olga"),
        f"/api/v1/campaigns/{skirmish.pk}/players/",
        {"side": "red", "username": "carol"},
    )
    assert response.status_code == 201
    assert [e["kind"] for e in response.json()["events"]] == ["player.assigned"]
    assert response.json()["state"]["sides"]["red"]["players"] == ["olga", "alice", "carol"]
    assert _players(skirmish)["red"] == ["alice", "carol", "olga"]


def test_the_organizer_playing_red_only_proposes_a_seat_on_blue(skirmish, client_for):
    """Olga plays red; a member she seats on blue would read blue's secrets for her."""
    response = post(
        client_for("olga"),
        f"/api/v1/campaigns/{skirmish.pk}/players/",
        {"side": "blue", "username": "carol"},
    )
    assert response.status_code == 201
    assert [e["kind"] for e in response.json()["events"]] == ["proposal.made"]
    assert _players(skirmish)["blue"] == ["bob"]
    agreed = post(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "proposal.approved", "data": {"proposal": response.json()["events"][0]["uid"]}},
    )
    assert agreed.status_code == 201 and _players(skirmish)["blue"] == ["bob", "carol"]


def test_player_changes_with_bad_input_change_nothing(skirmish, client_for):
    olga = client_for("olga")
    url = f"/api/v1/campaigns/{skirmish.pk}/players/"
    before, events = _players(skirmish), Event.objects.count()
    assert post(olga, url, {"side": "blue"}).json().keys() == {"username"}
    assert (
        "username" in post(olga, url, {"side": "blue", "username": "outsider"}).json()
    )  # not a member
    assert (
        "username" in post(olga, url, {"side": "blue", "username": "alice"}).json()
    )  # already plays red
    assert "side" in post(olga, url, {"side": "green", "username": "carol"}).json()
    assert "username" in post(olga, f"{url}remove/", {"side": "blue", "username": "carol"}).json()
    assert (
        "old"
        in post(olga, f"{url}replace/", {"side": "blue", "old": "carol", "new": "carol"}).json()
    )
    assert (
        "username"
        in post(olga, f"/api/v1/campaigns/{skirmish.pk}/referee/", {"username": "bob"}).json()
    )
    assert post(olga, f"/api/v1/campaigns/{skirmish.pk}/referee/", {}).json().keys() == {"username"}
    assert _players(skirmish) == before and Event.objects.count() == events


def test_only_the_organizer_manages_players(skirmish, client_for):
    url = f"/api/v1/campaigns/{skirmish.pk}/players/"
    events = Event.objects.count()
    for name in ("alice", "bob", "carol", "rita"):
        assert (
            post(client_for(name), url, {"side": "blue", "username": "carol"}).status_code == 403
        ), name
        assert (
            post(client_for(name), f"{url}remove/", {"side": "blue", "username": "bob"}).status_code
            == 403
        )
    assert (
        post(client_for("outsider"), url, {"side": "blue", "username": "carol"}).status_code == 404
    )
    assert Event.objects.count() == events


def test_the_organizer_replaces_and_removes_players(skirmish, client_for):
    olga = client_for("olga")
    replaced = post(
        olga,
        f"/api/v1/campaigns/{skirmish.pk}/players/replace/",
        {"side": "blue", "old": "bob", "new": "carol"},
    )
    # olga plays red: blue agrees to it, here bob, who leaves.
    assert replaced.status_code == 200 and _players(skirmish)["blue"] == ["bob"]
    post(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "proposal.approved", "data": {"proposal": replaced.json()["events"][0]["uid"]}},
    )
    assert _players(skirmish)["blue"] == ["carol"]
    removed = post(
        olga,
        f"/api/v1/campaigns/{skirmish.pk}/players/remove/",
        {"side": "red", "username": "alice"},
    )
    assert removed.status_code == 200 and _players(skirmish)["red"] == ["olga"]


def test_the_organizer_names_and_clears_the_referee(skirmish, client_for):
    """In play, a new referee is a proposal: the sitting referee agrees here."""
    olga = client_for("olga")
    response = post(olga, f"/api/v1/campaigns/{skirmish.pk}/referee/", {"username": "carol"})
    assert response.status_code == 200 and response.json()["state"]["referee"] == "rita"
    (proposal,) = [e for e in response.json()["events"] if e["kind"] == "proposal.made"]
    assert proposal["data"]["action"] == "seat"
    agreed = post(
        client_for("rita"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "proposal.approved", "data": {"proposal": proposal["uid"]}},
    )
    assert agreed.status_code == 201 and agreed.json()["state"]["referee"] == "carol"
    skirmish.refresh_from_db()
    assert skirmish.referee.username == "carol"
    # olga plays red: taking the referee off is her proposal too; blue (or the referee) agrees.
    cleared = post(olga, f"/api/v1/campaigns/{skirmish.pk}/referee/", {"username": None})
    assert cleared.status_code == 200 and cleared.json()["state"]["referee"] == "carol"
    (proposal,) = [e for e in cleared.json()["events"] if e["kind"] == "proposal.made"]
    agreed = post(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "proposal.approved", "data": {"proposal": proposal["uid"]}},
    )
    assert agreed.status_code == 201 and agreed.json()["state"]["referee"] is None
    skirmish.refresh_from_db()
    assert skirmish.referee is None
    refused = post(
        client_for("rita"), f"/api/v1/campaigns/{skirmish.pk}/referee/", {"username": "rita"}
    )
    assert refused.status_code == 403
