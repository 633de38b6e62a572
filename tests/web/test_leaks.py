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
    return ["/", f"/clubs/{campaign.club.slug}/", base, base + "history/", base + "export/", base + "setup/"]


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
def test_secret_steps_change_nothing_the_others_see(actor, side, others, skirmish, people, client_for):
    clients = {name: client_for(name) for name in others}
    before = {name: _everything(client, skirmish) for name, client in clients.items()}
    events = _secret_steps(skirmish, people[actor])
    assert {e.audience for e in events} == {"side"} and {e.side for e in events} == {side}
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
        assert "private to Red" in text_of(client_for(name).get(f"/campaigns/{skirmish.pk}/history/"))


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
        {"kind": "result.submitted", "side": "blue", "scenario": "0", "data.red": "1", "data.blue": "2"},
        {"kind": "proposal.approved", "side": "blue", "proposal": "1"},
    ]

    def answers():
        return [_normalized(bob.post(f"/campaigns/{skirmish.pk}/submit/", body)) for body in tries]

    before = answers()
    _secret_steps(skirmish, people["alice"])
    assert answers() == before
    assert all(status == 400 for status, _ in before)
