"""Records the other side confirms (docs/rules-notes.md, VL-5), so that one side alone cannot write the score: a side's turn record, and FAB's end-of-game result, stay
provisional until the other side confirms them, as a scenario result does, through the core's own
result events (campaigns.journal.core_events): ``result.confirmed`` by the other side or the referee,
``result.disputed`` by the other side, ``result.resolved`` by the referee or an organizer who plays
no side (with the record as settled), ``result.withdrawn`` by the side that recorded it.

While a record waits, the core scenario being played is "pending" with the record's data, and
the game's own state is untouched: the record was checked against the rules when it was
submitted (on a copy of the state, whose outcome is kept as words for the person confirming),
and it is applied, victory checks and all, only when confirmed or settled
(``LedgerSystem.on_result``). The next turn waits for it. A record the referee enters is final
at once, as his result is in every game; journals written before a game's ``confirmed_from``
version keep their records final as they were (a "fold" upgrade step).
"""

from __future__ import annotations

import copy

from django.utils.text import capfirst

from campaigns.game_interface import HeldState, Record

from .ledger import public

HELD = ("pending", "disputed")


def needed(system, state: HeldState, record, ctx) -> bool:
    """Whether `record` (one of the game's confirmed kinds) waits for the other side."""
    return (
        ctx.journal_version >= system.confirmed_from
        and bool(record.side)
        and record.actor != state["referee"]
        and len(state["sides"]) > 1
    )


def hold(system, state: HeldState, record, ctx) -> None:
    """Check `record` as if applied now (refused as it would be), then keep it waiting."""
    trial = copy.deepcopy(state)
    system.apply_record(trial, record, ctx)
    public(state)["provisional"] = {
        "kind": record.kind,
        "uid": record.uid,
        "by": record.actor,
        "side": record.side,
        "data": record.data,
        "what": _what(system, record),
        "lines": _lines(system, trial, record),
    }
    index = state["current"]
    assert index is not None, "a record is held while a scenario is played"
    state["scenarios"][index].update(
        {
            "status": "pending",
            "pending": {"side": record.side, "by": record.actor, "data": dict(record.data)},
        }
    )


def held(state: HeldState) -> dict | None:
    """The record waiting for confirmation (or disputed), or None."""
    game = state.get("game")
    current = state.get("current")
    if not game or current is None or state["scenarios"][current]["status"] not in HELD:
        return None
    return game["public"].get("provisional")


def confirmed(system, state: HeldState, index: int, data: dict, ctx) -> None:
    """The core confirmed (or an arbiter settled) the waiting record: apply it now, as its
    side recorded it (or as settled), and say so in the ledger."""
    pub = public(state)
    waiting = pub.pop("provisional")
    state["scenarios"][index].update({"status": "current", "result": None})
    record = Record(
        ctx.record.seq, waiting["kind"], data, waiting["by"], waiting["side"], uid=waiting["uid"]
    )
    before = len(pub["ledger"])
    system.apply_record(state, record, ctx)
    how = "settled" if ctx.record.kind == "result.resolved" else "confirmed"
    if len(pub["ledger"]) > before:
        pub["ledger"][before]["confirmed"] = {
            "how": how,
            "by": ctx.record.actor,
            "side": ctx.record.side,
        }


def words(system, state: HeldState, index: int, data: dict) -> list[str] | None:
    """The waiting record in sentences, with what it implies, for the Confirm / Dispute box."""
    waiting = held(state)
    if waiting is None or data != waiting["data"]:
        return None
    return list(waiting["lines"])


def what(system, state: HeldState) -> str | None:
    """ "the German's record of Turn 2 (20 Sep)", for the to-dos and the waits."""
    waiting = held(state)
    if waiting is None:
        return None
    return waiting["what"]


def waiting_text(system, state: HeldState) -> str | None:
    waiting = held(state)
    if waiting is None:
        return None
    book = system.book
    what = capfirst(waiting["what"])
    index = state["current"]
    assert index is not None, "a record waits only while a scenario is played"
    if state["scenarios"][index]["status"] == "disputed":
        return (
            f"{what} is disputed: the referee (or an organizer who "
            f"plays no side) settles it before play goes on."
        )
    return (
        f"{what} waits for the "
        f"{book.side_name(book.other(waiting['side']))}'s confirmation (or the referee's) before play goes on."
    )


def _what(system, record) -> str:
    side = system.book.side_name(record.side)
    if record.kind == f"{system.event_prefix}.turn":
        return f"the {side}'s record of {record.data.get('turn')}"
    return f"the {side}'s end-of-game result"


def _lines(system, trial: HeldState, record) -> list[str]:
    """What the record says and what it gives once applied (read from the trial state)."""
    pub = public(trial)
    if record.kind != f"{system.event_prefix}.turn":
        outcome = pub.get("outcome") or {}
        if not outcome:
            return []
        winner = (
            f"{system.book.side_name(outcome['winner'])} victory" if outcome["winner"] else "A draw"
        )
        return [f"Result: {winner}: {outcome['text']}", "Once confirmed the game ends."]
    entry = pub["ledger"][-1]
    lines = [f"{c['name']}: {c['text']}" for c in entry["changed"]] or [
        "Every location as at the end of the last turn."
    ]
    lines += [u["text"] for u in entry["units"]]
    lines += [f"{label}: {text}" for label, text in entry["extras"]]
    if entry.get("note"):
        lines.append(f"Note: {entry['note']}")
    lines += entry["lines"]
    lines += [f"{c['name']} ({c['rule']}): {c['text']}" for c in entry["checks"]]
    if entry.get("decision"):
        lines.append(entry["decision"]["text"])
    elif entry.get("outcome"):
        outcome = entry["outcome"]
        winner = system.book.side_name(outcome["winner"]) if outcome["winner"] else "A draw"
        lines.append(
            f"Once confirmed the game ends: {winner}: {outcome['text']} ({outcome['rule']})."
        )
    return lines
