"""Retained units (1.607): each side's private roster between half-days.

A unit: {id, kind, type, nationality, rg, platoon, status, isolated, captured,
vehicular, on_map_since, note}. The RePh steps update it where the rules say so;
what a unit becomes when it battle hardens or is casualty-reduced is ASL rulebook
knowledge the text does not give, so the player enters it with `ap.retained`.
Removing a unit moves it to the side's `eliminated` list with the reason.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, EventKind, Field

from .common import half_day, private
from .shapes import APState

KINDS = (
    "squad",
    "half_squad",
    "leader",
    "armor_leader",
    "hero",
    "afv",
    "gun",
    "sw",
    "vehicle",
    "crew",
    "fortification",
    "other",
)
STATUSES = (
    "ok",
    "wounded",
    "heroic",
    "broken",
    "malfunctioned",
    "disabled",
    "immobilized",
    "abandoned",
    "shocked",
    "recalled",
    "bogged",
)
NATIONALITIES = ("german", "french", "british")

UNIT_FIELDS = (
    Field("kind", "choice", choices=KINDS, required=False),
    Field(
        "type",
        label="Unit type",
        required=False,
        max_length=60,
        help='e.g. "467", "8-1", "PzIIIF", "LMG".',
    ),
    Field("nationality", "choice", choices=NATIONALITIES, required=False),
    Field("rg", label="RG (purchase id)", required=False, max_length=20),
    Field("platoon", label="AFV platoon (purchase id)", required=False, max_length=20),
    Field("status", "choice", choices=STATUSES, required=False),
    Field("isolated", "bool", required=False),
    Field("captured", "bool", required=False),
    Field("vehicular", "bool", label="Vehicular-mounted", required=False),
    Field("note", required=False, max_length=300),
)

EVENT = EventKind(
    "ap.retained",
    "Retained units edited",
    (
        Field("action", "choice", choices=("add", "update", "remove")),
        Field("id", label="Unit id (update/remove)", required=False, max_length=20),
        Field(
            "count",
            "int",
            required=False,
            default=1,
            min=1,
            max=40,
            help="Add this many identical units.",
        ),
        *UNIT_FIELDS,
        Field(
            "reason",
            required=False,
            default="",
            max_length=300,
            help="Why: battle hardening, casualty reduction, eliminated at 1.6141 …",
        ),
    ),
    audience="side",
    rule="1.607",
    help="Edit your retained units. What a unit becomes on battle hardening or casualty reduction is entered here.",
)


def new_unit(state: APState, side: str, fields: dict) -> dict:
    """Add one unit to the side's retained units (for the steps too); returns it."""
    mine = private(state, side)
    unit = {
        "id": f"u{mine['next_id']}",
        "kind": fields.get("kind") or "other",
        "type": fields.get("type") or "",
        "nationality": fields.get("nationality") or ("german" if side == "german" else "french"),
        "rg": fields.get("rg"),
        "platoon": fields.get("platoon"),
        "status": fields.get("status") or "ok",
        "isolated": bool(fields.get("isolated")),
        "captured": bool(fields.get("captured")),
        "vehicular": bool(fields.get("vehicular")),
        "on_map_since": fields.get("on_map_since"),
        "note": fields.get("note") or "",
    }
    mine["next_id"] += 1
    mine["retained"].append(unit)
    return unit


def find(state: APState, side: str, unit_id: str | None, field: str = "id") -> dict:
    for unit in private(state, side)["retained"]:
        if unit["id"] == unit_id:
            return unit
    raise DomainError(field, f"Your side retains no unit {unit_id or '(none given)'}.")


def eliminate(state: APState, side: str, unit: dict, step: str, reason: str) -> None:
    mine = private(state, side)
    mine["retained"].remove(unit)
    mine["eliminated"].append(dict(unit, half_day=half_day(state), step=step, reason=reason))


def apply(state: APState, side: str, data: dict, step: str) -> None:
    action = data["action"]
    if action == "add":
        if not data.get("kind") or not data.get("type"):
            raise DomainError("type", "Give the kind and type of the unit to add.")
        for _ in range(data["count"]):
            new_unit(state, side, data)
        return
    unit = find(state, side, data.get("id"))
    if action == "remove":
        eliminate(state, side, unit, step, data.get("reason") or "removed")
        return
    changed = {f.name: data[f.name] for f in UNIT_FIELDS if data.get(f.name) is not None}
    if not changed:
        raise DomainError("id", "Nothing was changed: change at least one value of the unit.")
    before = {k: unit[k] for k in changed}
    unit.update(changed)
    unit.setdefault("history", []).append(
        {
            "half_day": half_day(state),
            "step": step,
            "before": before,
            "reason": data.get("reason") or "",
        }
    )
