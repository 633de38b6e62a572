"""A side's private information never reaches anyone else through the pages.

One side makes its secret Skirmish steps (a supply roll, whose dice and points
are private, and a purchase). Everyone who may not see them then reads every page
they can: each page must be exactly what it was before the secret steps (after
blanking tokens and times). That rules out the dice, the points, the purchase,
the number of hidden events and any sign of them at once. The organizer who
plays red is held to the same rule as any red player.
"""

import re
import uuid

import pytest

from campaigns.services.journal import submit

from .conftest import text_of

_NOISE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "csrf"),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), "csrf"),
    (re.compile(r'name="idempotency_key" value="[0-9a-f]+"'), "key"),
    (re.compile(r'<time datetime="[^"]+">[^<]*</time>'), "<time>"),
    (re.compile(r'"at": "[^"]+"'), '"at"'),
]


def _normalized(response) -> tuple[int, str]:
    text = text_of(response)
    for pattern, replacement in _NOISE:
        text = pattern.sub(replacement, text)
    return response.status_code, text


def _pages(campaign) -> list[str]:
    base = f"/campaigns/{campaign.pk}/"
    return [
        "/",
        f"/clubs/{campaign.club.slug}/",
        base,
        base + "history/",
        base + "export/",
        base + "setup/",
    ]


def _everything(client, campaign) -> dict:
    return {url: _normalized(client.get(url)) for url in _pages(campaign)}


def _secret_steps(campaign, player) -> list:
    supply = submit(campaign, player, "skirmish.supply")
    buy = submit(campaign, player, "skirmish.buy", {"count": 1})
    return supply.events + buy.events


CASES = [
    ("alice", "red", ["bob", "carol"]),
    ("olga", "red", ["bob", "carol"]),
    ("bob", "blue", ["alice", "olga", "carol"]),
]


@pytest.mark.parametrize("actor,side,others", CASES, ids=[f"{a}-{s}" for a, s, _ in CASES])
def test_secret_steps_change_nothing_the_others_see(
    actor, side, others, skirmish, people, client_for, view_cache
):
    clients = {name: client_for(name) for name in others}
    before = {name: _everything(client, skirmish) for name, client in clients.items()}
    events = _secret_steps(skirmish, people[actor])
    assert {e.audience for e in events} == {"side"} and {e.side for e in events} == {side}
    view_cache.settle(skirmish)
    for name, client in clients.items():
        after = _everything(client, skirmish)
        for url in after:
            assert after[url] == before[name][url], (name, url)


def test_the_side_itself_and_the_referee_see_the_secret(skirmish, people, client_for):
    events = _secret_steps(skirmish, people["alice"])
    dice = next(e for e in events if e.kind == "dice.rolled")
    for name in ("alice", "olga", "rita"):
        page = text_of(client_for(name).get(f"/campaigns/{skirmish.pk}/"))
        # The roll in words, with its result: final = the die (no modifier on the first round).
        assert f"Supply roll of Red: {dice.data['dice'][0]} → " in page, name
        assert "private to Red" in text_of(
            client_for(name).get(f"/campaigns/{skirmish.pk}/history/")
        )


def test_the_other_side_cannot_reach_a_hidden_event_by_its_uid(skirmish, people, client_for):
    buy = _secret_steps(skirmish, people["alice"])[-1]
    bob = client_for("bob")
    unknown = uuid.uuid4()
    for tail in ("undo/", "correct/"):
        hidden = bob.post(f"/campaigns/{skirmish.pk}/history/{buy.uid}/{tail}")
        missing = bob.post(f"/campaigns/{skirmish.pk}/history/{unknown}/{tail}")
        assert hidden.status_code == missing.status_code == 404
        assert _normalized(hidden) == _normalized(missing)
    assert not skirmish.events.filter(kind="proposal.made").exists()


def test_refusals_do_not_tell_about_the_other_sides_secrets(skirmish, people, client_for):
    """Bob's refused submissions read the same whether or not red has acted."""
    bob = client_for("bob")
    tries = [
        {"kind": "skirmish.buy", "side": "blue", "count": "5"},
        {"kind": "sealed.submitted", "side": "blue", "key": "stance:0", "choice": "attack"},
        {
            "kind": "result.submitted",
            "side": "blue",
            "scenario": "0",
            "data.red": "1",
            "data.blue": "2",
        },
        {"kind": "proposal.approved", "side": "blue", "proposal": "1"},
    ]

    def answers():
        return [_normalized(bob.post(f"/campaigns/{skirmish.pk}/submit/", body)) for body in tries]

    before = answers()
    _secret_steps(skirmish, people["alice"])
    assert answers() == before
    assert all(status == 400 for status, _ in before)


# --- order, counts and statuses -------------------------------------------------------------------


def _second_campaign(club, people):
    """A newer campaign of the same club and people: lists now have an order to give away."""
    from campaigns.services import campaigns as svc

    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="duel", name="Second war"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    return campaign


def _lists_and_odds(client, api, campaign) -> dict:
    odds = api.get(f"/api/v1/campaigns/{campaign.pk}/odds/").json()
    section = re.search(
        r'<section id="odds".*?</section>', text_of(client.get(f"/campaigns/{campaign.pk}/")), re.S
    )
    return {
        "dashboard": _normalized(client.get("/")),
        "club": _normalized(client.get(f"/clubs/{campaign.club.slug}/")),
        "odds_api": [(entry["side"], entry["status"]) for entry in odds],
        "odds_page": section.group(0) if section else "",
    }


@pytest.mark.parametrize("actor,side,others", CASES, ids=[f"{a}-{s}" for a, s, _ in CASES])
def test_hidden_steps_move_nothing_in_lists_and_no_odds_to_pending(
    actor,
    side,
    others,
    skirmish,
    club,
    people,
    client_for,
    django_capture_on_commit_callbacks,
    view_cache,
):
    """The dashboard and the club page order campaigns by their last change every member can
    see; the odds are kept under what each side can see. So the other side's dashboard, club
    page and odds status (API and page) are the same after a hidden step, even before the odds
    are computed again."""
    from django.core.cache import cache
    from rest_framework.test import APIClient

    _second_campaign(club, people)
    cache.clear()
    apis = {}
    for name in others:
        apis[name] = APIClient()
        apis[name].force_login(people[name])
    clients = {name: client_for(name) for name in others}
    with django_capture_on_commit_callbacks(execute=True):  # every side's odds are computed
        for name in others:
            apis[name].get(f"/api/v1/campaigns/{skirmish.pk}/odds/")
    before = {name: _lists_and_odds(clients[name], apis[name], skirmish) for name in others}
    for name in others:
        assert all(status == "ready" for _, status in before[name]["odds_api"]), before[name][
            "odds_api"
        ]
    with django_capture_on_commit_callbacks(execute=False):  # the odds are not recomputed yet
        _secret_steps(skirmish, people[actor])
        view_cache.settle(skirmish)
        for name in others:
            assert _lists_and_odds(clients[name], apis[name], skirmish) == before[name], name


def test_a_change_everyone_sees_does_move_the_campaign_up(skirmish, club, people, client_for):
    """The comparison above can fail: a public step moves the older campaign to the top."""
    second = _second_campaign(club, people)
    bob = client_for("bob")

    def order():
        page = text_of(bob.get("/"))
        return page.index(f"/campaigns/{skirmish.pk}/") < page.index(f"/campaigns/{second.pk}/")

    assert not order()  # the newer campaign first
    submit(skirmish, people["alice"], "proposal.made", {"action": "export"})  # every member sees it
    assert order()
