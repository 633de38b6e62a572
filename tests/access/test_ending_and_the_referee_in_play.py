"""Who ends a campaign, takes its referee off, or settles a dispute: every cell, page and API,
before and after the start, for each kind of organizer.

The rule (docs/architecture.md, "Seats" and "The club's neutral party"): before the start any
organizer ends the campaign or takes the referee off. Once play has started the referee and the
club's neutral party (an organizer who plays no side and never has, an organizer since the start,
not made organizer while the campaign was set up by one who went on to play a side of it) do it
directly; anyone else who may organize proposes it, and it applies once every side but their own
agrees, or the referee. Only the referee and the neutral party settle a dispute, and the Settle
to-do is drawn for exactly them.

The campaign (Skirmish: red and blue): red is olga and alice, blue is bob, rita referees. The
organizers who act: olga (plays red), nora (an organizer from before the campaign: neutral), pia
(made organizer by olga while the campaign was set up: red's choice of judge).
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns.access import permissions, visibility
from campaigns.errors import DomainError, Forbidden
from campaigns.models import ClubLogEntry
from campaigns.selectors.campaign_page import campaign_page
from campaigns.services import campaigns as svc, clubs
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from tests.factories import MembershipFactory, UserFactory

DIRECT = ()
ORGANIZERS = ("olga", "nora", "pia")
WHO = {"olga": "plays red", "nora": "neutral", "pia": "made by red's player in setup"}
# In play: the sides whose agreement each organizer's end / referee removal waits for. Written out.
IN_PLAY = {"olga": ("blue",), "nora": DIRECT, "pia": ("red", "blue")}
SETTLES = {"olga": False, "nora": True, "pia": False, "rita": True}
PLAYERS = {"red": "alice", "blue": "bob"}


def _campaign(club, people, *, started: bool, disputed: bool = False):
    olga = people["olga"]
    nora = UserFactory(username="nora")
    MembershipFactory(club=club, user=nora, role="organizer")
    pia = UserFactory(username="pia")
    MembershipFactory(club=club, user=pia, role="player")
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Ending"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    clubs.set_role(club=club, user=olga, member_username="pia", role="organizer")  # in setup
    if started:
        submit(campaign, olga, "campaign.started")
    if disputed:
        for who in ("alice", "bob"):
            submit(campaign, people[who], "skirmish.supply")
        submit(
            campaign, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"}
        )
        submit(campaign, people["bob"], "sealed.submitted", {"key": "stance:0", "choice": "hold"})
        submit(
            campaign,
            people["alice"],
            "result.submitted",
            {"scenario": 0, "data": {"red": 3, "blue": 1}},
        )
        submit(campaign, people["bob"], "result.disputed", {"scenario": 0, "reason": "It was 1-3"})
    campaign.refresh_from_db()
    return campaign


def _user(campaign, name):
    return campaign.club.memberships.get(user__username=name).user


def _state(campaign):
    campaign.refresh_from_db()
    return current_state(campaign)


def _send(door, campaign, name, action):
    """Post `action` ("end" or "no referee") as `name` through `door`: (the answer, the client)."""
    user = _user(campaign, name)
    if door == "page":
        client = Client()
        client.force_login(user)
        tail, body = {
            "end": ("setup/finish/", {"reason": "Called off"}),
            "no referee": ("setup/referee/", {"username": ""}),
        }[action]
        return client.post(f"/campaigns/{campaign.pk}/{tail}", body), client
    client = APIClient()
    client.force_login(user)
    tail, body = {
        "end": ("finish/", {"reason": "Called off"}),
        "no referee": ("referee/", {"username": None}),
    }[action]
    return client.post(f"/api/v1/campaigns/{campaign.pk}/{tail}", body, format="json"), client


def _done(state, action) -> bool:
    return state["status"] == "finished" if action == "end" else state["referee"] is None


CASES = [
    (door, started, action, name)
    for door in ("page", "api")
    for started in (False, True)
    for action in ("end", "no referee")
    for name in ORGANIZERS
]


@pytest.mark.parametrize(
    "door,started,action,name",
    CASES,
    ids=[
        f"{d}-{'started' if s else 'setup'}-{a}-{n} ({WHO[n]})".replace(" ", "_")
        for d, s, a, n in CASES
    ],
)
def test_ending_and_taking_the_referee_off(club, people, door, started, action, name):
    campaign = _campaign(club, people, started=started)
    needs = IN_PLAY[name] if started else DIRECT
    answer, client = _send(door, campaign, name, action)
    assert answer.status_code in (200, 302), answer.content.decode()[:1000]
    state = _state(campaign)
    proposals = [p for p in state["proposals"].values() if p["action"] == "seat"]
    if needs == DIRECT:
        assert _done(state, action), f"{name} should {action} directly"
        assert not proposals
        return
    assert not _done(state, action), f"{name} did {action} without {needs} agreeing"
    assert len(proposals) == 1 and proposals[0]["status"] == "pending"
    proposal = proposals[0]
    assert tuple(proposal["needs"]) == needs and proposal["audience"] == "public"
    names = " and ".join(state["sides"][s]["name"] for s in needs)
    if door == "page":  # the organizer is told what it waits for, and every member sees it
        shown = client.get(answer["Location"]).content.decode().replace("&#x27;", "'")
        assert f"Waiting for {names}'s agreement; you can withdraw it" in shown
        what = "end the campaign" if action == "end" else "take the referee rita off"
        shown = client.get(f"/campaigns/{campaign.pk}/").content.decode().replace("&#x27;", "'")
        assert f"Waiting for:</strong> {names}'s agreement to {what}" in shown
    else:
        assert answer.json()["events"][0]["kind"] == "proposal.made"
    # The proposer's own side never agrees for another.
    if name == "olga":
        with pytest.raises(DomainError):
            submit(campaign, people["alice"], "proposal.approved", {"proposal": proposal["uid"]})
    # Each side it needs agrees (the last one's agreement applies it).
    for side in needs:
        assert not _done(_state(campaign), action)
        submit(campaign, people[PLAYERS[side]], "proposal.approved", {"proposal": proposal["uid"]})
    assert _done(_state(campaign), action), f"{action} should apply once {needs} agreed"
    assert ClubLogEntry.objects.filter(club=club, action="campaign.seat.agreed").count() == 1


@pytest.mark.parametrize("action", ["end", "no referee"])
def test_the_referee_agrees_for_every_side(club, people, action):
    campaign = _campaign(club, people, started=True)
    _send("api", campaign, "pia", action)
    uid = next(iter(_state(campaign)["proposals"].values()))["uid"]
    submit(campaign, people["rita"], "proposal.approved", {"proposal": uid})
    assert _done(_state(campaign), action)


@pytest.mark.parametrize("door", ["page", "api"])
def test_the_other_side_refuses_or_the_proposer_withdraws(club, people, door):
    """Whatever can be done can be undone: the proposal is withdrawn by its proposer, or refused
    by the side it waits for; the campaign plays on either way."""
    campaign = _campaign(club, people, started=True)
    _send(door, campaign, "olga", "end")
    first = next(iter(_state(campaign)["proposals"].values()))
    bob = Client()
    bob.force_login(people["bob"])
    shown = bob.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Agree to end the campaign" in shown and "Reject" in shown
    assert "your side's agreement to end the campaign" in shown.replace("&#x27;", "'")
    submit(campaign, people["bob"], "proposal.rejected", {"proposal": first["uid"]})
    assert _state(campaign)["status"] == "active"
    _send(door, campaign, "olga", "end")
    second = [p for p in _state(campaign)["proposals"].values() if p["status"] == "pending"][0]
    olga = Client()
    olga.force_login(people["olga"])
    assert "Withdraw the proposal" in olga.get(f"/campaigns/{campaign.pk}/").content.decode()
    submit(campaign, people["olga"], "proposal.rejected", {"proposal": second["uid"]})
    state = _state(campaign)
    assert state["status"] == "active" and {p["status"] for p in state["proposals"].values()} == {
        "rejected"
    }


@pytest.mark.parametrize("action", ["end", "no referee"])
def test_the_event_itself_is_refused_in_words(club, people, action):
    """Through the journal's own door (the API's events/), nobody skips the agreement."""
    campaign = _campaign(club, people, started=True)
    kind, data = (
        ("campaign.finished", {"reason": "Losing"})
        if action == "end"
        else ("referee.assigned", {"username": None})
    )
    with pytest.raises(DomainError) as refused:
        submit(campaign, people["olga"], kind, data)
    assert "does not" in refused.value.message and "Blue's agreement" in refused.value.message
    with pytest.raises(Forbidden) as refused:
        submit(campaign, _user(campaign, "pia"), kind, data)
    assert "no neutral party" in refused.value.message
    api = APIClient()
    api.force_login(people["olga"])
    answer = api.post(
        f"/api/v1/campaigns/{campaign.pk}/events/", {"kind": kind, "data": data}, format="json"
    )
    assert answer.status_code == 400 and "propose it" in str(answer.json()).lower()
    assert not _done(_state(campaign), action)


# --- settling a dispute ------------------------------------------------------------------------


@pytest.mark.parametrize("door", ["page", "api"])
@pytest.mark.parametrize("name", [*ORGANIZERS, "rita"])
def test_settle_is_offered_to_exactly_who_may_settle(club, people, door, name):
    campaign = _campaign(club, people, started=True, disputed=True)
    user = _user(campaign, name)
    if door == "page":
        client = Client()
        client.force_login(user)
        page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        offered = 'value="result.resolved"' in page
        answer = client.post(
            f"/campaigns/{campaign.pk}/submit/",
            {"_kind": "result.resolved", "scenario": "0", "data.red": "1", "data.blue": "3"},
        )
    else:
        client = APIClient()
        client.force_login(user)
        actions = client.get(f"/api/v1/campaigns/{campaign.pk}/actions/").json()
        listed = actions if isinstance(actions, list) else actions.get("results", actions)
        offered = "result.resolved" in str(listed)
        answer = client.post(
            f"/api/v1/campaigns/{campaign.pk}/events/",
            {"kind": "result.resolved", "data": {"scenario": 0, "data": {"red": 1, "blue": 3}}},
            format="json",
        )
    settled = _state(campaign)["scenarios"][0]["status"] == "played"
    assert offered == SETTLES[name] == settled, (offered, settled, answer.status_code)
    if not SETTLES[name]:
        assert answer.status_code == 403
    state = _state(campaign)
    viewer = visibility.viewer_for(user, campaign)
    assert permissions.may_settle(campaign, state, viewer) == SETTLES[name] or settled


def test_settle_before_the_start_is_nobody_s(club, people):
    campaign = _campaign(club, people, started=False)
    for name in ORGANIZERS:
        viewer = visibility.viewer_for(_user(campaign, name), campaign)
        assert not campaign_page(campaign, viewer).offered()
        with pytest.raises((DomainError, Forbidden)):
            submit(
                campaign,
                _user(campaign, name),
                "result.resolved",
                {"scenario": 0, "data": {"red": 1, "blue": 3}},
            )


# --- who made the organizer, and when ------------------------------------------------------------


def test_an_organizer_invited_as_organizer_by_a_player_in_setup_is_no_neutral_party(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="I"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    code = clubs.invite(club=club, user=olga, role="organizer").code
    judge = clubs.signup_with_invitation(code=code, username="judge", password="a long pass 77")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    state = _state(campaign)
    assert not permissions.neutral_organizer(
        campaign, state, visibility.viewer_for(judge, campaign)
    )
    assert svc.is_proposal(svc.finish_campaign(campaign, judge, reason="Done"))


def test_made_by_one_who_plays_no_side_or_before_the_campaign_is_neutral(club, people):
    """nora (neutral, plays nothing) makes carol organizer in setup; olga made pia organizer before
    the campaign was created: both are the club's neutral party in it."""
    olga = people["olga"]
    pia = UserFactory(username="pia")
    MembershipFactory(club=club, user=pia, role="player")
    clubs.set_role(club=club, user=olga, member_username="pia", role="organizer")
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="N"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    nora = UserFactory(username="nora")
    MembershipFactory(club=club, user=nora, role="organizer")
    clubs.set_role(club=club, user=nora, member_username="carol", role="organizer")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    state = _state(campaign)
    for who in (pia, people["carol"]):
        assert permissions.neutral_organizer(campaign, state, visibility.viewer_for(who, campaign))
    assert not svc.is_proposal(svc.finish_campaign(campaign, people["carol"], reason="Done"))
    assert _state(campaign)["status"] == "finished"


