"""A Rifles in the Ardennes campaign through the existing generic API endpoints: the system's
declaration, events (squad, missions, entered dice asked for in words, refusals naming the
field), state, odds, roster and export."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaigns.services.odds import compute

from .harness import GERMAN_BOOK_SQUAD, GRENADES, Squad


@pytest.fixture
def api(people):
    def make(name):
        client = APIClient()
        client.force_login(people[name])
        return client

    return make


def test_the_squad_played_through_the_api(club, people, api):
    squad = Squad(club, people)
    alice, carol = api("alice"), api("carol")
    base = f"/api/v1/campaigns/{squad.campaign.pk}/"

    def send(kind, data=None, dice=None, client=alice):
        body = {"kind": kind, "data": data or {}}
        if dice:
            body["dice"] = dice
        return client.post(base + "events/", body, format="json")

    system = alice.get("/api/v1/systems/rifles_ardennes/").json()
    assert [s["slug"] for s in system["sides"]] == ["squad"]
    assert {k["name"] for k in system["event_kinds"]} >= {
        "rifles.squad",
        "rifles.xp",
        "rifles.casualties",
    }
    assert all(
        f["type"] != "json"
        for k in system["event_kinds"]
        if k["name"].startswith("rifles.")
        for f in k["fields"]
    )

    over = GERMAN_BOOK_SQUAD + [{"letter": "K", "unit": "lmg", "designation": "Gunner"}]
    refused = send("rifles.squad", {"soldiers": over, "equipment": GRENADES})
    assert refused.status_code == 400
    assert refused.json()["soldiers"] == [
        "The squad costs 13 AP (units 12, equipment 1); the Germans may spend at most 10 AP (2.2)."
    ]
    assert (
        send("rifles.squad", {"soldiers": GERMAN_BOOK_SQUAD, "equipment": GRENADES}).status_code
        == 201
    )
    assert (
        send("rifles.mission", {"mission": 0, "name": "Mission 01", "game_turns": 10}).status_code
        == 201
    )
    weber, lang = squad.sid("D"), squad.sid("G")
    logged = alice.post(
        base + "events/",
        {
            "kind": "result.submitted",
            "data": {
                "scenario": 0,
                "data": {"outcome": "lost", "turns_used": 10, "eliminated": [weber, lang]},
            },
        },
        format="json",
    )
    assert logged.status_code == 201  # solitaire: confirmed at once
    assert send("rifles.xp").json()["dice_needed"] == [{"key": "mission1/8.4/xp", "expr": "1d6"}]
    assert send("rifles.xp", dice={"mission1/8.4/xp": [6]}).status_code == 201

    squad.campaign.refresh_from_db()
    compute(
        squad.campaign, "squad"
    )  # the odds task's work (after commit, which a test transaction never reaches)
    (odds,) = alice.get(base + "odds/").json()
    assert odds["side"] == "squad" and odds["status"] == "ready"
    assert [r["label"] for r in odds["rolls"]] == [
        "Casualty roll for Pvt. Weber (D)",
        "Casualty roll for Pvt. Lang (G)",
    ]

    done = send(
        "rifles.casualties", dice={f"mission1/8.3/{weber}": [1], f"mission1/8.3/{lang}": [4]}
    )
    assert done.status_code == 201
    texts = [e["text"] for e in done.json()["events"]]
    assert (
        "Casualty roll for Pvt. Weber (D): dr 1 − 1 (mission lost) = 0 → dead (entered from the table)"
        in texts
    )

    state = carol.get(base + "state/").json()[
        "state"
    ]  # a club member who does not play: the squad is public
    squad_now = state["game"]["public"]["squad"]
    assert {s["name"]: s["status"] for s in squad_now["soldiers"]}["Pvt. Weber"] == "dead"
    roster = carol.get(base + "roster/").json()
    entries = roster["results"] if isinstance(roster, dict) else roster
    assert {e["name"]: e["status"] for e in entries}["Pvt. Lang (G), Rifle"] == "wounded"
    exported = alice.get(base + "export/")
    assert exported.status_code == 200
