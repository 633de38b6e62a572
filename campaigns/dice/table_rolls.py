"""Rolling on a table, and what a roll shows afterwards.

A roll report carries the dice, the original roll, every modifier with its name
and rule number, the final roll, the table row it hit and the result (with the
book value beside a house-ruled one). Modifiers are recomputed from the state
each time the journal is folded; only the dice are stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaigns.dice import expressions as dicelib
from campaigns.dice.tables import BoundTable

if TYPE_CHECKING:  # the context and the games' declarations import the dice, not the other way
    from campaigns.journal.context import Ctx
    from campaigns.systems.base import UpcomingRoll


@dataclass(frozen=True)
class Mod:
    label: str
    rule: str
    value: int

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "rule": self.rule, "value": self.value}


def total(mods: Iterable[Mod]) -> int:
    return sum(m.value for m in mods)


def roll_on(
    ctx: Ctx,
    table_id: str,
    key: str,
    mods: Sequence[Mod] = (),
    side: str = "",
    label: str = "",
) -> dict[str, Any]:
    """Roll the table's dice for `key` and read the final roll on the table."""
    table = ctx.table(table_id)
    faces = ctx.roll(key, table.dice, side)
    original = dicelib.parse(table.dice).total(faces)
    final = original + total(mods)
    row = table.lookup(final)
    cells = {column: table.cell(row, column) for column in table.columns}
    report = {
        "key": key,
        "label": label or table.name,
        "table": table.id,
        "rule": table.rule,
        "expr": table.dice,
        "dice": faces,
        "original": original,
        "modifiers": [m.as_dict() for m in mods],
        "final": final,
        "row": row.label,
        "result": {column: cell.value for column, cell in cells.items()},
    }
    house = {column: cell.book for column, cell in cells.items() if cell.house_ruled}
    if house:
        report["book"] = house
    return report


def plain_roll(
    ctx: Ctx,
    key: str,
    expr: str,
    mods: Sequence[Mod] = (),
    side: str = "",
    label: str = "",
    rule: str = "",
) -> dict[str, Any]:
    """A roll read directly (no table), e.g. a recon dr giving a number of Locations."""
    faces = ctx.roll(key, expr, side)
    original = dicelib.parse(expr).total(faces)
    return {
        "key": key,
        "label": label,
        "table": None,
        "rule": rule,
        "expr": expr,
        "dice": faces,
        "original": original,
        "modifiers": [m.as_dict() for m in mods],
        "final": original + total(mods),
        "row": None,
        "result": {},
    }


def odds(
    bound_table: BoundTable, mods: Sequence[Mod] = (), column: str | None = None
) -> list[dict[str, Any]]:
    """Exact chance of each outcome of the table for these modifiers."""
    rows = bound_table.distribution(total(mods), column)
    return [
        {"outcome": label, "fraction": str(p), "percent": round(float(p) * 100, 2)}
        for label, p in rows
    ]


def fraction_sum(entries: Iterable[dict[str, Any]]) -> Fraction:
    return sum((Fraction(e["fraction"]) for e in entries), Fraction(0))


def dice_odds(expr: str, mods: Sequence[Mod] = ()) -> list[dict[str, Any]]:
    """Exact chance of each final value of a plain roll (no table), e.g. a recon dr."""
    parsed = dicelib.parse(expr)
    counts: dict[int, int] = {}
    for faces in parsed.outcomes():
        final = parsed.total(list(faces)) + total(mods)
        counts[final] = counts.get(final, 0) + 1
    whole = sum(counts.values())
    return [
        {
            "outcome": str(final),
            "fraction": str(Fraction(n, whole)),
            "percent": round(n / whole * 100, 2),
        }
        for final, n in sorted(counts.items())
    ]


def upcoming_odds(ctx: Ctx, roll: UpcomingRoll) -> dict[str, Any]:
    """The odds of one systems.base.UpcomingRoll: its table (or "dice:<expr>" for a plain roll),
    its modifiers as they stand now, and the exact chance of every outcome."""
    mods = [Mod(label, rule, value) for label, rule, value in roll.modifiers]
    if roll.table.startswith("dice:"):
        outcomes = dice_odds(roll.table.removeprefix("dice:"), mods)
    else:
        outcomes = odds(ctx.table(roll.table), mods, roll.column)
    return {
        "key": roll.key,
        "label": roll.label,
        "table": roll.table,
        "column": roll.column,
        "modifiers": [m.as_dict() for m in mods],
        "total_modifier": total(mods),
        "outcomes": outcomes,
    }
