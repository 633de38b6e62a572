"""Patton's Vanguard's own keys on top of the victory ledger's (victory_ledger/shapes.py)."""

from typing import Any, TypedDict

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
