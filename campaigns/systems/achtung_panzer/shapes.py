"""The shape of an Achtung! Panzer! campaign's state, for readers.

`public` is what both players and the club read (the CG Roster, the half-day, weather, each side's
ELR and SAN once announced); each side's entry is its secrets (CPP, purchases, retained units,
rolls), read only by that side and the referee (campaigns/access/visibility.py). Written by
`state.initial_state` and the Refit Phase appliers (refit_*.py) and the steps; rule numbers are the CG's.
"""

# No `from __future__ import annotations`: TypedDict needs NotRequired evaluated (3.11).
from typing import Any, Literal, NotRequired, TypedDict

Phase = Literal["refit", "play", "finished"]


class RosterLine(TypedDict):
    """One half-day of the CG Roster (1.14), filled by the half-day's log (halfday.py)."""

    half_day: str  # "5/29A"
    hist: dict[str, int]  # each side's Historical DRM (1.6161)
    played: bool
    op: dict[str, int | None]  # Objective Points per side
    cvp: dict[str, int]  # Casualty VP per side
    objectives_start: dict[str, list[str]]
    objectives_end: dict[str, list[str]]
    half_boards: dict[str, int]
    air_support: dict[str, bool]
    oba_missions: dict[str, int]
    bridges_destroyed: list[str]
    perimeter: dict[str, list[str]]
    type: str | None
    winner: str | None
    victory: Any
    weather: str | None
    ec: str | None
    sets_up_first: str | None
    moves_first: str | None
    attack_chits: dict[str, bool | None]
    elr: NotRequired[dict[str, Any]]  # each side's ELR announced for the half-day (1.625)
    cvp_after_victory: NotRequired[dict[str, int]]  # per side, before they were side-private


class WinLoss(TypedDict):
    won: int
    lost: int
    drawn: int


class Public(TypedDict):
    cg: str  # the Campaign Game's variant
    half_day: str  # the half-day in play or being refitted for
    refit_for: int
    phase: Phase
    initial: bool  # the Initial Scenario's refit (1.619-1.622 only)
    roster: list[RosterLine]
    record: dict[str, WinLoss]
    elr: dict[str, Any]  # per side, per nationality once announced (1.617, elr.py)
    san: dict[str, int | None]
    weather: str | None
    ec: str | None  # Environmental Conditions (1.618)
    wind: str | None
    special_half_day: str | None  # CG13's declaration
    british_half_days: int
    armor_half_days: int
    scenario_type: str | None  # None from 1.6121 until 1.623 sets it
    sets_up_first: str | None
    moves_first: str | None
    attack_chits: dict[str, bool | None]  # None until revealed (1.6241)
    bridges_destroyed: list[str]
    refit_key: str
    refit_initial: bool
    steps: dict[str, dict[str, Any]]  # by refit: each step's status and public record
    pending_steps: list[str]
    rolls: list[dict[str, Any]]  # public rolls, in words
    balance: str  # 1.31: "none" or the side both players want
    reached: NotRequired[dict[str, Any]]  # how far each side's refit has come
    special_declared: NotRequired[str]  # the half-day a special half-day was declared for (CG13)
    cvp_reported: NotRequired[dict[str, dict[str, int | None]]]  # by half-day, per side (1.6067)


class Side(TypedDict):
    cpp: int  # Campaign Purchase Points left
    fpp: int  # Fortification Purchase Points
    elr: dict[str, int]  # by nationality (elr.py)
    san: int
    rolls: list[dict[str, Any]]  # the side's secret rolls, in words
    purchases: list[dict[str, Any]]  # the RGs bought (1.619), in order
    fortifications: list[dict[str, Any]]
    retained: list[dict[str, Any]]  # the units kept from half-day to half-day
    eliminated: list[dict[str, Any]]
    next_id: int  # the number of the next purchase, unit or fortification id
    attack_chit: bool | None  # None from 1.6121 until chosen
    recon: dict[str, Any]  # 1.622
    pending: dict[str, Any]  # a step's answer waiting for its dice
    skipped: dict[str, Any]
    cvp_after_victory: dict[str, Any]
    aftermath: NotRequired[dict[str, Any]]  # the end of each half-day as the side recorded it
    platoons_on_map: NotRequired[list[str]]  # purchase ids of platoons that have entered play
    marks: NotRequired[dict[str, Any]]  # by refit: the units the side has marked in its steps
    fpp_forfeit: NotRequired[list[dict[str, Any]]]  # FPP lost unspent (1.621)
    # "<half-day>/<step>" -> what a step has already done (the units that tried to escape …)
    done: NotRequired[dict[str, list[Any]]]


class APGame(TypedDict):
    public: Public
    sides: dict[str, Side]
    referee: dict[str, Any]


class APState(TypedDict):
    """The campaign state the A!P! fold, steps and pages are handed: the core's keys (those of
    campaigns.journal.state_shapes.CampaignState, kept equal by tests/test_state_shape.py) with
    `game` its A!P! part. The game is set up whenever a rule runs; the pages' entry points check
    `state.get("game")` first."""

    version: int
    shape: str
    # stream -> the journal version it folds under (common.journal_version)
    journals: dict[str, int]
    seq: int
    system: str
    variant: str  # "cg1", "cg2", "cg3"
    name: str
    options: dict[str, Any]  # the campaign's options: dice_mode, balance (1.31) …
    status: Literal["setup", "active", "finished"]
    winner: str | None
    finish_reason: str
    sides: dict[str, Any]  # the seats of each side
    referee: str | None
    house_rules: dict[str, Any]  # the club's house rules (the CVP list, constants changed)
    scenarios: list[dict[str, Any]]  # the CG half-days of the variant, in order
    current: int | None  # index of the half-day being refitted for or played
    sealed: dict[str, Any]
    proposals: dict[str, Any]
    streams: dict[str, Any]
    export_approved: int | None
    played: dict[str, list[str]]
    refereed: list[str]
    departed: dict[str, str]
    undone: dict[str, Any]
    corrected: dict[str, Any]
    notes: NotRequired[list[dict[str, Any]]]
    game: APGame
