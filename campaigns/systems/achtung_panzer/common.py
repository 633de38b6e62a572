"""Shared reads of the Achtung! Panzer! state used by every step module.

State shape (docs/achtung-panzer.md): state["game"] = {"public": {...}, "sides": {"allied": {...},
"german": {...}}, "referee": {}}. Sides are "allied" and "german".
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from campaigns.game_interface import Mod

from .shapes import APState, Public, RosterLine, Side

SIDES = ("allied", "german")
JOURNAL_VERSION = 6  # the A!P! journal version written today (system.py; upgrades.py)
CHOICES_BEFORE_ROLL_SINCE = 6  # 1.6112/1.6113: the choice may be given with the roll (R-A26)
# 1.6112 (R-B17): from v2 an elite MMC that hardens becomes fanatic, and only one; v1 asked the player
ELITE_FANATIC_SINCE = 2


def journal_version(state: APState) -> int:
    """The A!P! journal version the events being folded were written under (today's for a page:
    a stored campaign is upgraded before it is played on)."""
    return state.get("journals", {}).get("achtung_panzer", JOURNAL_VERSION)


def since(state: APState, version: int) -> bool:
    """Whether the events being folded were written under `version` of the A!P! journal or later:
    a rule that came with it keeps the one before for earlier events (docs/rules-notes.md, "Rules
    and the journal version they came with")."""
    return journal_version(state) >= version


def elite_becomes_fanatic(state: APState) -> bool:
    return journal_version(state) >= ELITE_FANATIC_SINCE


def choices_before_roll(state: APState) -> bool:
    return journal_version(state) >= CHOICES_BEFORE_ROLL_SINCE


def other(side: str) -> str:
    return "german" if side == "allied" else "allied"


def public(state: APState) -> Public:
    return state["game"]["public"]


def private(state: APState, side: str) -> Side:
    return state["game"]["sides"][side]


def current_index(state: APState) -> int:
    """The index of the half-day being refitted for or played (the core's current scenario), set
    whenever a rule of the half-day runs."""
    index = state["current"]
    assert index is not None, "no current half-day"
    return index


def core_state(state: APState) -> dict:
    """The state as the core's helpers (advance, finish, open_sealed, Ctx.reading) take it: a plain
    dict, the same object."""
    return cast(dict, state)


def half_day(state: APState) -> str:
    """Label of the current CG half-day ("5/30A"): the one whose RePh is running
    before 1.6121, the new one from 1.6121 on (refit_own_steps.py moves it)."""
    return public(state)["half_day"]


def roll_key(state: APState, step_id: str, side: str, subject: str = "") -> str:
    """Dice are keyed by half-day, step, side and subject: "5/30A/1.616/allied"."""
    key = f"{half_day(state)}/{step_id}/{side}"
    return f"{key}/{subject}" if subject else key


def record_roll(state: APState, side: str, report: dict, step_id: str) -> dict:
    """Keep a roll report where only its side (and the referee) can read it."""
    report = dict(report, step=step_id, half_day=half_day(state))
    private(state, side)["rolls"].append(report)
    return report


def record_public_roll(state: APState, report: dict, step_id: str) -> dict:
    report = dict(report, step=step_id, half_day=half_day(state))
    public(state)["rolls"].append(report)
    return report


# --- history the modifiers depend on -------------------------------------------------


def completed(state: APState) -> list[RosterLine]:
    """The CG roster lines of half-days whose winner has been determined (1.6067)."""
    return [line for line in public(state)["roster"] if line.get("winner") is not None]


def previous_line(state: APState) -> RosterLine | None:
    """The roster line of the just-completed (previous) half-day, if any."""
    done = completed(state)
    return done[-1] if done else None


def won_previous(state: APState, side: str) -> bool:
    line = previous_line(state)
    return bool(line and line["winner"] == side)


def cvp_sustained_previous(state: APState, side: str, include_refit: bool = True) -> int:
    """CVP the side sustained in the previous half-day. Units eliminated in the RePh
    after 1.6067 count for the CPP DRM only (include_refit=True there)."""
    line = previous_line(state)
    if not line:
        return 0
    cvp = line["cvp"][side]
    if include_refit:
        # Eliminated after 1.6067: side-private (sides.<side>.cvp_after_victory by half-day).
        cvp += private(state, side).get("cvp_after_victory", {}).get(line["half_day"], 0)
        cvp += line.get("cvp_after_victory", {}).get(side, 0)  # older shape, still read
    return cvp


def win_loss(state: APState, side: str) -> tuple[int, int]:
    record = public(state)["record"][side]
    return record["won"], record["lost"]


HISTORICAL_TABLE = (
    "cg_roster"  # 1.6161: "The DRM given on the chart on the Campaign Game Roster are used"
)


# R-A11: the CG Roster's chart from A!P! v2 on; v1 read the 1.6161 chart (6/3P German -1), and its
# events keep it (ctx.journal_version).
ROSTER_CHART_SINCE = 2
HISTORICAL_TABLE_V1 = "1.6161"


def historical_mod(ctx, state: APState, side: str) -> Mod:
    """1.6161: the side's historical DRM for the current half-day, from the CG Roster's chart (where
    the 1.6161 chart differs, 6/3P German, the roster's is the rule: rules-notes R-A11)."""
    table = HISTORICAL_TABLE if ctx.journal_version >= ROSTER_CHART_SINCE else HISTORICAL_TABLE_V1
    value = ctx.table(table).value(half_day(state), side)
    return Mod(f"Historical DRM ({half_day(state)})", "1.6161", int(value))


def balance_mod(ctx, state: APState, side: str) -> Mod | None:
    """1.32: applies itself from the win:loss record; at most one of its two DRMs."""
    won, lost = win_loss(state, side)
    played = len(completed(state))  # every decided half-day, a drawn Dual Attack too
    for tier in ("tier2", "tier1"):
        if played >= int(ctx.value(f"balance.{tier}.min_completed")) and Fraction(
            won, played
        ) <= Fraction(str(ctx.value(f"balance.{tier}.max_won_fraction"))):
            drm = int(ctx.value(f"balance.{tier}.drm"))
            return Mod(f"Balance provision ({won} won of {played})", "1.32", drm)
    return None


def nationality_of(side: str, state: APState | None = None) -> str:
    return "german" if side == "german" else "french"
