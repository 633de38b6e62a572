"""1.6205 infantry leaders (German −1, French +1, the RG's Lead Mod, +1 depleted; at most one per
3 squads, the best kept) and 1.6206 armor leaders (German −1, Lead Mod), not for II.2's FT-17s:
the rolls, their odds, and which RGs roll on each table."""

from __future__ import annotations

import re

from campaigns.game_interface import Mod

from .. import common
from ..shapes import APState
from .helpers import table_mod_value, upcoming_roll
from .rg_records import (
    add_units,
    cell,
    is_hw_platoon,
    kind_of,
    mark_rolled,
    rg_label,
    rg_row,
    rolled,
    secret_roll,
    to_roll,
)

# --- 1.6205 infantry leaders ----------------------------------------------------------------------------

_LEADER = re.compile(r"^(\d+)([-+])(\d+)$")


def leader_rank(leader: str) -> tuple[int, int]:
    """Best first: the lowest leadership modifier ("-3" best, "+1" worst), then the highest morale."""
    match = _LEADER.match(leader)
    if not match:
        return (99, 0)
    morale, sign, value = int(match.group(1)), match.group(2), int(match.group(3))
    return (-value if sign == "-" else value, -morale)


def one_leader_only(ctx, purchase: dict) -> bool:
    """German t ("any one leader rolled on the leadership table"), the French HW platoon likewise, and the
    British carriers (h: "always have one infantry leader ... Best leader available")."""
    return (
        is_hw_platoon(purchase)
        or "h" in (cell(ctx, purchase, "notes") or [])
        and kind_of(purchase) == "transport"
    )


def needs_leaders(ctx, purchase: dict) -> bool:
    if rolled(purchase, "1.6205") or not purchase.get("strength") or not purchase.get("rg"):
        return False
    return kind_of(purchase) == "infantry" or (
        kind_of(purchase) == "transport" and one_leader_only(ctx, purchase)
    )


def leader_mods(ctx, purchase: dict) -> list[Mod]:
    mods = []
    nationality = purchase["nationality"]
    if nationality in ("german", "french"):
        mods.append(
            Mod(nationality.capitalize(), "1.6205", table_mod_value(ctx, "1.6205", nationality))
        )
    lead = cell(ctx, purchase, "lead_mod")
    if lead:
        mods.append(Mod(f"Leadership modifier of {purchase['rg']}", "1.6205", int(lead)))
    if purchase.get("strength") == "depleted":
        mods.append(Mod("Depleted", "1.6205", table_mod_value(ctx, "1.6205", "depleted")))
    return mods


def _leaders(ctx, state: APState, side, purchase: dict) -> None:
    mods = leader_mods(ctx, purchase)
    report = secret_roll(
        ctx,
        state,
        side,
        "1.6205",
        "1.6205",
        purchase["id"],
        mods,
        label=f"Infantry leaders: {purchase['rg']}",
    )
    rolled = sorted(report["result"]["leaders"], key=leader_rank)
    if one_leader_only(ctx, purchase):
        limit = 1
    else:
        squads = sum(
            1
            for uid in purchase.get("units", [])
            for u in common.private(state, side)["retained"]
            if u["id"] == uid and u["kind"] == "squad"
        )
        limit = squads // int(ctx.value("leaders.max_squads_per_leader"))
    kept = rolled[:limit]
    purchase["leaders"] = kept
    if len(kept) < len(rolled):
        purchase["leaders_not_received"] = rolled[len(kept) :]
    for leader in kept:
        add_units(state, side, purchase, "leader", leader)


def run_leaders(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_leaders(ctx, purchase):
            _leaders(ctx, state, side, purchase)
            mark_rolled(purchase, "1.6205")


# --- 1.6206 armor leaders -----------------------------------------------------------------------------


def needs_armor_leader(ctx, purchase: dict) -> bool:
    if rolled(purchase, "1.6206") or purchase.get("no_armor_leader") or not purchase.get("rg"):
        return False
    return (
        kind_of(purchase) == "armor"
        and cell(ctx, purchase, "lead_mod") is not None
        and bool(purchase.get("strength"))
    )


def armor_leader_mods(ctx, purchase: dict) -> list[Mod]:
    mods = []
    if purchase["nationality"] == "german":
        mods.append(Mod("German", "1.6206", table_mod_value(ctx, "1.6206", "german")))
    lead = cell(ctx, purchase, "lead_mod")
    if lead:
        mods.append(Mod(f"Leadership modifier of {purchase['rg']}", "1.6206", int(lead)))
    return mods


def _armor_leader(ctx, state: APState, side, purchase: dict) -> None:
    mods = armor_leader_mods(ctx, purchase)
    report = secret_roll(
        ctx,
        state,
        side,
        "1.6206",
        "1.6206",
        purchase["id"],
        mods,
        label=f"Armor leader: {purchase['rg']}",
    )
    leaders = report["result"]["leaders"]
    if leaders == ["Inexperienced"]:
        purchase["armor_leader"] = "Inexperienced"
        for unit in common.private(state, side)["retained"]:
            if unit["id"] in purchase.get("units", []) and unit["kind"] == "afv":
                unit["note"] = (
                    unit.get("note", "") + " Inexperienced crew (1.6206, D3.45)"
                ).strip()
        return
    purchase["armor_leader"] = leaders[0] if leaders else None
    for leader in leaders:
        add_units(state, side, purchase, "armor_leader", leader)


def run_armor_leaders(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_armor_leader(ctx, purchase):
            _armor_leader(ctx, state, side, purchase)
            mark_rolled(purchase, "1.6206")


def upcoming_leaders(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6205",
            f"Infantry leaders: {rg_label(p)}",
            leader_mods(ctx, p),
            subject=p["id"],
        )
        for p in to_roll(state, side)
        if needs_leaders_book(p)
    ]


def upcoming_armor_leaders(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6206",
            f"Armor leader: {rg_label(p)}",
            armor_leader_mods(ctx, p),
            subject=p["id"],
        )
        for p in to_roll(state, side)
        if needs_armor_leader_book(p)
    ]


def needs_leaders_book(purchase: dict) -> bool:
    row = rg_row(purchase)
    if not row or rolled(purchase, "1.6205"):
        return False
    kind = row.cells["kind"]
    return kind == "infantry" or (kind == "transport" and "h" in (row.cells.get("notes") or []))


def needs_armor_leader_book(purchase: dict) -> bool:
    row = rg_row(purchase)
    return bool(
        row
        and row.cells["kind"] == "armor"
        and row.cells["lead_mod"] is not None
        and not purchase.get("no_armor_leader")
        and not rolled(purchase, "1.6206")
    )
