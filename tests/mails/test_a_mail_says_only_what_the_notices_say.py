"""A mail's words are its notices' words and links and nothing else about the campaign: blue's
mails are the same, word for word and mail for mail, whether red bought early, late or nothing
(the leak tests' method, with hidden activity on the other side)."""

from __future__ import annotations

import re

from campaigns.models import MailChoice, Notice
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

from .conftest import choose

SEALED_BLUE = ("bob", "sealed.submitted", {"key": "stance:0", "choice": "hold"})
SEALED_RED = ("alice", "sealed.submitted", {"key": "stance:0", "choice": "attack"})
RESULT = ("bob", "result.submitted", {"scenario": 0, "data": {"red": 1, "blue": 2}})
SUPPLY_RED, SUPPLY_BLUE = ("alice", "skirmish.supply", {}), ("bob", "skirmish.supply", {})
BUY_RED = ("alice", "skirmish.buy", {"count": 2})
JOURNALS = {
    "bought early": [SUPPLY_RED, BUY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED, RESULT],
    "bought late": [SUPPLY_RED, SUPPLY_BLUE, SEALED_BLUE, BUY_RED, SEALED_RED, RESULT],
    "bought nothing": [SUPPLY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED, RESULT],
}


def _plain(text: str) -> str:
    text = re.sub(r"/campaigns/\d+/", "/campaigns/N/", text)
    return re.sub(r"/mails/unsubscribe/[^/\s]+/", "/mails/unsubscribe/T/", text)


def _play(club, people, journal, deliver):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="The war"
    )
    for name in ("bob", "carol"):
        choose(people[name], campaign, MailChoice.AT_ONCE)
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    seen, words = [], set()
    for actor, kind, data in [(None, None, None), *journal]:
        if actor:
            side = "red" if actor == "alice" else "blue"
            submit(campaign, people[actor], kind, dict(data), side=side)
        words |= {
            n.words for n in Notice.objects.filter(recipient__in=[people["bob"], people["carol"]])
        }
        mails = [m for m in deliver() if m.to[0] in ("bob@example.org", "carol@example.org")]
        seen += [(m.to[0], m.subject, _plain(m.body), m.extra_headers.keys()) for m in mails]
    return seen, words


def test_blues_mails_are_the_same_whatever_red_did_in_secret(
    planned, confirmed, deliver, club, people
):
    seen = {}
    for name, journal in JOURNALS.items():
        seen[name], words = _play(club, people, journal, deliver)
    first = seen.pop("bought early")
    assert first and all(mails == first for mails in seen.values())
    # Every line of a mail's list is a notice's words or its link: nothing else of the campaign.
    for _, _subject, body, _ in first:
        listed = body.split("\n-- \n")[0].splitlines()[2:]
        for line in listed:
            assert line.startswith("  http") or line[2:] in words, line
        assert "2" not in re.sub(r"https?://\S+", "", body)  # red's count appears nowhere
