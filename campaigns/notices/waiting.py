"""What waits for one person in a campaign, as notices name it: their to-dos (the same
`actions_for` the campaign page draws for their audience, made personal) grouped into waiting
points, each with a key naming what waits, the words the page shows and the link to it.

Everything here is drawn from the person's own to-dos, which are a function of their audience's
position (campaigns.kept_answers.audiences): what another side did in secret cannot show in a
key, a word or a link beyond what the person's page already shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from campaigns.journal.records import Viewer
from campaigns.models import Campaign
from campaigns.selectors.todos import actions_for, for_person, stable_id
from campaigns.systems.base import Action

# To-dos that are offered but wait for nobody: withdrawing one's own result waits for the other
# side's answer, not for the one who entered it.
NOT_WAITING = frozenset({"result.withdrawn", "note.added"})
KEY_MAX = 200
_CORE_PREFIXES = frozenset({"result", "sealed", "proposal", "note", "player", "referee"})


@dataclass(frozen=True)
class WaitingPoint:
    """One thing the campaign waits for this person to do."""

    key: str  # "turn/german", "result/3/confirm", "sealed/<key>/<side>", "proposal/<uid>"
    words: str  # the to-do's label, as the page shows it to this person
    link: str  # the campaign page with that to-do open


def key_of(todo: Action) -> str:
    """What waits, never a value: the game's steps of one side are one turn (a side working
    through its Refit Phase is one wait, not one per step), a result to confirm or dispute one,
    a sealed choice and a proposal each their own."""
    scenario = todo.initial.get("scenario")
    if todo.kind == "result.submitted":
        key = f"result/{scenario}/enter"
    elif todo.kind in ("result.confirmed", "result.disputed"):
        key = f"result/{scenario}/confirm"
    elif todo.kind == "result.resolved":
        key = f"result/{scenario}/settle"
    elif todo.kind == "sealed.submitted":
        key = f"sealed/{todo.initial.get('key')}/{todo.side or ''}"
    elif todo.kind == "proposal.approved":
        key = f"proposal/{todo.initial.get('proposal')}"
    elif todo.kind.split(".", 1)[0] in _CORE_PREFIXES:
        key = f"{todo.kind}/{todo.side or ''}"
    else:
        key = f"turn/{todo.side or 'both'}"
    return key[:KEY_MAX]


def link_to(campaign: Campaign, todo: Action) -> str:
    """The campaign page with the to-do open (``?do=<id>``: a long form's own page too)."""
    return f"{reverse('campaign', args=[campaign.pk])}?do={stable_id(todo)}#now"


def waiting_points(campaign: Campaign, state: dict[str, Any], viewer: Viewer) -> list[WaitingPoint]:
    """What waits for `viewer` now, in the order the page lists it; the first to-do of a
    waiting point gives its words and link. `state`: the campaign's state as the page reads it."""
    drawn = actions_for(state, viewer)
    points: dict[str, WaitingPoint] = {}
    for todo in for_person(campaign, viewer, drawn, lambda: state):
        if todo.optional or todo.kind in NOT_WAITING:
            continue
        key = key_of(todo)
        if key not in points:
            points[key] = WaitingPoint(key, _words(todo.label), link_to(campaign, todo))
    return list(points.values())


def _words(label: str) -> str:
    text = " ".join(label.split())
    return (text[:1].upper() + text[1:])[:300]
