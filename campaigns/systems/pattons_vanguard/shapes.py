"""Patton's Vanguard's own keys on top of the victory ledger's (victory_ledger/shapes.py)."""

from typing import Any, TypedDict, cast

from campaigns.game_interface import HeldState
from campaigns.systems.victory_ledger.shapes import LedgerPublic


class Bid(TypedDict):
    """The revealed bids (20.1): who commands the Germans and the VP they need."""

    german: int
    american: int
    threshold: int
    swapped: bool
    text: str


class PattonsPublic(LedgerPublic):
    advantage: str | None  # the side holding the Advantage (16.1D); None once used this phase
    bid: Bid | None  # once both bids are revealed
    turn_values: dict[str, Any]  # the last turn record's own answers (supply through Area 8)


class PattonsGame(TypedDict):
    public: PattonsPublic
    sides: dict[str, dict[str, Any]]
    referee: dict[str, Any]


def public(state: HeldState) -> PattonsPublic:
    """The game's part of a state (or of a reader's view of it), with Patton's Vanguard's keys."""
    return cast(PattonsGame, state["game"])["public"]
