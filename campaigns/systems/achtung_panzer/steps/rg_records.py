"""What the 1.620 steps read of this half-day's RGs (their row of the RG table, their kind, their
1.6202 row), the marks of what each has rolled, and the rolls they share: the secret DR on a
table, a plain dr, Random Selection."""

from __future__ import annotations

from pathlib import Path

from campaigns.game_interface import Mod, TableSet, plain_roll, roll_on

from .. import common, retained as retained_units
from ..shapes import APState
from . import purchases as P

_BOOK = TableSet.load(Path(__file__).resolve().parents[1] / "tables")


def rg_row(purchase: dict):
    if not purchase.get("rg"):
        return None
    return _BOOK.tables[P.rg_table_id(purchase["nationality"])].row(purchase["rg"])


def kind_of(purchase: dict) -> str | None:
    if purchase.get("kind"):
        return purchase["kind"]
    row = rg_row(purchase)
    return row.cells["kind"] if row else None


def cell(ctx, purchase: dict, column: str):
    return P.rg_cell(ctx, purchase["nationality"], purchase["rg"], column)


def is_hw_platoon(purchase: dict) -> bool:
    row = rg_row(purchase)
    return bool(row and row.cells["kind"] == "infantry" and "Hvy Wpn" in row.cells["group_type"])


def sw_row_key(purchase: dict) -> str | None:
    """The 1.6202 row of an infantry RG ("german:first_line" for German I1), None if it has none."""
    for row in _BOOK.tables["1.6202"].rows:
        nationality = row.label.split(":", 1)[0]
        if nationality == purchase["nationality"] and row.cells["rg"] == purchase.get("rg"):
            return row.label
    return None


def to_roll(state: APState, side: str) -> list[dict]:
    """This half-day's RGs, bought and given, in purchase order."""
    return P.this_half_day(state, side, include_given=True)


def rolled(purchase: dict, step_id: str) -> bool:
    return step_id in purchase.get("rolled", [])


def mark_rolled(purchase: dict, step_id: str) -> None:
    purchase.setdefault("rolled", []).append(step_id)


def strength_mods(ctx, state: APState, side: str) -> list[Mod]:
    mods = [common.historical_mod(ctx, state, side)]
    balance = common.balance_mod(ctx, state, side)
    if balance:
        mods.append(balance)
    return [m for m in mods if m.value]


def secret_roll(ctx, state: APState, side, table_id, step_id, subject, mods=(), label=""):
    report = roll_on(
        ctx, table_id, common.roll_key(state, step_id, side, subject), mods, side=side, label=label
    )
    return common.record_roll(state, side, report, step_id)


def plain_dr(ctx, state: APState, side, step_id, subject, expr="1d6", mods=(), label="", rule=""):
    report = plain_roll(
        ctx,
        common.roll_key(state, step_id, side, subject),
        expr,
        mods,
        side=side,
        label=label,
        rule=rule or step_id,
    )
    return report


def random_pick(ctx, state: APState, side, step_id, subject, count: int, label: str) -> int:
    """Random Selection of one of `count` items (0-based) with d6: 1d3 for three, a dr split in two
    halves for two, otherwise a dr re-rolled while it exceeds `count` (each re-roll its own key)."""
    if count <= 1:
        return 0
    if count == 3:
        report = plain_dr(ctx, state, side, step_id, subject, "1d3", label=label)
        common.record_roll(state, side, dict(report, row=str(report["final"])), step_id)
        return report["final"] - 1
    if count == 2:
        report = plain_dr(ctx, state, side, step_id, subject, label=label)
        pick = 0 if report["final"] <= 3 else 1
        common.record_roll(state, side, dict(report, row="1-3" if pick == 0 else "4-6"), step_id)
        return pick
    for attempt in range(1, 21):
        report = plain_dr(ctx, state, side, step_id, f"{subject}/{attempt}", label=label)
        common.record_roll(state, side, dict(report, row=str(report["final"])), step_id)
        if report["final"] <= count:
            return report["final"] - 1
    return 0  # twenty re-rolls in a row: not reachable with honest dice


def discovering(ctx) -> bool:
    """True while players are being asked for dice (entered mode): the missing dice read as
    placeholders, so a roll that depends on them (the attached dr after "Attached", a carrier's
    half-squad per carrier received, the lost gun of a depleted battery) is left for the next
    pass instead of asking for a die that may not be due."""
    return bool(getattr(ctx.provider, "missing", None))


def add_units(state: APState, side, purchase, kind, type_, count=1, **extra) -> list[dict]:
    units = []
    for _ in range(count):
        fields = {
            "kind": kind,
            "type": type_,
            "nationality": purchase["nationality"],
            "rg": purchase["id"],
            "platoon": purchase["id"] if kind in ("afv", "vehicle") else None,
            **extra,
        }
        unit = retained_units.new_unit(state, side, fields)
        purchase.setdefault("units", []).append(unit["id"])
        units.append(unit)
    return units


def unit_count(line: dict, strength: str) -> int:
    value = line["depleted"] if strength == "depleted" else line["full"]
    return int(value or 0)


def rg_label(purchase: dict) -> str:
    return purchase.get("rg") or purchase.get("note") or purchase["id"]
