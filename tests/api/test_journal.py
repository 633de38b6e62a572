"""The journal through the API: state, to-dos, history, submitting events
(idempotency, per-side staleness, entered dice, proposals by uid) and export."""

import uuid

from campaigns import versions
from campaigns.models import Event
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

from .conftest import post


def _events(client, campaign, **params):
    return client.get(f"/api/v1/campaigns/{campaign.pk}/events/", params).json()


# --- state and actions ------------------------------------------------------------------------


def test_the_state_is_cut_for_each_viewer(skirmish, client_for):
    def state(name):
        response = client_for(name).get(f"/api/v1/campaigns/{skirmish.pk}/state/")
        assert response.status_code == 200
        return response.json()

    alice, bob, carol, rita = state("alice"), state("bob"), state("carol"), state("rita")
    assert alice["viewer"]["playing"] == "red"
    assert set(alice["state"]["game"]["sides"]) == {"red"}
    assert set(bob["state"]["game"]["sides"]) == {"blue"}
    assert carol["state"]["game"]["sides"] == {}
    assert (
        set(rita["state"]["game"]["sides"]) == {"red", "blue"}
        and "referee" in rita["state"]["game"]
    )
    assert "seq" in rita["state"] and "seq" not in alice["state"]
    assert [(s["id"], s["status"]) for s in alice["procedure"]] == [("supply:red", "current")]
    assert {s["id"] for s in rita["procedure"]} == {"supply:red", "supply:blue"}


def test_actions_say_what_waits_for_me(skirmish, client_for):
    def todos(name):
        return client_for(name).get(f"/api/v1/campaigns/{skirmish.pk}/actions/").json()

    def waiting(name):
        return [t for t in todos(name) if not t["optional"]]

    assert waiting("alice") == [
        {
            "kind": "skirmish.supply",
            "label": "Roll for supply",
            "side": "red",
            "rule": "T.2",
            "initial": {},
            "help": "",
            "optional": False,
        }
    ]
    # The round being prepared can carry an after-action note: offered, nothing waits for it.
    assert [t["kind"] for t in todos("alice") if t["optional"]] == ["note.added"]
    assert [t["side"] for t in waiting("bob")] == ["blue"]
    assert todos("carol") == []
    assert {t["side"] for t in waiting("rita")} == {"red", "blue"}


# --- history ---------------------------------------------------------------------------------


def test_the_history_is_paginated_oldest_first_and_named_by_uid(skirmish, client_for):
    alice = client_for("alice")
    page = _events(alice, skirmish, page_size=2)
    assert page["count"] == 6 and page["next"] and page["previous"] is None
    assert [e["kind"] for e in page["results"]] == ["campaign.created", "player.assigned"]
    everything = _events(alice, skirmish)["results"]
    assert [e["kind"] for e in everything][-1] == "campaign.started"
    assert all("seq" not in e for e in everything)
    assert {e["uid"] for e in everything} == {
        str(u) for u in Event.objects.values_list("uid", flat=True)
    }
    assert everything[1]["text"] == "olga joins Red"


