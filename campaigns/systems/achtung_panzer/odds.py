"""Exact odds of a side's upcoming A!P! rolls, for the odds panel (computed by the odds task).

Each entry is campaigns.dice.table_rolls.upcoming_odds of one UpcomingRoll (every outcome with its exact
fraction, by enumerating the dice). For the rolls that change a side value the entry also gives
the distribution of the value afterwards: CPP after replenishment (1.616), ELR after 1.617 (bounded
by the constants), so a player reads "next half-day's CPP" and "the chance of losing ELR" directly.
"""

from __future__ import annotations

from fractions import Fraction

from campaigns.game_interface import upcoming_odds

from . import common, elr
from .shapes import APState


def _after(entry: dict, start: int, lo: int | None = None, hi: int | None = None) -> list[dict]:
    totals: dict[int, Fraction] = {}
    for outcome in entry["outcomes"]:
        value = start + int(outcome["outcome"])
        if lo is not None:
            value = max(lo, value)
        if hi is not None:
            value = min(hi, value)
        totals[value] = totals.get(value, Fraction(0)) + Fraction(outcome["fraction"])
    return [
        {"value": v, "fraction": str(p), "percent": round(float(p) * 100, 2)}
        for v, p in sorted(totals.items())
    ]


def side_odds(state: APState, side: str, ctx, rolls) -> list[dict]:
    """`rolls`: the side's UpcomingRoll list (system.upcoming_rolls)."""
    private = common.private(state, side)
    entries = []
    for roll in rolls:
        entry = upcoming_odds(ctx, roll)
        if roll.table == "1.616" and roll.column == "cpp":
            entry["after"] = {
                "label": "CPP after replenishment",
                "values": _after(entry, private["cpp"]),
            }
        elif roll.table == "1.617" and roll.column == "elr_change":
            main = elr.MAIN[side]
            entry["after"] = {
                "label": f"{elr.WORDS[main]} ELR after 1.617",
                "values": _after(
                    entry, elr.groups(private["elr"], side)[main], *elr.bounds(ctx, main)
                ),
            }
        elif roll.table.startswith("1.6113.") and roll.column == "leader":
            _name_leaders(state, side, ctx, roll, entry)
        entries.append(entry)
    return entries


def _name_leaders(state: APState, side: str, ctx, roll, entry: dict) -> None:
    """1.6113: each result names the retained leader(s) it would battle harden (the leader of that
    type, else the lowest-grade non-wounded one), as the player reads it at the table."""
    from . import words
    from .steps.leader_hardening import candidates

    nationality = roll.table.rsplit(".", 1)[-1]
    pend = {"nationality": nationality, "leader_kind": "infantry"}
    named = words.names_for(state, side)
    for outcome in entry["outcomes"]:
        who = candidates(ctx, state, side, pend, outcome["outcome"])
        if outcome["outcome"] != "None":
            names = ", ".join(words.unit_label(u, named) for u in who) or "no leader retained"
            outcome["outcome"] = f"{outcome['outcome']}: {names}"
