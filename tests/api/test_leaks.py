"""Side-private information never reaches the other side through the API.

Red (alice) makes a secret Skirmish supply roll and buys reinforcements. Blue
(bob) and carol (a club member playing nothing) then read everything they can
under /api/ and try bad submissions: every answer must be exactly what it was
before red's secret steps. That rules out red's dice, supply points, purchases,
the number of red's hidden events and their sequence numbers all at once.
"""

import json
import re
import uuid

import pytest

from campaigns.models import Event
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

from .conftest import post

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIME = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d)")


def _reads(campaign) -> list[str]:
    base = f"/api/v1/campaigns/{campaign.pk}/"
    return [
        base,
        base + "state/",
        base + "actions/",
        base + "events/",
        base + "events/?page_size=1&page=2",
        base + "roster/",
        base + "scenarios/",
        base + "export/",
        "/api/v1/campaigns/",
        f"/api/v1/campaigns/?club={campaign.club.slug}&status=active",
        f"/api/v1/clubs/{campaign.club.slug}/",
        f"/api/v1/clubs/{campaign.club.slug}/members/",
    ]


# Bad submissions whose answers might tell something about red: naming red's events by
# sequence number (the skirmish fixture holds 6 events; red's secret ones come next), acting
# for red, stale versions, steps that depend on both sides' progress.
_BAD_SUBMISSIONS = [
    {"kind": "skirmish.supply", "side": "red"},
    {"kind": "skirmish.buy", "data": {"count": 5}},
    {"kind": "skirmish.supply", "expected_version": 99},
    {"kind": "sealed.submitted", "data": {"key": "stance:0", "choice": "attack"}},
    {"kind": "result.submitted", "data": {"scenario": 0, "data": {"red": 1, "blue": 2}}},
    *(
        {"kind": "proposal.made", "data": {"action": "undo", "target": seq}}
        for seq in (7, 8, 9, 10)
    ),
    {"kind": "proposal.made", "data": {"action": "correct", "target": 9, "data": {"count": 2}}},
    *({"kind": "proposal.approved", "data": {"proposal": seq}} for seq in (7, 9)),
    {"kind": "skirmish.supply", "dice": {"0/supply/red": [6]}, "expected_version": 99},
]


def _everything(client, campaign, bad_submissions=True) -> dict:
    seen = {}
    for url in _reads(campaign):
        response = client.get(url)
        seen[url] = (response.status_code, response.json())
    if not bad_submissions:
        return seen
    before = Event.objects.count()
    for i, data in enumerate(_BAD_SUBMISSIONS):
        response = post(client, f"/api/v1/campaigns/{campaign.pk}/events/", data)
        assert response.status_code >= 400, (data, response.json())
        seen[f"bad #{i}"] = (response.status_code, response.json())
    assert Event.objects.count() == before
    return seen


def _red_secrets(campaign, client_for) -> list[dict]:
    url = f"/api/v1/campaigns/{campaign.pk}/events/"
    alice = client_for("alice")
    supply = post(alice, url, {"kind": "skirmish.supply"})
    buy = post(alice, url, {"kind": "skirmish.buy", "data": {"count": 1}})
    assert supply.status_code == buy.status_code == 201
    return supply.json()["events"] + buy.json()["events"]


@pytest.mark.parametrize("viewer", ["bob", "carol"])
def test_reds_secret_steps_change_nothing_the_others_can_get(
    viewer, skirmish, client_for, view_cache
):
    client = client_for(viewer)
    before = _everything(client, skirmish)
    secret = _red_secrets(skirmish, client_for)
    view_cache.settle(skirmish)
    after = _everything(client, skirmish)
    assert after == before

    text = json.dumps(after)
    for event in secret:
        assert event["uid"] not in text
    assert "supply/red" not in text  # red's roll key
    state = after[f"/api/v1/campaigns/{skirmish.pk}/state/"][1]["state"]
    assert set(state["game"]["sides"]) == ({"blue"} if viewer == "bob" else set())
    assert "side:red" not in state["streams"]


def test_the_test_is_not_vacuous_red_and_the_referee_do_see_it(skirmish, client_for):
    secret = _red_secrets(skirmish, client_for)
    for name in ("alice", "olga", "rita"):
        text = json.dumps(_everything(client_for(name), skirmish, bad_submissions=False))
        assert all(event["uid"] in text for event in secret), name
        assert "0/supply/red" in text and '"bought": 1' in text


def test_naming_reds_hidden_events_by_uid_answers_as_for_nothing(skirmish, client_for):
    secret = _red_secrets(skirmish, client_for)
    bob = client_for("bob")
    url = f"/api/v1/campaigns/{skirmish.pk}/events/"

    def answer(uid):
        made = post(bob, url, {"kind": "proposal.made", "data": {"action": "undo", "target": uid}})
        approved = post(bob, url, {"kind": "proposal.approved", "data": {"proposal": uid}})
        return (made.status_code, made.json(), approved.status_code, approved.json())

    nothing = answer(str(uuid.uuid4()))
    assert nothing[0] == 400
    for event in secret:
        assert answer(event["uid"]) == nothing


# --- later public events must not count red's hidden ones ---------------------------------------


def _war(club, people, with_red_secrets: bool):
    """A campaign where public events follow (or not) red's secret steps."""
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="War"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    submit(campaign, olga, "campaign.started")
    if with_red_secrets:
        submit(campaign, people["alice"], "skirmish.supply")
        submit(campaign, people["alice"], "skirmish.buy", {"count": 1})
    for action, data in (
        ("house_rule", {"key": "buy.max_per_round", "value": 3}),
        ("export", None),
    ):
        proposal = submit(
            campaign, people["bob"], "proposal.made", {"action": action, "data": data}
        )
        submit(
            campaign,
            people["alice"],
            "proposal.approved",
            {"proposal": str(proposal.events[0].uid)},
        )
    return campaign


def _canonical(value):
    """Uids and times blanked; a dict keyed by uids (e.g. proposals) becomes a sorted list,
    since its key order is that of random uids (and PostgreSQL's jsonb reorders keys)."""
    if isinstance(value, dict):
        items = {k: _canonical(v) for k, v in value.items()}
        if items and all(UUID.fullmatch(k) for k in items):
            return sorted(items.values(), key=lambda v: json.dumps(v, sort_keys=True))
        return {UUID.sub("<uid>", k): v for k, v in items.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    if isinstance(value, str):
        return TIME.sub("<time>", UUID.sub("<uid>", value))
    return value


def _normalized(client, campaign, tail):
    data = _canonical(client.get(f"/api/v1/campaigns/{campaign.pk}/{tail}").json())
    return json.dumps(data, sort_keys=True).replace(f'"id": {campaign.pk}', '"id": <id>')


@pytest.mark.parametrize("tail", ["", "events/", "export/", "actions/", "roster/", "scenarios/"])
def test_later_public_events_do_not_count_reds_hidden_ones(
    tail, club, people, client_for, view_cache
):
    with_secrets, without = _war(club, people, True), _war(club, people, False)
    view_cache.settle(with_secrets, without)
    bob = client_for("bob")
    assert _normalized(bob, with_secrets, tail) == _normalized(bob, without, tail)


def test_the_state_does_not_count_reds_hidden_events(club, people, client_for, view_cache):
    with_secrets, without = _war(club, people, True), _war(club, people, False)
    view_cache.settle(with_secrets, without)
    bob = client_for("bob")
    assert _normalized(bob, with_secrets, "state/") == _normalized(bob, without, "state/")
