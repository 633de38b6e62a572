"""Who may seat whom: every seating path × page and API × before and after the start × with and
without a referee × the organizer playing a side or none (against the puppet seat).

The rule (docs/architecture.md, "Seats"): once play has started, nobody gains a path to a side's
secrets without that side's agreement (one of its current players) or the referee's; one who
plays or has played a side never seats anyone on another side, nor takes another side's player
off, alone, and the other sides' approval never does for it. Before the start the organizer
seats people freely.

The campaign (Skirmish: red and blue): red is alice (and olga when the organizer plays), blue is
bob, rita referees (or nobody does), carol is a club member in no seat. The organizer olga acts.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns.access import visibility
from campaigns.errors import DomainError, Forbidden
from campaigns.models import ClubLogEntry
from campaigns.services import campaigns as svc, clubs
from campaigns.services.journal import submit
from campaigns.services.state import current_state

DIRECT = ()

# (action, what the door posts) -> the sides whose agreement it needs once play has started, for
# the organizer playing red and for one playing no side. Written out, not computed.
ACTIONS = {
    "add carol to blue": ("add", {"side": "blue", "username": "carol"}),
    "add carol to red": ("add", {"side": "red", "username": "carol"}),
    "replace bob (blue) by carol": ("replace", {"side": "blue", "old": "bob", "new": "carol"}),
    "replace alice (red) by carol": ("replace", {"side": "red", "old": "alice", "new": "carol"}),
    "take bob off blue": ("remove", {"side": "blue", "username": "bob"}),
    "take alice off red": ("remove", {"side": "red", "username": "alice"}),
    "the organizer leaves red": ("remove", {"side": "red", "username": "olga"}),
    "carol referees": ("referee", {"username": "carol"}),
    "no referee": ("referee", {"username": ""}),
}
IN_PLAY = {
    # the organizer plays red
    ("playing", "add carol to blue"): (
        "blue",
    ),  # the puppet: red's organizer seats a fresh account on blue
    ("playing", "add carol to red"): DIRECT,  # red agrees through its own player
    ("playing", "replace bob (blue) by carol"): ("blue",),
    ("playing", "replace alice (red) by carol"): DIRECT,
    ("playing", "take bob off blue"): ("blue",),
    ("playing", "take alice off red"): DIRECT,
    ("playing", "the organizer leaves red"): DIRECT,
    ("playing", "carol referees"): ("blue",),  # red agrees through its own player
    ("playing", "no referee"): ("blue",),  # red's organizer takes blue's judge off: blue agrees
    # the organizer plays no side (and never has)
    ("none", "add carol to blue"): ("blue",),
    ("none", "add carol to red"): ("red",),
    ("none", "replace bob (blue) by carol"): ("blue",),
    ("none", "replace alice (red) by carol"): ("red",),
    ("none", "take bob off blue"): DIRECT,  # takes nobody a step nearer a side's secrets
    ("none", "take alice off red"): DIRECT,
    ("none", "carol referees"): ("red", "blue"),
    ("none", "no referee"): DIRECT,
}
PAGE = {
    "add": "setup/players/",
    "remove": "setup/players/remove/",
    "replace": "setup/players/replace/",
    "referee": "setup/referee/",
}
API = {
    "add": "players/",
    "remove": "players/remove/",
    "replace": "players/replace/",
    "referee": "referee/",
}
PLAYERS = {"red": "alice", "blue": "bob"}  # a player of each side who is not the organizer


def _campaign(club, people, *, organizer: str, referee: bool, started: bool):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Matrix"
    )
    if organizer == "playing":
        svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    if referee:
        svc.assign_referee(campaign, olga, username="rita")
    if started:
        submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    return campaign


def _state(campaign):
    campaign.refresh_from_db()
    return current_state(campaign)


def _seats(state):
    return {slug: list(side["players"]) for slug, side in state["sides"].items()}, state["referee"]


def _send(door, campaign, action, data):
    kind, body = ACTIONS[action]
    if door == "page":
        client = Client()
        client.force_login(campaign.club.memberships.get(user__username="olga").user)
        answer = client.post(f"/campaigns/{campaign.pk}/{PAGE[kind]}", body)
        assert answer.status_code in (302, 303), answer.content.decode()[:2000]
    else:
        client = APIClient()
        client.force_login(campaign.club.memberships.get(user__username="olga").user)
        if kind == "referee":
            body = {"username": body["username"] or None}
        answer = client.post(f"/api/v1/campaigns/{campaign.pk}/{API[kind]}", body, format="json")
        assert answer.status_code in (200, 201), answer.json()
    return kind, body


def _applied(state, kind, body) -> bool:
    sides, referee = _seats(state)
    if kind == "add":
        return body["username"] in sides[body["side"]]
    if kind == "remove":
        return body["username"] not in sides[body["side"]]
    if kind == "replace":
        return body["new"] in sides[body["side"]] and body["old"] not in sides[body["side"]]
    return referee == (body["username"] or None)


CASES = [
    (door, organizer, referee, started, action)
    for door in ("page", "api")
    for organizer in ("playing", "none")
    for referee in (True, False)
    for started in (False, True)
    for action in ACTIONS
    if not (organizer == "none" and action == "the organizer leaves red")
    and not (action == "no referee" and not referee)
]


@pytest.mark.parametrize(
    "door,organizer,referee,started,action",
    CASES,
    ids=[
        "-".join(
            [
                c[0],
                f"organizer {c[1]}",
                "referee" if c[2] else "no referee",
                "started" if c[3] else "setup",
                c[4],
            ]
        )
        for c in CASES
    ],
)
def test_each_seating_path_is_direct_or_needs_the_sides_it_reaches(
    club, people, door, organizer, referee, started, action
):
    campaign = _campaign(club, people, organizer=organizer, referee=referee, started=started)
    needs = IN_PLAY[(organizer, action)] if started else DIRECT
    before = _seats(_state(campaign))
    kind, body = _send(door, campaign, action, ACTIONS[action][1])
    state = _state(campaign)
    proposals = [p for p in state["proposals"].values() if p["action"] == "seat"]
    if needs == DIRECT:
        assert _applied(state, kind, body), f"{action} should be done directly"
        assert not proposals
        return
    # Not done: a seat proposal every side sees, needing exactly the sides reached.
    assert _seats(state) == before, f"{action} was done without {needs} agreeing"
    assert (
        len(proposals) == 1
        and proposals[0]["status"] == "pending"
        and proposals[0]["audience"] == "public"
    )
    proposal = proposals[0]
    assert tuple(proposal["needs"]) == needs
    assert ClubLogEntry.objects.filter(club=club, action="campaign.seat.proposed").count() == 1
    # The other side's approval never does; the organizer's own side never agrees for another.
    for other in [s for s in ("red", "blue") if s not in needs]:
        with pytest.raises(DomainError):
            submit(
                campaign, people[PLAYERS[other]], "proposal.approved", {"proposal": proposal["uid"]}
            )
    if organizer == "playing" and "red" not in needs:
        with pytest.raises(DomainError):
            submit(campaign, people["olga"], "proposal.approved", {"proposal": proposal["uid"]})
    assert _seats(_state(campaign)) == before
    if referee:  # the referee's word does for every side
        submit(campaign, people["rita"], "proposal.approved", {"proposal": proposal["uid"]})
    else:
        for side in needs:
            submit(
                campaign, people[PLAYERS[side]], "proposal.approved", {"proposal": proposal["uid"]}
            )
    state = _state(campaign)
    assert _applied(state, kind, body), f"{action} should apply once {needs} agreed"
    assert ClubLogEntry.objects.filter(club=club, action="campaign.seat.agreed").count() == 1


@pytest.mark.parametrize("door", ["page", "api"])
def test_a_fresh_account_seated_by_the_other_sides_organizer_reads_nothing(club, people, door):
    """The attack as found: the organizer playing red invites a new account and seats it on blue."""
    olga = people["olga"]
    campaign = _campaign(club, people, organizer="playing", referee=False, started=True)
    invitation = clubs.invite(club=club, user=olga)
    clubs.signup_with_invitation(code=invitation.code, username="puppet", password="pass-word-123")
    puppet = club.memberships.get(user__username="puppet").user
    if door == "page":
        client = Client()
        client.force_login(olga)
        answer = client.post(
            f"/campaigns/{campaign.pk}/setup/players/",
            {"side": "blue", "username": "puppet"},
            follow=True,
        )
        assert answer.status_code == 200
        assert "Proposed: it applies once Blue agrees (or the referee)." in answer.content.decode()
    else:
        client = APIClient()
        client.force_login(olga)
        answer = client.post(
            f"/api/v1/campaigns/{campaign.pk}/players/",
            {"side": "blue", "username": "puppet"},
            format="json",
        )
        assert answer.status_code == 201 and answer.json()["events"][0]["kind"] == "proposal.made"
    campaign.refresh_from_db()
    assert "puppet" not in _state(campaign)["sides"]["blue"]["players"]
    viewer = visibility.viewer_for(puppet, campaign)
    assert not viewer.can_read("side", "blue") and not viewer.playing
    puppet_client = APIClient()
    puppet_client.force_login(puppet)
    assert puppet_client.get(f"/api/v1/campaigns/{campaign.pk}/state/").status_code == 200
    exported = puppet_client.get(f"/api/v1/campaigns/{campaign.pk}/export/").json()
    assert exported["events"] and {e["audience"] for e in exported["events"]} == {"public"}
    # Nor by the event itself, nor by red's approval.
    with pytest.raises(DomainError):
        submit(campaign, olga, "player.assigned", {"side": "blue", "username": "puppet"})
    with pytest.raises(DomainError):
        submit(campaign, olga, "player.replaced", {"side": "blue", "old": "bob", "new": "puppet"})
    with pytest.raises(DomainError):
        submit(campaign, olga, "player.removed", {"side": "blue", "username": "bob"})


def test_one_who_played_a_side_never_seats_on_another_alone(club, people):
    """Olga played red and left it: she plays nothing now, but still seats nobody on blue alone,
    nor takes blue's player off."""
    olga = people["olga"]
    campaign = _campaign(club, people, organizer="playing", referee=False, started=True)
    svc.remove_player(campaign, olga, side="red", username="olga")
    assert svc.is_proposal(svc.assign_player(campaign, olga, side="blue", username="carol"))
    assert svc.is_proposal(svc.remove_player(campaign, olga, side="blue", username="bob"))
    assert _seats(_state(campaign))[0] == {"red": ["alice"], "blue": ["bob"]}


