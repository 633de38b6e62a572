"""The journal as a viewer may read it: entries in words, named by uid, and what a submission did."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from campaigns.access import visibility
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import CampaignState, StateView
from campaigns.kept_answers import viewcache

from ..errors import NotFound
from ..models import Campaign, Event
from ..services.journal import Submission
from ..services.state import current_state
from ..systems import get_system
from ..systems.base import GameSystem
from .house_rules_shown import house_rule_labels


@dataclass(frozen=True)
class HistoryEntry:
    uid: str
    kind: str
    text: str
    actor: str
    side: str
    audience: str
    at: str
    data: dict[str, Any]
    undone: bool
    corrected: bool


def history(
    campaign: Campaign, viewer: Viewer, state: CampaignState | None = None
) -> list[HistoryEntry]:
    """The journal as this viewer may read it, newest last.

    Undone/corrected marks come from the full state, but only for events the
    viewer can read; sequence numbers never leave the server (they would count
    the other side's hidden events).
    """
    state = state if state is not None else current_state(campaign)
    system = get_system(campaign.system)
    view = visibility.view_state(state, viewer)
    entries: list[HistoryEntry] = []
    for event in visibility.events_for(viewer, campaign).order_by("seq"):
        record = Record.from_event(event)
        entries.append(
            HistoryEntry(
                uid=record.uid,
                kind=record.kind,
                text=describe(system, record, view),
                actor=record.actor,
                side=record.side,
                audience=record.audience,
                at=record.at,
                data=record.data,
                undone=str(record.seq) in state["undone"],
                corrected=str(record.seq) in state["corrected"],
            )
        )
    return entries


def describe(system: GameSystem, record: Record, state: StateView) -> str:
    """One event in words for someone who may read it; ``state`` is that reader's cut."""
    data = record.data
    side_name = state["sides"].get(record.side, {}).get("name", "") if record.side else ""
    own = system.history_text(record, state) if state and record.kind != "dice.rolled" else None
    if own:
        return f"{side_name}: {own}" if side_name else own
    text = {
        "campaign.created": f"Campaign “{data.get('name')}” created",
        "player.assigned": f"{data.get('username')} joins {state['sides'].get(data.get('side'), {}).get('name')}",
        "player.removed": f"{data.get('username')} leaves {state['sides'].get(data.get('side'), {}).get('name')}",
        "player.replaced": f"{data.get('new')} replaces {data.get('old')}",
        "referee.assigned": f"Referee: {data.get('username') or 'none'}",
        "note.added": f"After-action note on {_label(state, data.get('scenario'))}: “{data.get('text')}”",
        "house_rule.set": f"House rule: {_house_rule_words(system, data.get('key'))}"
        f" = {data.get('value')}",
        "campaign.started": "Campaign started",
        "campaign.finished": f"Campaign ended: {data.get('reason')}",
        "dice.rolled": _describe_dice(system, state, data),
        "journal.upgraded": _describe_upgrade(system, data),
        "sealed.revealed": "Choices revealed: "
        + ", ".join(
            f"{state['sides'].get(s, {}).get('name', s)} {c}"
            for s, c in (data.get("choices") or {}).items()
        ),
    }.get(record.kind)
    if text is None:
        from campaigns.journal.core_events import KINDS

        kind = KINDS.get(record.kind)
        text = kind.label if kind else system.describe(record)
    return f"{side_name}: {text}" if side_name else text


def _house_rule_words(system: GameSystem, key: object) -> object:
    """A house rule's label, or its key as written when the game names no such rule."""
    return house_rule_labels(system).get(key, key) if isinstance(key, str) else key


def _label(state: StateView, index: object) -> str:
    try:
        label: str = state["scenarios"][index]["label"]
        return label
    except (IndexError, KeyError, TypeError):
        return "a scenario"


def _describe_upgrade(system: GameSystem, data: dict[str, Any]) -> str:
    """journal.upgraded in words: which Muster, which journal, what the step did."""
    from .. import versions

    journal = data.get("journal")
    steps = versions.steps_of(journal, system) if journal in (versions.CORE, system.slug) else {}
    version = data.get("from")
    step = steps.get(version) if isinstance(version, int) else None
    name = "Muster's own events" if journal == versions.CORE else system.name
    words = step.words if step is not None else str(data.get("step", ""))
    count = data.get("count") or 0
    listed = f" ({count} event{'s' if count != 1 else ''} here)" if count else ""
    return (
        f"Muster {data.get('release')} upgraded this journal: {name}, version {data.get('from')} to "
        f"{data.get('to')}: {words}{listed}"
    )


def _describe_dice(system: GameSystem, view: StateView, data: dict[str, Any]) -> str:
    sentence = system.describe_roll(view, data) if view else None
    if sentence:
        return sentence
    how = "rolled by Muster" if data.get("source") == "server" else "entered from the table"
    label = system.roll_label(view, data.get("key", "")) if view else data.get("key", "")
    return f"{label}: {' + '.join(map(str, data.get('dice', [])))} ({how})"


def submitted_words(campaign: Campaign, viewer: Viewer, submission: Submission) -> str | None:
    """The submitted event in the game's own words for the person who sent it (the message after
    a submission), or None."""
    if submission.replayed or not submission.events or submission.state is None:
        return None
    system = get_system(campaign.system)
    event = submission.events[0]
    if not viewer.can_read(event.audience, event.side):
        return None
    return system.submitted_words(
        visibility.view_state(submission.state, viewer), Record.from_event(event)
    )


def submission_report(campaign: Campaign, viewer: Viewer, submission: Submission) -> list[str]:
    """What a submission did, in sentences this viewer may read (its rolls and their results,
    a reveal, an applied proposal), without the submitted event itself."""
    if submission.state is None:
        return []  # a replayed submission wrote nothing new
    entries = entries_for_events(campaign, viewer, submission.events, submission.state)
    return [entry.text + ("" if entry.text.endswith((".", "!")) else ".") for entry in entries[1:]]


_EVENT_REFS = ("target", "proposal")  # keys of proposal.* data that name another event by seq


def history_by_uid(
    campaign: Campaign, viewer: Viewer, state: CampaignState | None = None
) -> list[HistoryEntry]:
    """``history``, with the references of proposal events to other events given as
    uids: the journal stores sequence numbers, which would count hidden events. Kept per
    audience (campaigns.kept_answers.viewcache)."""
    return viewcache.cached(
        campaign,
        viewer,
        "history",
        lambda: _refs_as_uids(campaign, history(campaign, viewer, state)),
    )


def history_tail(campaign: Campaign, viewer: Viewer, count: int) -> tuple[list[HistoryEntry], bool]:
    """The newest `count` entries of ``history_by_uid`` (oldest first) and whether there are more."""

    def tail() -> tuple[list[HistoryEntry], bool]:
        # only the newest events are put in words: a long journal's tail costs what a short one's does
        newest = list(visibility.events_for(viewer, campaign).order_by("-seq")[: count + 1])
        shown = newest[:count][::-1]
        return entries_for_events(campaign, viewer, shown, current_state(campaign)), len(
            newest
        ) > count

    return viewcache.cached(campaign, viewer, f"history:last:{count}", tail)


def history_page(
    campaign: Campaign, viewer: Viewer, number: int, size: int
) -> tuple[list[HistoryEntry], int, int]:
    """Page `number` of ``history_by_uid`` (1: the newest `size` entries; past the last: the last),
    oldest first, with the page's number and how many entries in all. Each page is kept on its own:
    a long campaign's page unpickles its `size` entries, never the whole journal's."""
    total = viewcache.cached(
        campaign, viewer, "history:count", lambda: visibility.events_for(viewer, campaign).count()
    )
    number = min(number, max(1, -(-total // size)))

    def page() -> list[HistoryEntry]:
        # only the page's events are put in words, read by their place in the viewer's journal
        end = total - (number - 1) * size
        events = visibility.events_for(viewer, campaign).order_by("seq")[max(0, end - size) : end]
        return entries_for_events(campaign, viewer, events, current_state(campaign))

    return viewcache.cached(campaign, viewer, f"history:page:{number}:{size}", page), number, total


def entries_for_events(
    campaign: Campaign, viewer: Viewer, events: Iterable[Event], state: CampaignState
) -> list[HistoryEntry]:
    """History entries for given Event rows (a submission's), only those the viewer
    may read, named by uid like ``history_by_uid``."""
    system = get_system(campaign.system)
    view = visibility.view_state(state, viewer)
    entries: list[HistoryEntry] = []
    for event in events:
        if not viewer.can_read(event.audience, event.side):
            continue
        record = Record.from_event(event)
        entries.append(
            HistoryEntry(
                uid=record.uid,
                kind=record.kind,
                text=describe(system, record, view),
                actor=record.actor,
                side=record.side,
                audience=record.audience,
                at=record.at,
                data=record.data,
                undone=str(record.seq) in state["undone"],
                corrected=str(record.seq) in state["corrected"],
            )
        )
    return _refs_as_uids(campaign, entries)


def _refs_as_uids(campaign: Campaign, entries: list[HistoryEntry]) -> list[HistoryEntry]:
    def refs(entry: HistoryEntry) -> dict[str, int]:
        if not entry.kind.startswith("proposal."):
            return {}
        return {k: v for k, v in entry.data.items() if k in _EVENT_REFS and isinstance(v, int)}

    wanted = {seq for entry in entries for seq in refs(entry).values()}
    if not wanted:
        return entries
    uid_of = {
        seq: str(uid)
        for seq, uid in campaign.events.filter(seq__in=wanted).values_list("seq", "uid")
    }
    return [
        replace(
            entry, data={**entry.data, **{k: uid_of.get(seq) for k, seq in refs(entry).items()}}
        )
        if refs(entry)
        else entry
        for entry in entries
    ]


def history_entry(campaign: Campaign, viewer: Viewer, uid: str) -> HistoryEntry:
    """One journal event the viewer may read, by uid (NotFound otherwise: a hidden
    event and a missing one look the same)."""
    import uuid

    try:
        wanted = uuid.UUID(str(uid))
    except ValueError:
        raise NotFound("event") from None
    event = visibility.events_for(viewer, campaign).filter(uid=wanted).first()
    if event is None:
        raise NotFound("event")
    state = current_state(campaign)
    return entries_for_events(campaign, viewer, [event], state)[0]
