"""The shape of a victory ledger's state (Patton's Vanguard, Ardennes '44, FAB), for readers.

Everything a ledger game keeps is public (`state["game"]["public"]`); `sides` and `referee`
stay empty. Written by `initial_state` (system.py) and `ledger.start`/`record_turn`; the
set-up's rows come from the game's book.yaml as the organizer confirmed them.
"""

# No `from __future__ import annotations`: TypedDict needs NotRequired evaluated (3.11).
from typing import Any, Literal, NotRequired, TypedDict

LedgerPhase = Literal["setup", "play", "decision", "final", "over"]


class Setup(TypedDict):
    locations: list[dict[str, Any]]  # the book's locations, each with its starting holder
    units: list[dict[str, Any]]  # the book's units for this scenario (id, name, side, type …)
    params: dict[str, Any]  # the scenario's numbers as the organizer confirmed them
    by: NotRequired[str]  # who confirmed it (absent while it is the book's pre-filled set-up)


class LocationLine(TypedDict):
    controller: str  # the side holding it
    contested: bool
    supplied: bool


class UnitLine(TypedDict):
    status: str  # "full" at the start; the game's unit changes give the others
    since: str  # the turn it took that status
    via: str  # the event that gave it


class LedgerPublic(TypedDict):
    scenario: str  # the variant's slug
    phase: LedgerPhase
    setup: Setup
    turns: list[dict[str, Any]]  # the calendar: each turn's label and victory check
    next: int  # index in `turns` of the next record due
    locations: dict[str, LocationLine]  # by location id
    units: dict[str, UnitLine]
    ledger: list[dict[str, Any]]  # one line per recorded turn, with its VP
    outcome: dict[str, Any] | None  # the victory determination once over
    decision: dict[str, Any] | None  # a choice the rules leave to a player (continue or stop)
    chart: dict[str, Any] | None  # the VP chart's series, drawn by chart.py
    pending: list[dict[str, Any]]  # events the next turn record must carry
    listed: NotRequired[list[str]]  # locations the turn form lists
    coming: NotRequired[list[list[str]]]  # [label, text] pairs: what the next turn brings
    provisional: NotRequired[dict[str, Any]]  # a record waiting for the other side


class LedgerGame(TypedDict):
    """A ledger game's state; a game with keys of its own names them in its own shapes.py."""

    public: LedgerPublic
    sides: dict[str, dict[str, Any]]
    referee: dict[str, Any]