def test_a_side_with_nobody_left_is_agreed_for_by_its_last_player(club, people):
    """Blue's only player leaves and there is no referee: bob, who left, agrees for blue to the
    next seat there; the change is a proposal every side sees and is in the club log."""
    olga, bob = people["olga"], people["bob"]
    campaign = _campaign(club, people, organizer="playing", referee=False, started=True)
    made = svc.remove_player(campaign, olga, side="blue", username="bob")
    submit(
        campaign, bob, "proposal.approved", {"proposal": str(made.events[0].uid)}
    )  # bob agrees to leave
    assert _state(campaign)["sides"]["blue"]["players"] == []
    made = svc.assign_player(campaign, olga, side="blue", username="carol")
    assert svc.is_proposal(made)
    proposal = _state(campaign)["proposals"][str(made.events[0].seq)]
    assert proposal["needs"] == ["blue"] and proposal["audience"] == "public"
    with pytest.raises(DomainError):  # red never agrees for blue
        submit(
            campaign, people["alice"], "proposal.approved", {"proposal": str(made.events[0].uid)}
        )
    with pytest.raises(DomainError):
        submit(campaign, olga, "proposal.approved", {"proposal": str(made.events[0].uid)})
    # bob plays no side any more and is no organizer: the page offers him the agreement all the same.
    page = Client()
    page.force_login(bob)
    assert (
        "Agree to seat carol with Blue" in page.get(f"/campaigns/{campaign.pk}/").content.decode()
    )
    submit(campaign, bob, "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert _state(campaign)["sides"]["blue"]["players"] == ["carol"]
    agreed = ClubLogEntry.objects.get(
        club=club, action="campaign.seat.agreed", detail__username="carol"
    )
    assert agreed.detail["stand_ins"] == {"blue": "bob"} and agreed.detail["proposed_by"] == "olga"
    # Once blue has a player again, bob speaks for it no more.
    made = svc.assign_player(campaign, olga, side="blue", username="rita")
    with pytest.raises(Forbidden):  # a member in no seat, standing in for nothing
        submit(campaign, bob, "proposal.approved", {"proposal": str(made.events[0].uid)})


def test_the_matrix_holds_on_replay(club, people):
    """A journal file is held to the rule too: red's organizer seating someone on blue directly
    is refused when the file is replayed (the fold checks who acted)."""
    from campaigns.journal.engine import JournalError, fold
    from campaigns.journal.records import Record

    campaign = _campaign(club, people, organizer="playing", referee=False, started=True)
    from campaigns.services.state import load_records

    records = load_records(campaign)
    last = records[-1]
    forged = Record(
        seq=last.seq + 1,
        kind="player.assigned",
        data={"side": "blue", "username": "carol"},
        actor="olga",
        at=last.at,
        uid="00000000-0000-4000-8000-000000000001",
    )
    with pytest.raises(JournalError) as error:
        fold([*records, forged])
    assert "Blue's agreement" in str(error.value)


def test_a_core_v1_journal_keeps_the_seat_rule_it_was_written_under(club, people):
    """A journal is forever: under core v1 red's organizer seated a newcomer on blue directly.
    Such a file still replays (the old event folds under v1's rule); after the upgrade's marker
    the same seating is refused."""
    import uuid

    from django.contrib.auth import get_user_model

    from campaigns import versions
    from campaigns.journal.engine import JournalError, fold
    from campaigns.journal.records import Record
    from campaigns.models import Campaign, Club
    from campaigns.services import journal_files
    from campaigns.services.state import load_records

    campaign = _campaign(club, people, organizer="playing", referee=False, started=True)
    document = journal_files.export_journal(campaign)
    last = document["events"][-1]
    document["events"].append(
        {
            **last,
            "seq": last["seq"] + 1,
            "uid": str(uuid.uuid4()),
            "kind": "player.assigned",
            "actor": "olga",
            "side": "",
            "audience": "public",
            "data": {"side": "blue", "username": "carol"},
            "idempotency_key": None,
        }
    )
    document["journals"] = {**document["journals"], "core": 1}
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    answer = journal_files.replay_journal(document, create_club=True, create_people=True)
    replayed = answer.campaign
    assert (
        answer.upgraded.start["core"] == 1
        and replayed.journal_versions["core"] == versions.CORE_VERSION
    )
    assert _state(replayed)["sides"]["blue"]["players"] == ["bob", "carol"]
    records = load_records(replayed)
    assert [r.data["step"] for r in records if r.kind == versions.UPGRADED] == [
        "core-seat-needs-the-sides-agreement",
        "core-ending-needs-the-other-sides-agreement",
    ]
    again = Record(
        seq=records[-1].seq + 1,
        kind="player.assigned",
        data={"side": "blue", "username": "rita"},
        actor="olga",
        at=records[-1].at,
        uid=str(uuid.uuid4()),
    )
    with pytest.raises(JournalError):
        fold([*records, again])
