"""What a webhook is told: a club's public events, drawn only from the club's cut of a campaign
(campaigns.access.visibility.view_state for a member who plays no side), so no side's secret can
reach a post: the campaign's name, its sides' names, a result as the club's timeline words it.
Each event is a sentence (`words`) and a few plain fields, keyed so that a webhook hears of it once.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.urls import reverse

from campaigns.access.visibility import view_state
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import HeldState
from campaigns.models import Campaign, Club, Membership
from campaigns.systems import get_system

log = logging.getLogger(__name__)
MAX_WORDS = 300

Event = tuple[str, dict[str, Any]]  # (key, the event's public fields)


def _link(path: str) -> str:
    site: str = settings.SITE_URL
    return site.rstrip("/") + path


def _campaign_fields(campaign: Campaign, view: dict[str, Any]) -> dict[str, Any]:
    return {
        "club": {"name": campaign.club.name, "slug": campaign.club.slug},
        "campaign": {
            "id": campaign.pk,
            "name": view["name"],
            "sides": [side["name"] for side in view["sides"].values()],
            "url": _link(reverse("campaign", args=[campaign.pk])),
        },
    }


def _event(kind: str, words: str, fields: dict[str, Any]) -> dict[str, Any]:
    if len(words) > MAX_WORDS:  # cut at a word, and said to be cut
        words = words[: MAX_WORDS - 1].rsplit(" ", 1)[0].rstrip(" ;,:") + "…"
    return {"kind": kind, "words": words, **fields}


def campaign_events(
    campaign: Campaign, state: HeldState, *, was: str, played: list[int]
) -> list[Event]:
    """The club events of one change of a campaign: it started, results were confirmed (the
    scenarios `played` by it), it finished; `was`: its status before the change."""
    view = view_state(state, Viewer.club_member())
    fields = _campaign_fields(campaign, view)
    name, sides = view["name"], [s["name"] for s in view["sides"].values()]
    events: list[Event] = []
    if was == Campaign.SETUP and view["status"] == Campaign.ACTIVE:
        against = f": {' against '.join(sides)}" if len(sides) > 1 else ""
        events.append(
            (
                f"campaign/{campaign.pk}/started",
                _event("campaign.started", f"{name} has started{against}", fields),
            )
        )
    for index in played:
        events.append(_result(campaign, view, index, fields))
    if was != Campaign.FINISHED and view["status"] == Campaign.FINISHED:
        events.append((f"campaign/{campaign.pk}/finished", _finished(view, fields)))
    return events


def _result(campaign: Campaign, view: dict[str, Any], index: int, fields: dict[str, Any]) -> Event:
    scenario = view["scenarios"][index]
    lines = _result_lines(view, index, scenario.get("result"))
    words = f"{view['name']}: the result of {scenario['label']} is confirmed"
    if lines:
        words += f" ({'; '.join(line.rstrip('.') for line in lines)})"
    event = _event(
        "scenario.result",
        words,
        {**fields, "scenario": {"label": scenario["label"], "result": lines}},
    )
    return f"campaign/{campaign.pk}/scenario/{index}/result", event


def _result_lines(view: dict[str, Any], index: int, result: dict[str, Any] | None) -> list[str]:
    """The result as the club's timeline words it (the game's result_words on the club's cut)."""
    if not result:
        return []
    from campaigns.journal.context import Ctx

    system = get_system(view["system"])
    try:
        return [
            str(line)
            for line in system.result_words(view, index, result, Ctx.reading(system, view))
        ]
    except Exception:  # a game's words must not fail the change that confirmed the result
        log.exception("no words for a result of a %s campaign", view["system"])
        return []


def _finished(view: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    winner = view["sides"].get(view.get("winner") or "", {}).get("name")
    words = f"{view['name']} is finished" + (f": {winner} won" if winner else "")
    return _event("campaign.finished", words, {**fields, "winner": winner})


def member_event(membership: Membership) -> Event:
    club: Club = membership.club
    name = membership.user.get_username()
    words = f"{name} joined {club.name}"
    fields = {
        "club": {"name": club.name, "slug": club.slug},
        "member": {"name": name},
        "url": _link(reverse("club", args=[club.slug])),
    }
    return f"member/{club.pk}/{membership.user_id}", _event("club.member", words, fields)


def trial_event(club: Club, key: str) -> Event:
    words = f"A test from Muster: {club.name}'s webhook works"
    fields = {"club": {"name": club.name, "slug": club.slug}}
    return key, _event("test", words, fields)


def body(event: dict[str, Any], key: str, format_: str) -> dict[str, Any]:
    """What is posted: the event as plain JSON, or a Discord message (`content`, a sentence with
    the link; nobody mentioned, whatever a name says)."""
    if format_ == "discord":
        url = event.get("campaign", {}).get("url") or event.get("url")
        content = event["words"] + (f" <{url}>" if url else "")
        return {"content": content, "allowed_mentions": {"parse": []}}
    return {
        "id": key,
        "event": event["kind"],
        "text": event["words"],
        **{k: v for k, v in event.items() if k not in ("kind", "words")},
    }
