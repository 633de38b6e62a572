"""1.6135 captured weapons: each captured SW and Gun rolls to be kept; the weapons of a captured AFV
are named by the side."""

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
    picked_units,
    retained,
    unit_by_id,
    upcoming_roll,
)


def _captured_weapons(state: APState, side) -> list[dict]:
    return [u for u in retained(state, side) if u.get("kind") in WEAPON_KINDS and u.get("captured")]


def run_captured(ctx, state: APState, side, data):
    items = data.get("vehicular") or []
    check_items(items, "vehicular", key=lambda e: (e["unit"], (e.get("weapon") or "").strip()))
    plan: list[tuple[dict, str | None, bool]] = []
    for i, entry in enumerate(items):
        path = f"vehicular[{i}]"
        unit = unit_by_id(state, side, entry["unit"], f"{path}.unit")
        if unit.get("kind") not in AFV_KINDS or not unit.get("captured"):
            raise DomainError(f"{path}.unit", f"{unit['id']} is not a captured AFV.")
        want = "malfunctioned" if entry.get("malfunctioned") else "ok"
        plan.append(
            (unit, vehicular_item(unit, entry, path, want), bool(entry.get("malfunctioned")))
        )
    plan += [(u, None, u.get("status") == "malfunctioned") for u in _captured_weapons(state, side)]
    for unit, weapon, malfunctioned in plan:
        subject = f"{unit['id']}/{weapon}" if weapon else unit["id"]
        if malfunctioned:
            lost, report = True, None
        else:
            report = roll_on(
                ctx,
                "1.6135",
                common.roll_key(state, "1.6135", side, subject),
                (),
                side=side,
                label=f"Captured weapon {weapon or unit.get('type', '')} ({unit['id']})",
            )
            lost = report["result"]["effect"] == "eliminated"
        if lost and weapon:
            unit.setdefault("weapons", {})[weapon] = "disabled"  # no recall (1.6135)
        elif lost:
            eliminate(state, side, unit, "1.6135", "captured weapon lost (1.6135)")
        if report is not None:
            report["effect"] = {
                "unit": unit["id"],
                "weapon": weapon,
                "outcome": ("disabled" if weapon else "eliminated") if lost else "retained",
            }
            common.record_roll(state, side, report, "1.6135")


def upcoming_captured(state: APState, side, ctx):
    return [
        upcoming_roll(
            state, side, "1.6135", f"Captured weapon ({u['id']})", [], "effect", subject=u["id"]
        )
        for u in _captured_weapons(state, side)
        if u.get("status") != "malfunctioned"
    ]


def _applies_captured(state: APState, side):
    return any(u.get("captured") for u in retained(state, side))


def _auto_captured(state: APState, side):
    """Captured SW and Guns roll on their own; the weapons of a captured AFV are named by the side."""
    return (
        None
        if any(u.get("kind") in AFV_KINDS and u.get("captured") for u in retained(state, side))
        else {}
    )


# --- the page ------------------------------------------------------------------------------


def form_captured(ctx, view: APState, side):
    afvs = [u for u in retained(view, side) if u.get("kind") in AFV_KINDS and u.get("captured")]
    return (
        picked_units(
            "vehicular",
            "Weapons of captured AFVs",
            afvs,
            view,
            side,
            Field("weapon", max_length=20, label="Weapon", help="MA, CMG, BMG …"),
            Field(
                "malfunctioned",
                "bool",
                required=False,
                default=False,
                label="Already malfunctioned",
            ),
            help="Captured SW and Guns are rolled for on their own.",
        ),
    )


STEP = Step(
    "1.6135",
    "Captured weapons",
    "1.6135",
    run=run_captured,
    applies=_applies_captured,
    upcoming=after_new_half_day(upcoming_captured),
    auto=_auto_captured,
    form=form_captured,
    short="Captured weapons",
    fields=(
        Field(
            "vehicular",
            "list",
            required=False,
            default=[],
            item=Field(
                "entry",
                "object",
                fields=(
                    Field("unit"),
                    Field("weapon"),
                    Field("malfunctioned", "bool", required=False, default=False),
                ),
            ),
            help="Weapons of captured AFVs (captured SW and Guns are rolled for automatically).",
        ),
    ),
)
