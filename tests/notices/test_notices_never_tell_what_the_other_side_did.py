"""Whether, when, in what order and in which words a person gets a notice never depends on the
other side's hidden steps: one side's secret supply roll and purchase, made early, late or not
at all, leave the other side's notices (and those of a member who plays no side) exactly as they
were, step by step, as the leak tests of the pages hold the pages. Red keeps the secrets with
blue watching, then blue with red (and the organizer who plays red) watching."""

from __future__ import annotations

import pytest

from campaigns.models import Notice
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

SEALED_BLUE = ("bob", "sealed.submitted", {"key": "stance:0", "choice": "hold"})
SEALED_RED = ("alice", "sealed.submitted", {"key": "stance:0", "choice": "attack"})
RESULT = ("bob", "result.submitted", {"scenario": 0, "data": {"red": 1, "blue": 2}})
SUPPLY_RED, SUPPLY_BLUE = ("alice", "skirmish.supply", {}), ("bob", "skirmish.supply", {})
BUY_RED = ("alice", "skirmish.buy", {"count": 1})
# The steps blue cannot see (red's stance comes last: it reveals both, publicly).
HIDDEN = [SUPPLY_RED, BUY_RED]

JOURNALS = {
    "bought early": [SUPPLY_RED, BUY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED, RESULT],
    "bought late": [SUPPLY_RED, SUPPLY_BLUE, SEALED_BLUE, BUY_RED, SEALED_RED, RESULT],
    "bought nothing": [SUPPLY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED, RESULT],
}


def _war(club, people, name):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name=name
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    return campaign


def _seen_by(user, campaign) -> tuple:
    """Everything about `user`'s notices of the campaign, in the order they were made."""
    found = Notice.objects.filter(recipient=user, campaign=campaign).order_by("created_at", "pk")
    return tuple(
        (
            n.key,
            n.words,
            n.link.replace(f"/campaigns/{campaign.pk}/", "/campaigns/N/"),
            n.waiting,
            n.read_at is None,
            n.resolved_at is None,
        )
        for n in found
    )


def _mirrored(step):
    """The same step by the other side (blue keeping the secrets, red watching)."""
    actor, kind, data = step
    return {"alice": "bob", "bob": "alice"}[actor], kind, data


def _play(club, people, journal, watched, mirror=False):
    """Play `journal`; what each watched person's notices were after each step they can see,
    and a check that each hidden step changed nothing they have."""
    campaign = _war(club, people, "The war")  # one name: the news of its start names it
    steps = [{who: _seen_by(people[who], campaign) for who in watched}]
    for step in journal:
        actor, kind, data = _mirrored(step) if mirror else step
        side = "red" if actor == "alice" else "blue"
        submit(campaign, people[actor], kind, dict(data), side=side)
        now = {who: _seen_by(people[who], campaign) for who in watched}
        if step in HIDDEN:
            assert now == steps[-1], (journal, kind)
        else:
            steps.append(now)
    return steps


@pytest.mark.parametrize(
    "mirror,watched",
    [(False, ("bob", "carol")), (True, ("alice", "olga", "carol"))],
    ids=["red-secret", "blue-secret"],
)
def test_the_others_get_the_same_notices_whatever_one_side_did_in_secret(
    mirror, watched, notices_inline, club, people
):
    seen = {
        name: _play(club, people, journal, watched, mirror) for name, journal in JOURNALS.items()
    }
    first = seen.pop("bought early")
    assert all(steps == first for steps in seen.values())
    player = watched[0]  # a player of the watching side: their stance waited, then was made
    assert any(key.startswith("sealed/") for key, *_ in first[-1][player])
    assert first[-1]["carol"] == ()


def test_reds_own_notices_follow_reds_steps(notices_inline, club, people):
    campaign = _war(club, people, "Red's war")
    alice = people["alice"]
    assert [k for k, *_ in _seen_by(alice, campaign)] == ["campaign/active", "turn/red"]
    submit(campaign, alice, "skirmish.supply", side="red")
    open_ = [n for n in _seen_by(alice, campaign) if n[3] and n[5]]
    assert [(k, w) for k, w, *_ in open_] == [("turn/red", "Buy reinforcements")]
