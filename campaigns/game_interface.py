"""What a game may use of the core: the one module games import from campaigns.

A game (campaigns/systems/<game>/, a shared game package such as victory_ledger, or a game app
named in MUSTER_EXTRA_SYSTEMS) imports the core only from here; a test holds every game to it
(tests/core/test_games_import_only_the_game_interface.py). The dependency runs one way: this
module imports core modules, and no core module imports it or any game. A game that needs
something of the core not listed here adds it here, in the group it belongs to, and says why.
"""

from __future__ import annotations

from campaigns.dice.expressions import parse as parse_dice
from campaigns.dice.table_rolls import Mod, plain_roll, roll_on, upcoming_odds
from campaigns.dice.tables import TableSet
from campaigns.journal.context import Ctx
from campaigns.journal.core_events import KINDS as _CORE_KINDS
from campaigns.journal.progress import advance, finish, open_sealed
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState, GameState, HeldState, StateView
from campaigns.schema.fields import EventKind, Field, clean_fields

from .errors import DomainError
from .systems import GameAppConfig
from .systems.base import (
    Action,
    GameSystem,
    RosterKind,
    SheetDef,
    SideDef,
    StepStatus,
    UpcomingRoll,
    Variant,
)
from .versions import Insert, Upgrade


def core_kind(name: str) -> EventKind:
    """A core event kind by name (e.g. "result.submitted"), for a game's own forms of it."""
    return _CORE_KINDS[name]


__all__ = [
    # What a game is: its app (apps.py), the class it subclasses and the values it declares.
    "GameAppConfig",
    "GameSystem",
    "SideDef",
    "Variant",
    "SheetDef",
    "RosterKind",
    # What a game offers the people at the table: the next steps and the rolls to come.
    "Action",
    "StepStatus",
    "UpcomingRoll",
    # Its events, their fields and its refusals.
    "EventKind",
    "Field",
    "clean_fields",
    "core_kind",
    "DomainError",
    # Moving the campaign on: next scenario, the end, a secret choice every side makes.
    "advance",
    "finish",
    "open_sealed",
    # Dice and tables: a roll on a table or of plain dice, with named modifiers, and its odds.
    "Mod",
    "roll_on",
    "plain_roll",
    "upcoming_odds",
    "parse_dice",
    "TableSet",
    # The fold's context (rolls, tables, house rules) and the events it reads.
    "Ctx",
    "Record",
    # The folded state (CampaignState), the convention of its game part, the state as the hooks
    # take it (HeldState: the core's shape or a plain dict) and a reader's cut of it (StateView).
    "CampaignState",
    "GameState",
    "HeldState",
    "StateView",
    # Upgrading the game's journal when its rules change (campaigns.versions).
    "Upgrade",
    "Insert",
]