# --- journals of core v2 -------------------------------------------------------------------------


def test_a_core_v2_journal_keeps_the_ending_rule_it_was_written_under(club, people):
    """A journal is forever: under core v2 red's organizer ended the campaign directly. Such a
    file still replays (the old event folds under v2's rule); after the upgrade's marker the same
    ending is refused, naming whose agreement it needs."""
    import uuid

    from django.contrib.auth import get_user_model

    from campaigns import versions
    from campaigns.journal.engine import JournalError, fold
    from campaigns.journal.records import Record
    from campaigns.models import Campaign, Club
    from campaigns.services import journal_files
    from campaigns.services.state import load_records

    campaign = _campaign(club, people, started=True)
    document = journal_files.export_journal(campaign)
    last = document["events"][-1]
    document["events"].append(
        {
            **last,
            "seq": last["seq"] + 1,
            "uid": str(uuid.uuid4()),
            "kind": "campaign.finished",
            "actor": "olga",
            "side": "",
            "audience": "public",
            "data": {"reason": "We are losing"},
            "idempotency_key": None,
        }
    )
    document["journals"] = {**document["journals"], "core": 2}
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    answer = journal_files.replay_journal(document, create_club=True, create_people=True)
    replayed = answer.campaign
    assert answer.upgraded.start["core"] == 2 and replayed.journal_versions["core"] == 3
    records = load_records(replayed)
    assert [r.data["step"] for r in records if r.kind == versions.UPGRADED] == [
        "core-ending-needs-the-other-sides-agreement"
    ]
    upgraded = fold(records)
    assert upgraded["status"] == "finished" and upgraded["finish_reason"] == "We are losing"
    # The same journal without the v2 ending, and the ending after the marker: refused.
    kept = [r for r in records if r.kind != "campaign.finished"]
    again = Record(
        seq=records[-1].seq + 1,
        kind="campaign.finished",
        data={"reason": "We are losing"},
        actor="olga",
        at=records[-1].at,
        uid=str(uuid.uuid4()),
    )
    assert kept[-1].kind == versions.UPGRADED  # the marker: from here on, core v3's rule
    with pytest.raises(JournalError) as error:
        fold([*kept, again])
    assert "Blue's agreement" in str(error.value)


def test_nor_does_red_s_judge_take_blue_s_player_off(club, people):
    """The same neutrality holds for taking a side's player off alone (it is the neutral party's)."""
    campaign = _campaign(club, people, started=True)
    with pytest.raises(Forbidden) as refused:
        svc.remove_player(campaign, _user(campaign, "pia"), side="blue", username="bob")
    assert "no neutral party" in refused.value.message
    svc.remove_player(campaign, _user(campaign, "nora"), side="blue", username="bob")
    assert _state(campaign)["sides"]["blue"]["players"] == []
