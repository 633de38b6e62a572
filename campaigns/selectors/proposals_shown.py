"""Proposals as the pages show them: what each is about in words and what a correction changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaigns.access import visibility
from campaigns.errors import DomainError
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import StateView
from campaigns.schema.fields import Field

from ..models import Campaign
from ..systems import get_system
from ..systems.base import GameSystem
from .history import describe

# What each kind of proposal is called on a page (its action is a key: "correct", "house_rule").
ACTION_WORDS = {
    "correct": "correction",
    "undo": "undo",
    "house_rule": "house rule",
    "export": "full export",
    "seat": "change of seats",
}


def proposed(action: object) -> str:
    """ "a proposed correction", "a proposed house rule" …"""
    return f"a proposed {ACTION_WORDS.get(str(action), str(action).replace('_', ' '))}"


def proposal_summary(proposal: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """A proposal in words, as far as every reader of it may know ("seat carol as referee")."""
    if proposal["action"] == "seat" and isinstance(proposal.get("data"), dict):
        kind, data = proposal["data"]["kind"], proposal["data"]["data"]
        side = state["sides"].get(data.get("side"), {}).get("name", data.get("side"))
        if kind == "campaign.finished":
            return f"end the campaign (“{data.get('reason', '')}”)"
        if kind == "referee.assigned" and not data.get("username"):
            return f"take the referee {state.get('referee') or ''} off".replace("  ", " ")
        if kind == "referee.assigned":
            return f"seat {data['username']} as referee"
        if kind == "player.assigned":
            return f"seat {data['username']} with {side}"
        if kind == "player.removed":
            return f"take {data['username']} off {side}"
        return f"seat {data['new']} with {side} instead of {data['old']}"
    return proposed(proposal["action"])


def proposal_rows(campaign: Campaign, viewer: Viewer, view: StateView) -> dict[str, dict[str, Any]]:
    """The viewer's cut of the proposals, each with what it is about in words and, for a
    correction, what it changes (before → after), for the page."""
    system = get_system(campaign.system)
    targets = {p.get("target_uid") for p in view["proposals"].values() if p.get("target_uid")}
    events = {
        str(e.uid): e for e in visibility.events_for(viewer, campaign).filter(uid__in=targets)
    }
    rows: dict[str, dict[str, Any]] = {}
    for uid, proposal in view["proposals"].items():
        row = dict(proposal)
        event = events.get(proposal.get("target_uid") or "")
        if event is not None and not proposal.get("hidden"):
            record = Record.from_event(event)
            row["target_text"] = describe(system, record, view)
            if proposal["action"] == "correct" and isinstance(proposal.get("data"), dict):
                row["changes"] = _changes(
                    record.data, proposal["data"], _fields_of(system, view, record)
                )
        rows[uid] = row
    return rows


def _fields_of(system: GameSystem, view: StateView, record: Record) -> Sequence[Field]:
    """The fields a correction of `record` is drawn with (what it names in words), else the
    kind's declared ones."""
    drawn = system.correction_fields(view, record.side or None, record.kind, dict(record.data))
    if drawn is not None:
        return drawn
    kind = system.event_kind(record.kind)
    return kind.fields if kind else ()


def _changes(
    before: Mapping[str, Any], after: Mapping[str, Any], fields: Sequence[Field] = ()
) -> list[tuple[str, str, str]]:
    """What a correction changes, in words: each field by its label, each value by its words
    (a choice's label, yes/no for a tick), as the event kind declares them. Values are compared
    as the journal keeps them (a default left out is no change); of a list of rows each named by
    its first field (a turn's locations, a record's units), only the rows that changed."""
    by_name = {f.name: f for f in fields}
    out = []
    for key in after:
        f = by_name.get(key)
        was, now = _kept(f, before.get(key)), _kept(f, after.get(key))
        if was == now:
            continue
        if f is not None and f.item is not None:
            was, now = _changed_rows(f.item, was, now)
        out.append((_field_title(f, key), _value_words(f, was), _value_words(f, now)))
    return out


def _kept(f: Field | None, value: object) -> object:
    """`value` as the journal keeps it (its defaults filled in), or as it is if it does not fit."""
    if f is None:
        return value
    try:
        return f.clean(value)
    except DomainError:
        return value


def _changed_rows(item: Field, before: object, after: object) -> tuple[object, object]:
    """Of two lists of rows each named once by the item's first field, the rows that differ: a row
    changed by its name and what changed in it, a row gone or new by what it holds (its defaults
    unsaid); the same rows in another order, or anything else, as it is (whole)."""
    if item.type != "object" or not item.fields:
        return before, after
    name = item.fields[0].name
    was, now = _rows_by(name, before), _rows_by(name, after)
    if was is None or now is None:
        return before, after
    gone = [_said(item, row, now.get(key)) for key, row in was.items() if now.get(key) != row]
    new = [_said(item, row, was.get(key)) for key, row in now.items() if was.get(key) != row]
    if not gone and not new:  # only the order changed: the page says both orders
        return before, after
    return gone, new


def _said(item: Field, row: dict[str, Any], other: dict[str, Any] | None) -> dict[str, Any]:
    """A row as a change says it: its name, then what differs from `other` (the same row on the
    other side of the change), or, a row alone, what is not its default."""
    defaults = {sub.name: sub.default for sub in item.fields}
    name = item.fields[0].name
    return {
        key: value
        for key, value in row.items()
        if key == name
        or (value != other.get(key) if other is not None else not _unsaid(value, defaults.get(key)))
    }


def _unsaid(value: object, default: object) -> bool:
    """A row's value a change need not say: its default, nothing, or "no" where none is said."""
    return value == default or value in (None, "", []) or (value is False and not default)


def _rows_by(name: str, rows: object) -> dict[object, Any] | None:
    """Rows by their `name` value, if each row has one of its own (a text or a number)."""
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        return None
    keys = [row.get(name) for row in rows]
    if not all(isinstance(k, (str, int)) for k in keys) or len(set(keys)) != len(keys):
        return None
    return dict(zip(keys, rows, strict=True))


def _field_title(f: Field | None, key: str) -> str:
    return f.title if f is not None else key.replace("_", " ").capitalize()


def _lower_first(text: str) -> str:
    """ "Fate" -> "fate", but "PP over IPC" stays as it is."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _value_words(f: Field | None, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value in (None, ""):
        return "—"
    if isinstance(value, list):
        item = f.item if f is not None else None
        return ", ".join(_value_words(item, v) for v in value) or "none"
    if isinstance(value, dict):
        subs = {s.name: s for s in (f.fields if f is not None else ())}
        return "; ".join(
            f"{_lower_first(_field_title(subs.get(k), k))} {_value_words(subs.get(k), v)}"
            for k, v in value.items()
        )
    if f is not None and f.choices:
        return f.choice_label(value)
    return str(value)
