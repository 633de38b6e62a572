"""Who may do what, through both doors: every kind of viewer × every stage of a campaign, the
campaign page (HTML) and the API (JSON) offer exactly what campaigns.access.permissions answers, and
that answer is the one written here by hand.

Viewers: alice (red), bob (blue), rita (referee), olga (organizer who plays red), nora (an
organizer since before the start who plays nothing), fred (an organizer who played blue and left
it), pia (a member made organizer once play had started), carol (a club member playing nothing), outsider
(no member). Stages: before the start, in play with a proposal pending (alice's late house rule),
a provisional result (alice's), that result disputed (by bob), finished.

Before campaigns.access.permissions the doors disagreed: the API's /actions/ listed no Reject or
Withdraw of a proposal, and Settle was drawn (page and API) for pia, whom the journal service
then refused with a 403.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns.access import permissions
from campaigns.errors import NotFound
from campaigns.selectors.campaign_page import campaign_for, campaign_page
from campaigns.services import campaigns as svc, clubs
from campaigns.services.journal import submit
from campaigns.systems.base import Action
from campaigns.views.actions import stable_id
from tests.factories import MembershipFactory, UserFactory

VIEWERS = ("alice", "bob", "rita", "olga", "nora", "fred", "pia", "carol", "outsider")
STAGES = ("before start", "proposal pending", "provisional result", "dispute", "finished")

NOTE, APPROVE, REJECT = "note.added", "proposal.approved", "proposal.rejected"
CONFIRM, DISPUTE, WITHDRAW, SETTLE = (
    "result.confirmed",
    "result.disputed",
    "result.withdrawn",
    "result.resolved",
)
NOTHING: set = set()
NOT_FOUND = None  # the campaign does not exist for this viewer (404 on both doors)

# The core's to-dos each viewer is offered at each stage (the game's own, skirmish.*, are
# compared between the doors but not listed here). A Withdraw of one's own proposal is a
# proposal.rejected too.
EXPECTED = {
    "before start": {**dict.fromkeys(VIEWERS, NOTHING), "outsider": NOT_FOUND},
    "proposal pending": {
        "alice": {NOTE, REJECT},  # her own proposal: withdraw it
        "olga": {NOTE},  # red proposed: red's agreement is not asked
        "bob": {NOTE, APPROVE, REJECT},
        "rita": {NOTE, APPROVE, REJECT},
        "nora": NOTHING,
        "fred": NOTHING,
        "pia": NOTHING,
        "carol": NOTHING,
        "outsider": NOT_FOUND,
    },
    "provisional result": {
        "alice": {NOTE, REJECT, WITHDRAW},
        "olga": {NOTE, WITHDRAW},
        "bob": {NOTE, APPROVE, REJECT, CONFIRM, DISPUTE},
        "rita": {NOTE, APPROVE, REJECT, CONFIRM, SETTLE},
        "nora": {SETTLE},  # a neutral organizer settles too
        "fred": NOTHING,  # he played blue: no neutral party
        "pia": NOTHING,  # made organizer in play: no judge (the service refuses her)
        "carol": NOTHING,
        "outsider": NOT_FOUND,
    },
    "dispute": {
        "alice": {NOTE, REJECT},
        "olga": {NOTE},
        "bob": {NOTE, APPROVE, REJECT},
        "rita": {NOTE, APPROVE, REJECT, SETTLE},
        "nora": {SETTLE},
        "fred": NOTHING,
        "pia": NOTHING,
        "carol": NOTHING,
        "outsider": NOT_FOUND,
    },
    # Over: nothing to do, but a proposal still pending may be turned down (the service takes it).
    "finished": {
        **dict.fromkeys(VIEWERS, NOTHING),
        "alice": {REJECT},
        "bob": {REJECT},
        "rita": {REJECT},
        "outsider": NOT_FOUND,
    },
}

# May propose (corrections, undos, house rules): in play, players, referee and organizers.
PROPOSERS = {"alice", "bob", "rita", "olga", "nora", "fred", "pia"}
ORGANIZERS = {"olga", "nora", "fred", "pia"}  # pia from the start on

_TODO_IDS = re.compile(r'name="_todo" value="(\w+)"|name="do" value="(\w+)"|[?&]do=(\w+)')


def _people(club, people):
    named = dict(people)
    for name, role in (("nora", "organizer"), ("fred", "organizer"), ("pia", "player")):
        named[name] = UserFactory(username=name)
        MembershipFactory(club=club, user=named[name], role=role)
    return named


def _stages(club, people):
    """The campaign at each stage, in order (one campaign walked through them)."""
    named = _people(club, people)
    olga, alice, bob = named["olga"], named["alice"], named["bob"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Both doors"
    )
    for side, name in (("red", "olga"), ("red", "alice"), ("blue", "bob"), ("blue", "fred")):
        svc.assign_player(campaign, olga, side=side, username=name)
    svc.assign_referee(campaign, olga, username="rita")
    yield "before start", campaign, named
    submit(campaign, olga, "campaign.started")
    svc.remove_player(campaign, named["fred"], side="blue", username="fred")  # leaves his side
    clubs.set_role(club=club, user=olga, member_username="pia", role="organizer")
    submit(
        campaign,
        alice,
        "proposal.made",
        {"action": "house_rule", "data": {"key": "buy.max_per_round", "value": 3}},
    )
    yield "proposal pending", campaign, named
    for player in (alice, bob):
        submit(campaign, player, "skirmish.supply")
    submit(campaign, alice, "sealed.submitted", {"key": "stance:0", "choice": "attack"})
    submit(campaign, bob, "sealed.submitted", {"key": "stance:0", "choice": "hold"})
    submit(campaign, alice, "result.submitted", {"scenario": 0, "data": {"red": 3, "blue": 1}})
    yield "provisional result", campaign, named
    submit(campaign, bob, "result.disputed", {"scenario": 0, "reason": "It was 2-2"})
    yield "dispute", campaign, named
    # nora, the club's neutral party (plays nothing, organizer from before), ends it alone
    submit(campaign, named["nora"], "campaign.finished", {"reason": "Called off"})
    yield "finished", campaign, named


def _selector(campaign, user):
    """What campaigns.access.permissions offers `user`: {todo id: todo}, or NOT_FOUND."""
    try:
        campaign, viewer = campaign_for(user, campaign.pk)
    except NotFound:
        return NOT_FOUND, None
    todos = campaign_page(campaign, viewer).offered()
    return {stable_id(todo): todo for todo in todos}, viewer


def _page(campaign, user) -> set | None:
    """The to-dos the campaign page draws (forms, links to open one), by their ids."""
    client = Client()
    client.force_login(user)
    response = client.get(f"/campaigns/{campaign.pk}/")
    if response.status_code == 404:
        return NOT_FOUND
    assert response.status_code == 200
    return {"".join(found) for found in _TODO_IDS.findall(response.content.decode())}


def _dashboard_settles(user) -> bool:
    """Does the dashboard's "what waits for me" list a Settle for `user`?"""
    client = Client()
    client.force_login(user)
    return "Settle the result" in client.get("/").content.decode()


