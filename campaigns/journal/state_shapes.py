"""The shape of a folded campaign state, for readers and for mypy.

The state is a JSON-able dict (docs/architecture.md, "The journal is the truth"): these
TypedDicts name its keys and what each holds, so a reader does not have to find the fold
that writes them. They describe, they do not check: the fold and the journal's own checks
(`campaigns.schema.fields`) decide what is stored. `GameState` is the convention every game's
own state follows; each game names its own parts in its folder (its `shapes` module).
"""

# No `from __future__ import annotations`: TypedDict needs NotRequired evaluated (3.11).
from typing import Any, Literal, NotRequired, TypedDict, cast

CampaignStatus = Literal["setup", "active", "finished"]
ScenarioStatus = Literal["upcoming", "current", "pending", "disputed", "played"]


class SideSeats(TypedDict):
    name: str
    players: list[str]  # usernames seated on this side now


class PendingResult(TypedDict):
    side: str  # the side that submitted it ("" the referee)
    by: str
    data: dict[str, Any]  # in the game's own fields


class Dispute(TypedDict):
    side: str
    by: str
    reason: str


class Scenario(TypedDict):
    index: int
    label: str
    status: ScenarioStatus
    result: dict[str, Any] | None  # the confirmed result, in the game's own fields
    pending: PendingResult | None  # a provisional result waiting for the other side
    dispute: NotRequired[Dispute]  # who disputed the provisional result, and why


class SealedChoice(TypedDict):
    """A choice every side named makes in secret, revealed once all have chosen."""

    label: str
    sides: list[str]
    options: list[Any] | None  # the choices allowed, None for any the game accepts
    choices: dict[str, Any]  # side -> its choice
    revealed: bool
    open: bool


ProposalAction = Literal["correct", "undo", "house_rule", "export", "seat"]
ProposalStatus = Literal["pending", "rejected", "applied"]


class Proposal(TypedDict):
    """A change that needs the other sides' agreement (campaigns.journal.proposals)."""

    seq: int  # the proposal.made event
    uid: str
    action: ProposalAction
    target: int | None  # the event corrected or undone
    data: Any  # the corrected data, the house rule, the seat change; None for the others
    reason: str
    by: str
    side: str
    audience: str  # as private as the event it changes
    target_side: str
    target_kind: str
    approved: list[str]  # sides, or "referee"
    status: ProposalStatus
    needs: list[str]  # the sides whose agreement it waits for
    target_uid: NotRequired[str]
    stand_ins: NotRequired[dict[str, str]]  # side -> who agreed for it, having left it empty
    applied: NotRequired[int]  # the proposal.applied event


class Note(TypedDict):
    """An after-action note on a scenario."""

    scenario: int
    text: str
    by: str
    side: str
    private: bool  # for the author's side only
    uid: str


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
    sealed: dict[str, SealedChoice]  # sealed choices by key
    proposals: dict[str, Proposal]  # open and settled proposals by number (their seq)
    streams: dict[str, int]  # "campaign" or "side:<slug>" -> events filed there
    export_approved: int | None  # seq of the proposal that agreed to a full export
    played: dict[str, list[str]]  # since the start: username -> sides played
    refereed: list[str]  # since the start: who has refereed
    departed: dict[str, str]  # side -> the player who left it empty in play
    undone: dict[str, int]  # seq of an event undone -> the proposal that undid it
    corrected: dict[str, int]  # seq of an event corrected -> the proposal that corrected it
    notes: NotRequired[list[Note]]
    game: GameState | None


# What one viewer may read of a campaign state (campaigns.access.visibility.view_state): the
# keys of CampaignState cut to the viewer (no sequence numbers outside the referee's, proposals
# by uid, each side's secrets only for that side), as the pages, the API and the games read it.
StateView = dict[str, Any]

# A campaign state as the core (CampaignState) or a game (its own shape, or a plain dict: the
# hooks of campaigns.systems.base take it so) holds it: what the helpers games share take.
HeldState = CampaignState | dict[str, Any]


def plain(state: HeldState) -> dict[str, Any]:
    """The state as a game's hooks take it: the same object, as a plain dict."""
    return cast(dict[str, Any], state)
