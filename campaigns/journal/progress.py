"""A campaign's progress through its calendar: the next scenario, the end, a sealed choice opened.

The core's handlers and the games both move a campaign on with these (games through
campaigns.game_interface). They touch the state only: no game, no journal, no database.
"""

from __future__ import annotations

from typing import Any, Protocol

from campaigns.errors import DomainError
from campaigns.journal.state_shapes import HeldState, plain


class _CalendarEnd(Protocol):
    def on_calendar_end(self, state: dict[str, Any], ctx: Moving) -> None: ...


class Moving(Protocol):
    """What `advance` reads of the fold's context (campaigns.journal.context.Ctx): the game, which
    decides the end of the calendar. Named here: the context and the games import this module."""

    @property
    def system(self) -> _CalendarEnd: ...


def advance(state: HeldState, ctx: Moving) -> None:
    """Make the next scenario current, or end the campaign after the last one."""
    nxt = (state["current"] if state["current"] is not None else -1) + 1
    if nxt < len(state["scenarios"]):
        state["current"] = nxt
        state["scenarios"][nxt]["status"] = "current"
    else:
        state["current"] = None
        ctx.system.on_calendar_end(plain(state), ctx)
        if state["status"] != "finished":
            finish(state, None, "The last scenario has been played.")


def finish(state: HeldState, winner: str | None, reason: str) -> None:
    state["status"] = "finished"
    state["winner"] = winner
    state["finish_reason"] = reason
    for sealed in state["sealed"].values():
        sealed["open"] = False


def open_sealed(
    state: HeldState,
    key: str,
    label: str,
    sides: list[str],
    options: list[Any] | None = None,
) -> None:
    if key in state["sealed"]:
        raise DomainError("key", f"The sealed choice {key} is already open.")
    state["sealed"][key] = {
        "label": label,
        "sides": list(sides),
        "options": options,
        "choices": {},
        "revealed": False,
        "open": True,
    }
