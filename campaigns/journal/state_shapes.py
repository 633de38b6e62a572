"""The shape of a folded campaign state, for readers and for mypy.

The state is a JSON-able dict (docs/architecture.md, "The journal is the truth"): these
TypedDicts name its keys and what each holds, so a reader does not have to find the fold
that writes them. They describe, they do not check: the fold and the journal's own checks
(`campaigns.schema.fields`) decide what is stored. `GameState` is the convention every game's
own state follows; each game names its own parts in its folder (its `shapes` module).
"""

# No `from __future__ import annotations`: TypedDict needs NotRequired evaluated (3.11).
from typing import Any, Literal, NotRequired, TypedDict

CampaignStatus = Literal["setup", "active", "finished"]
ScenarioStatus = Literal["upcoming", "current", "pending", "disputed", "played"]


class SideSeats(TypedDict):
    name: str
    players: list[str]  # usernames seated on this side now


class Scenario(TypedDict):
    index: int
    label: str
    status: ScenarioStatus
    result: dict[str, Any] | None  # the confirmed result, in the game's own fields
    pending: dict[str, Any] | None  # a provisional result waiting for the other side
    dispute: NotRequired[dict[str, Any]]  # who disputed the provisional result, and why


class HouseRule(TypedDict):
    value: Any
    book: Any  # the rulebook's value it replaces
    note: str
    seq: int  # the event that set it


class GameState(TypedDict):
    """Every game's own state: what all may read, each side's secrets, the referee's."""

    public: dict[str, Any]
    sides: dict[str, dict[str, Any]]
    referee: dict[str, Any]


class CampaignState(TypedDict):
    version: int
    shape: str  # campaigns.journal.engine.STATE_SHAPE when it was folded
    journals: dict[str, int]  # stream ("core", the game's slug) -> journal version it folds under
    seq: int  # the last event folded
    system: str
    variant: str
    name: str
    options: dict[str, Any]
    status: CampaignStatus
    winner: str | None
    finish_reason: str
    sides: dict[str, SideSeats]
    referee: str | None
    house_rules: dict[str, HouseRule]
    scenarios: list[Scenario]
    current: int | None  # index of the scenario being played
    sealed: dict[str, Any]  # sealed choices by key, until revealed
    proposals: dict[str, Any]  # open and settled proposals by number
    streams: dict[str, Any]
    export_approved: int | None  # seq of the proposal that agreed to a full export
    played: dict[str, list[str]]  # since the start: username -> sides played
    refereed: list[str]  # since the start: who has refereed
    departed: dict[str, str]  # side -> the player who left it empty in play
    undone: dict[str, Any]
    corrected: dict[str, Any]
    notes: NotRequired[list[dict[str, Any]]]
    game: GameState | None