def _api(campaign, user) -> set | None:
    """The to-dos the API lists at /actions/, by the ids the page gives them."""
    client = APIClient()
    client.force_login(user)
    response = client.get(f"/api/v1/campaigns/{campaign.pk}/actions/")
    if response.status_code == 404:
        return NOT_FOUND
    assert response.status_code == 200
    return {
        stable_id(Action(t["kind"], t["label"], t["side"], initial=t["initial"]))
        for t in response.json()
    }


def _api_proposes(campaign, user) -> bool | None:
    """Does the API take a proposal from `user` (an incomplete house rule: refused for what it
    says, not for who sends it or when)?"""
    client = APIClient()
    client.force_login(user)
    response = client.post(
        f"/api/v1/campaigns/{campaign.pk}/events/",
        {"kind": "proposal.made", "data": {"action": "house_rule", "data": {}}},
        format="json",
    )
    if response.status_code == 404:
        return NOT_FOUND
    assert response.status_code in (400, 403), response.content
    return response.status_code == 400 and "data" in response.json()


def _page_proposes(campaign, user) -> bool:
    client = Client()
    client.force_login(user)
    text = client.get(f"/campaigns/{campaign.pk}/history/").content.decode()
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    undo = "/undo/" in text  # some event of the history may be undone (by a proposal)
    house_rule = 'id="house-rule"' in page  # "Propose a house rule"
    assert house_rule or not undo, "an undo form for one who may not propose"
    return house_rule


