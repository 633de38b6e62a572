"""1.6132 weapon repair: each malfunctioned SW, Gun or vehicular-mounted weapon rolls, repaired or
lost (a disabled main armament recalls its AFV)."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, roll_on

from .. import common
from ..shapes import APState
from .base import Step
from .equipment_kinds import (
    AFV_KINDS,
    WEAPON_KINDS,
    check_items,
    vehicular_item,
)
from .helpers import (
    after_new_half_day,
    eliminate,
    mods,
    picked_units,
    retained,
    table_mod,
    unit_by_id,
    upcoming_roll,
)


def repair_mods(ctx, unit: dict, entry: dict) -> list:
    return mods(
        table_mod(ctx, "1.6132", "vehicular_mounted") if unit.get("kind") in AFV_KINDS else None,
        table_mod(ctx, "1.6132", "non_qualified_use") if entry.get("non_qualified") else None,
        table_mod(ctx, "1.6132", "isolated") if unit.get("isolated") else None,
    )


def _malfunctioned_weapons(state: APState, side) -> list[dict]:
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in WEAPON_KINDS
        and u.get("status") == "malfunctioned"
        and not u.get("captured")
    ]


# From A!P! v3 (5621627) each malfunctioned AFV names its weapon (R-A22); v1 and v2 events rolled
# for the weapons listed only.
EVERY_AFV_NAMED_SINCE = 3


def run_repair(ctx, state: APState, side, data):
    items = data.get("weapons") or []
    check_items(items, "weapons", key=lambda e: (e["unit"], (e.get("weapon") or "").strip()))
    plan: list[tuple[dict, str | None, dict]] = []
    for i, entry in enumerate(items):
        path = f"weapons[{i}]"
        unit = unit_by_id(state, side, entry["unit"], f"{path}.unit")
        if unit.get("captured"):
            raise DomainError(f"{path}.unit", f"{unit['id']} is captured: see 1.6135.")
        if unit.get("kind") in AFV_KINDS:
            plan.append((unit, vehicular_item(unit, entry, path, "malfunctioned"), entry))
        elif unit.get("kind") in WEAPON_KINDS and unit.get("status") == "malfunctioned":
            if (entry.get("weapon") or "").strip():
                raise DomainError(f"{path}.weapon", "Only a vehicular-mounted weapon is named.")
            plan.append((unit, None, entry))
        else:
            raise DomainError(f"{path}.unit", f"{unit['id']} is not a malfunctioned weapon.")
    listed = {u["id"] for u, w, _ in plan if w is None}
    named = {u["id"] for u, w, _ in plan if w is not None}
    unnamed = [u["id"] for u in _malfunctioned_afvs(state, side) if u["id"] not in named]
    if unnamed and common.since(state, EVERY_AFV_NAMED_SINCE):
        raise DomainError(
            "weapons",
            f"Each malfunctioned weapon rolls (1.6132): name the weapon of {', '.join(unnamed)}.",
        )
    missing = [u["id"] for u in _malfunctioned_weapons(state, side) if u["id"] not in listed]
    if missing:
        raise DomainError(
            "weapons",
            f"Each malfunctioned retained weapon rolls (1.6132): add {', '.join(missing)}.",
        )
    for unit, weapon, entry in plan:
        subject = f"{unit['id']}/{weapon}" if weapon else unit["id"]
        report = roll_on(
            ctx,
            "1.6132",
            common.roll_key(state, "1.6132", side, subject),
            repair_mods(ctx, unit, entry),
            side=side,
            label=f"Weapon repair {weapon or unit.get('type', '')} ({unit['id']})",
        )
        repaired = report["result"]["effect"] == "repaired"
        if weapon:
            unit.setdefault("weapons", {})[weapon] = "ok" if repaired else "disabled"
            if unit.get("status") == "malfunctioned":
                unit["status"] = "ok"  # the weapon's own state is kept in its weapons map
            if not repaired and entry.get("main_armament"):
                unit["status"] = "recalled"
        elif repaired:
            unit["status"] = "ok"
        else:
            eliminate(state, side, unit, "1.6132", "weapon repair failed (1.6132)")
        outcome = "repaired" if repaired else ("disabled" if weapon else "eliminated")
        report["effect"] = {
            "unit": unit["id"],
            "weapon": weapon,
            "outcome": outcome,
            "recall": bool(weapon and not repaired and entry.get("main_armament")),
        }
        common.record_roll(state, side, report, "1.6132")


def upcoming_repair(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6132",
            f"Weapon repair ({u['id']})",
            repair_mods(ctx, u, {}),
            "effect",
            subject=u["id"],
        )
        for u in _malfunctioned_weapons(state, side)
    ]


def _malfunctioned_afvs(state: APState, side) -> list[dict]:
    """AFVs marked with a malfunctioned weapon at the end of the scenario (or in their weapons map)."""
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS
        and not u.get("captured")
        and (
            u.get("status") == "malfunctioned"
            or "malfunctioned" in (u.get("weapons") or {}).values()
        )
    ]


def _applies_repair(state: APState, side):
    return bool(_malfunctioned_weapons(state, side)) or bool(_malfunctioned_afvs(state, side))


# --- the page ------------------------------------------------------------------------------


def form_repair(ctx, view: APState, side):
    weapons = _malfunctioned_weapons(view, side)
    afvs = _malfunctioned_afvs(view, side)
    non_qualified = Field(
        "non_qualified",
        "bool",
        required=False,
        default=False,
        label="Only non-qualified use possible (+1)",
    )
    fields = []
    if weapons:  # a SW or Gun is the weapon itself: nothing to name
        fields.append(
            picked_units(
                "weapons",
                "Malfunctioned SW and Guns",
                weapons,
                view,
                side,
                non_qualified,
                help="Each one rolls (1.6132): repaired, or eliminated.",
            )
        )
    if afvs:
        fields.append(
            picked_units(
                "afv_weapons",
                "AFVs with a malfunctioned weapon",
                afvs,
                view,
                side,
                Field(
                    "weapon",
                    required=False,
                    default="",
                    max_length=20,
                    label="Which weapon (MA, CMG, BMG …)",
                ),
                Field(
                    "main_armament",
                    "bool",
                    required=False,
                    default=False,
                    label="It is the main armament (MA): disabled, the AFV is recalled",
                ),
                non_qualified,
                help="Each rolls (1.6132): repaired, or disabled.",
            )
        )
    return tuple(fields)


STEP = Step(
    "1.6132",
    "Weapon repair",
    "1.6132",
    run=run_repair,
    applies=_applies_repair,
    upcoming=after_new_half_day(upcoming_repair),
    form=form_repair,
    short="Weapon repair",
    fields=(
        Field(
            "weapons",
            "list",
            required=False,
            default=[],
            item=Field(
                "entry",
                "object",
                fields=(
                    Field("unit"),
                    Field(
                        "weapon",
                        required=False,
                        default="",
                        help="Vehicular-mounted: MA, CMG, BMG…",
                    ),
                    Field("main_armament", "bool", required=False, default=False),
                    Field("non_qualified", "bool", required=False, default=False),
                ),
            ),
            help="Every malfunctioned non-captured retained weapon.",
        ),
    ),
)