def test_the_history_hides_the_other_sides_events(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    kinds = {
        name: [e["kind"] for e in _events(client_for(name), skirmish)["results"]]
        for name in ("alice", "bob", "carol", "rita")
    }
    assert kinds["alice"][-2:] == ["skirmish.supply", "dice.rolled"]
    assert kinds["rita"] == kinds["alice"]
    assert "skirmish.supply" not in kinds["bob"] and "dice.rolled" not in kinds["bob"]
    assert kinds["carol"] == kinds["bob"]


def test_proposal_references_are_uids_in_the_history(skirmish, people, client_for):
    supply = submit(skirmish, people["alice"], "skirmish.supply").events[0]
    proposal = submit(
        skirmish, people["alice"], "proposal.made", {"action": "undo", "target": str(supply.uid)}
    )
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    history = {e["kind"]: e for e in _events(client_for("alice"), skirmish)["results"]}
    assert history["proposal.made"]["data"]["target"] == str(supply.uid)
    assert history["proposal.approved"]["data"]["proposal"] == str(proposal.events[0].uid)
    assert history["proposal.applied"]["data"]["proposal"] == str(proposal.events[0].uid)
    assert history["skirmish.supply"]["undone"] is True


# --- submitting ------------------------------------------------------------------------------


def test_submitting_an_event_answers_with_its_events_and_my_new_state(skirmish, client_for):
    response = post(
        client_for("alice"), f"/api/v1/campaigns/{skirmish.pk}/events/", {"kind": "skirmish.supply"}
    )
    assert response.status_code == 201
    body = response.json()
    assert [(e["kind"], e["side"], e["audience"]) for e in body["events"]] == [
        ("skirmish.supply", "red", "side"),
        ("dice.rolled", "red", "side"),
    ]
    assert body["replayed"] is False
    assert body["state"]["game"]["sides"]["red"]["done"] == ["supply:0"]
    assert set(body["state"]["game"]["sides"]) == {"red"}


def test_the_referee_acts_for_a_named_side(skirmish, client_for):
    response = post(
        client_for("rita"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "side": "blue"},
    )
    assert response.status_code == 201 and response.json()["events"][0]["side"] == "blue"


def test_bad_submissions_name_the_field_and_change_nothing(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    alice = client_for("alice")
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    before = Event.objects.count()
    cases = [
        ({}, "kind"),
        ({"kind": "skirmish.teleport"}, "kind"),
        ({"kind": "skirmish.buy"}, "count"),
        ({"kind": "skirmish.buy", "data": {"count": 0}}, "count"),
        ({"kind": "skirmish.buy", "data": {"count": 3}}, "count"),  # at most 2 per round
        ({"kind": "skirmish.buy", "data": {"count": 1, "colour": "red"}}, "colour"),
        ({"kind": "skirmish.buy", "data": "one"}, "data"),
        ({"kind": "skirmish.supply", "expected_version": -1}, "expected_version"),
        ({"kind": "skirmish.supply", "dice": {"k": "six"}}, "dice"),
        ({"kind": "skirmish.supply", "idempotency_key": "x" * 81}, "idempotency_key"),
        (
            {
                "kind": "dice.rolled",
                "data": {"key": "k", "expr": "1d6", "dice": [6], "source": "server"},
            },
            "kind",
        ),
        ({"kind": "sealed.submitted", "data": {"key": "stance:0", "choice": "attack"}}, "key"),
        ({"kind": "proposal.made", "data": {"action": "undo", "target": "not-a-uid"}}, "target"),
        ({"kind": "proposal.approved", "data": {"proposal": str(uuid.uuid4())}}, "proposal"),
        # The API names events by uid only (sequence numbers would count hidden events):
        ({"kind": "proposal.made", "data": {"action": "undo", "target": 7}}, "target"),
        ({"kind": "proposal.approved", "data": {"proposal": 8}}, "proposal"),
    ]
    for data, field in cases:
        response = post(alice, url, data)
        assert response.status_code == 400, (data, response.json())
        # Field errors are flat: nested fields are named by their dotted path ("dice.k").
        assert any(
            key == field or key.startswith((f"{field}.", f"{field}[")) for key in response.json()
        ), (data, response.json())
    long_header = post(
        alice, url, {"kind": "skirmish.buy", "data": {"count": 1}}, HTTP_IDEMPOTENCY_KEY="k" * 81
    )
    assert long_header.status_code == 400 and "idempotency_key" in long_header.json()
    assert Event.objects.count() == before


def test_a_side_cannot_act_for_another_and_a_bystander_not_at_all(skirmish, client_for):
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    before = Event.objects.count()
    assert (
        post(client_for("alice"), url, {"kind": "skirmish.supply", "side": "blue"}).status_code
        == 403
    )
    assert post(client_for("carol"), url, {"kind": "skirmish.supply"}).status_code == 403
    assert (
        post(
            client_for("bob"), url, {"kind": "campaign.finished", "data": {"reason": "bored"}}
        ).status_code
        == 403
    )
    assert post(client_for("outsider"), url, {"kind": "skirmish.supply"}).status_code == 404
    assert post(client_for("anonymous"), url, {"kind": "skirmish.supply"}).status_code == 403
    assert Event.objects.count() == before


def test_the_same_idempotency_key_appends_once(skirmish, client_for):
    alice = client_for("alice")
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    first = post(alice, url, {"kind": "skirmish.supply", "idempotency_key": "roll-1"})
    again = post(alice, url, {"kind": "skirmish.supply", "idempotency_key": "roll-1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["replayed"] is True
    assert [e["uid"] for e in again.json()["events"]] == [first.json()["events"][0]["uid"]]
    assert Event.objects.filter(kind="skirmish.supply").count() == 1
    assert again.json()["state"] == first.json()["state"]


def test_the_idempotency_key_header_works_like_the_field(skirmish, client_for):
    alice = client_for("alice")
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    first = post(alice, url, {"kind": "skirmish.supply"}, HTTP_IDEMPOTENCY_KEY="roll-2")
    again = post(alice, url, {"kind": "skirmish.supply", "idempotency_key": "roll-2"})
    assert (first.status_code, again.status_code) == (201, 200)
    clash = post(
        alice, url, {"kind": "skirmish.supply", "idempotency_key": "a"}, HTTP_IDEMPOTENCY_KEY="b"
    )
    assert clash.status_code == 400 and "idempotency_key" in clash.json()
    assert Event.objects.filter(kind="skirmish.supply").count() == 1


def test_someone_elses_idempotency_key_is_a_fresh_key(skirmish, client_for):
    """A key belongs to whoever sent it. Bob reusing Alice's key learns nothing:
    an invalid event is answered exactly as with a key nobody used, a valid one is his own."""
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    alice, bob = client_for("alice"), client_for("bob")
    first = post(alice, url, {"kind": "skirmish.supply", "idempotency_key": "allied-step-1"})
    assert first.status_code == 201
    invalid = {"kind": "no.such.kind", "data": {}}
    reused = post(bob, url, {**invalid, "idempotency_key": "allied-step-1"})
    fresh = post(bob, url, {**invalid, "idempotency_key": "never-used-1"})
    assert reused.status_code == fresh.status_code == 400
    assert reused.json() == fresh.json() and "idempotency_key" not in reused.json()
    header = post(bob, url, invalid, HTTP_IDEMPOTENCY_KEY="allied-step-1")
    assert (header.status_code, header.json()) == (fresh.status_code, fresh.json())
    mine = post(bob, url, {"kind": "skirmish.supply", "idempotency_key": "allied-step-1"})
    assert mine.status_code == 201 and mine.json()["replayed"] is False
    assert mine.json()["events"][0]["uid"] != first.json()["events"][0]["uid"]
    assert mine.json()["events"][0]["side"] == "blue"
    again = post(alice, url, {"kind": "skirmish.supply", "idempotency_key": "allied-step-1"})
    assert (
        again.status_code == 200
        and again.json()["events"][0]["uid"] == first.json()["events"][0]["uid"]
    )
    assert Event.objects.filter(kind="skirmish.supply").count() == 2


def test_a_stale_version_of_my_own_stream_is_a_conflict(skirmish, client_for):
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    alice, olga, bob = client_for("alice"), client_for("olga"), client_for("bob")
    red = (
        alice.get(f"/api/v1/campaigns/{skirmish.pk}/state/")
        .json()["state"]["streams"]
        .get("side:red", 0)
    )
    # Blue working meanwhile does not make red stale:
    assert post(bob, url, {"kind": "skirmish.supply"}).status_code == 201
    assert post(alice, url, {"kind": "skirmish.supply", "expected_version": red}).status_code == 201
    # Red's own stream moved (supply + its dice): olga, on red, acted on the old version.
    before = Event.objects.count()
    stale = post(olga, url, {"kind": "skirmish.buy", "data": {"count": 1}, "expected_version": red})
    assert stale.status_code == 409
    assert stale.json()["current_version"] == red + 2
    assert Event.objects.count() == before
    fresh = post(
        olga, url, {"kind": "skirmish.buy", "data": {"count": 1}, "expected_version": red + 2}
    )
    assert fresh.status_code == 201


def test_dice_rolled_at_the_table_are_asked_for_then_used(club, people, client_for):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club,
        user=olga,
        system="skirmish",
        variant="short",
        name="Table",
        options={"dice_mode": "entered"},
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    url = f"/api/v1/campaigns/{campaign.pk}/events/"
    asked = post(client_for("alice"), url, {"kind": "skirmish.supply"})
    assert asked.status_code == 400
    assert asked.json()["dice_needed"] == [{"key": "0/supply/red", "expr": "1d6"}]
    assert "dice" in asked.json()
    done = post(
        client_for("alice"), url, {"kind": "skirmish.supply", "dice": {"0/supply/red": [5]}}
    )
    assert done.status_code == 201
    assert done.json()["events"][1]["data"] == {
        "key": "0/supply/red",
        "expr": "1d6",
        "dice": [5],
        "source": "entered",
    }


def test_nobody_enters_dice_where_muster_rolls_them(skirmish, client_for):
    """A server-dice campaign never takes a player's own faces for their roll."""
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    before = Event.objects.count()
    chosen = post(
        client_for("alice"), url, {"kind": "skirmish.supply", "dice": {"0/supply/red": [6]}}
    )
    assert chosen.status_code == 400
    assert chosen.json() == {"dice": ["Muster rolls this campaign's dice: none can be entered."]}
    assert Event.objects.count() == before
    rolled = post(client_for("alice"), url, {"kind": "skirmish.supply"})
    assert rolled.status_code == 201 and rolled.json()["events"][1]["data"]["source"] == "server"


def test_proposals_are_made_and_answered_by_uid(skirmish, people, client_for):
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    supply = post(client_for("alice"), url, {"kind": "skirmish.supply"}).json()["events"][0]
    made = post(
        client_for("alice"),
        url,
        {"kind": "proposal.made", "data": {"action": "undo", "target": supply["uid"]}},
    )
    assert made.status_code == 201
    proposal = made.json()["events"][0]
    assert proposal["audience"] == "side" and proposal["data"]["target"] == supply["uid"]
    # Bob cannot name red's secret event, but can answer the (hidden) proposal:
    undo = {"action": "undo", "target": supply["uid"]}
    hidden = post(client_for("bob"), url, {"kind": "proposal.made", "data": undo})
    assert hidden.json() == {"target": ["No such earlier event."]}
    bob_view = (
        client_for("bob")
        .get(f"/api/v1/campaigns/{skirmish.pk}/state/")
        .json()["state"]["proposals"]
    )
    assert bob_view[proposal["uid"]]["hidden"] is True
    approved = post(
        client_for("bob"), url, {"kind": "proposal.approved", "data": {"proposal": proposal["uid"]}}
    )
    assert approved.status_code == 201
    assert [e["kind"] for e in approved.json()["events"]] == [
        "proposal.approved",
        "proposal.applied",
    ]
    assert approved.json()["events"][0]["data"] == {"proposal": proposal["uid"]}
    red = client_for("alice").get(f"/api/v1/campaigns/{skirmish.pk}/state/").json()["state"]
    assert red["game"]["sides"]["red"]["rolls"] == []


# --- export ----------------------------------------------------------------------------------


def test_a_player_exports_their_sides_journal(skirmish, people, client_for):
    submit(skirmish, people["bob"], "skirmish.supply")
    submit(skirmish, people["alice"], "skirmish.supply")
    journal = client_for("alice").get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()
    assert journal["format"] == "muster.journal" and journal["scope"] == "side:red"
    assert all("seq" not in e for e in journal["events"])
    assert {e["side"] for e in journal["events"] if e["audience"] == "side"} == {"red"}
    club_only = client_for("carol").get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()
    assert club_only["scope"] == "side:club" and {e["audience"] for e in club_only["events"]} == {
        "public"
    }


def test_the_referee_exports_everything(skirmish, people, client_for):
    submit(skirmish, people["bob"], "skirmish.supply")
    journal = client_for("rita").get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()
    assert journal["scope"] == "full"
    # The versions it was written under, as the page's file says: a replay never takes it for an older file.
    assert journal["journals"] == {"core": versions.CORE_VERSION, "skirmish": 1}
    assert journal["muster"] == versions.release()
    assert [e["seq"] for e in journal["events"]] == list(range(1, Event.objects.count() + 1))


def test_the_organizer_exports_everything_once_every_side_agreed(skirmish, people, client_for):
    olga = client_for("olga")
    assert olga.get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()["scope"] == "side:red"
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"
    proposal = post(olga, url, {"kind": "proposal.made", "data": {"action": "export"}}).json()[
        "events"
    ][0]
    post(
        client_for("bob"), url, {"kind": "proposal.approved", "data": {"proposal": proposal["uid"]}}
    )
    assert olga.get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()["scope"] == "full"
    assert (
        client_for("alice").get(f"/api/v1/campaigns/{skirmish.pk}/export/").json()["scope"]
        == "side:red"
    )


def test_strangers_export_nothing(skirmish, client_for):
    assert client_for("outsider").get(f"/api/v1/campaigns/{skirmish.pk}/export/").status_code == 404