def _organizes(campaign, user) -> tuple[int, int]:
    """The setup page's status, and the API's answer to a seating on a side that does not
    exist (400 for an organizer: refused for what it says; 403 for anyone else)."""
    client = APIClient()
    client.force_login(user)
    page = client.get(f"/campaigns/{campaign.pk}/setup/").status_code
    api = client.post(
        f"/api/v1/campaigns/{campaign.pk}/players/",
        {"side": "nowhere", "username": "carol"},
        format="json",
    ).status_code
    return page, api


@pytest.mark.django_db
def test_pages_and_api_offer_what_the_permissions_answer(club, people):
    differences = []
    for stage, campaign, named in _stages(club, people):
        for name in VIEWERS:
            user = named[name]
            offered, _ = _selector(campaign, user)
            expected = EXPECTED[stage][name]
            page, api = _page(campaign, user), _api(campaign, user)
            if offered is NOT_FOUND:
                cell = (expected, page, api) == (NOT_FOUND, NOT_FOUND, NOT_FOUND)
            else:
                core = {t.kind for t in offered.values() if not t.kind.startswith("skirmish.")}
                cell = core == expected and page == set(offered) == api
            if not cell:
                differences.append((stage, name, expected, offered, page, api))
            if _dashboard_settles(user) != (expected is not NOT_FOUND and SETTLE in expected):
                differences.append((stage, name, "the dashboard's Settle differs"))
    assert not differences, "\n".join(map(repr, differences))


@pytest.mark.django_db
def test_proposing_and_organizing_agree_on_both_doors(club, people):
    for stage, campaign, named in _stages(club, people):
        for name in VIEWERS:
            user = named[name]
            _, viewer = _selector(campaign, user)
            if viewer is None:
                assert _api_proposes(campaign, user) is NOT_FOUND
                assert _organizes(campaign, user) == (404, 404)
                continue
            campaign.refresh_from_db()
            may = permissions.may_propose(campaign, viewer)
            assert may == (stage in STAGES[1:4] and name in PROPOSERS), (stage, name)
            assert _page_proposes(campaign, user) == may, (stage, name)
            assert _api_proposes(campaign, user) == may, (stage, name)
            page = campaign_page(campaign, viewer)
            full = permissions.full_export_allowed(
                campaign, viewer, page.export_approved, page.export_agreed_at
            )
            asks = permissions.may_ask_full_export(viewer, page.export_approved, full)
            assert asks == (name in ORGANIZERS and (stage, name) != (STAGES[0], "pia"))
            client = Client()
            client.force_login(user)
            drawn = client.get(f"/campaigns/{campaign.pk}/").content.decode()
            assert (f"/campaigns/{campaign.pk}/propose/export/" in drawn) == asks, (stage, name)
            organizes = permissions.may_organize(viewer)
            assert organizes == (name in ORGANIZERS and (stage, name) != (STAGES[0], "pia"))
            assert _organizes(campaign, user) == ((200, 400) if organizes else (403, 403)), (
                stage,
                name,
            )
