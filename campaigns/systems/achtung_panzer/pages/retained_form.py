"""Corrections of a side's retained units (1.607): add units, or change or remove one, its form
filled with what the unit is now; the event keeps only what the person changed."""

from __future__ import annotations

from campaigns.game_interface import Field

from .. import retained, words
from ..common import private
from ..shapes import APState
from ..steps.helpers import choice_words, hidden, unit_choices


def _unit_fields(view: APState, side: str, unit: dict) -> tuple:
    """What a retained unit is, each field starting from `unit` (its current values, or a new
    unit's defaults): an edit changes only what the person changes."""
    bought = private(view, side)["purchases"]
    names = words.names_for(view, side)
    rgs = [(p["id"], names.rg(p["id"])) for p in bought]
    if unit.get("rg") and unit["rg"] not in {p["id"] for p in bought}:
        rgs.append((unit["rg"], names.rg(unit["rg"])))
    return (
        Field(
            "kind",
            "choice",
            choices=retained.KINDS,
            required=False,
            label="Kind",
            default=unit.get("kind"),
            labels=choice_words(retained.KINDS, words.KIND_WORDS),
        ),
        Field(
            "type",
            required=False,
            max_length=60,
            label="Type",
            default=unit.get("type") or "",
            help='e.g. "467", "8-1", "PzIIIF", "LMG".',
        ),
        Field(
            "nationality",
            "choice",
            choices=retained.NATIONALITIES,
            required=False,
            label="Nationality",
            default=unit.get("nationality"),
            labels=choice_words(retained.NATIONALITIES, words.NATIONALITY_WORDS),
        ),
        Field(
            "rg",
            "choice",
            required=False,
            label="RG",
            choices=tuple(r for r, _ in rgs),
            labels=tuple(rgs),
            default=unit.get("rg"),
        ),
        Field(
            "status",
            "choice",
            choices=retained.STATUSES,
            required=False,
            label="State",
            default=unit.get("status") or "ok",
            labels=choice_words(retained.STATUSES, words.STATUS_WORDS),
        ),
        Field(
            "isolated", "bool", required=False, label="Isolated", default=bool(unit.get("isolated"))
        ),
        Field(
            "captured", "bool", required=False, label="Captured", default=bool(unit.get("captured"))
        ),
        Field(
            "vehicular",
            "bool",
            required=False,
            label="Vehicular-mounted",
            default=bool(unit.get("vehicular")),
        ),
        Field("note", required=False, max_length=300, label="Note", default=unit.get("note") or ""),
    )


_REASON = Field(
    "reason",
    required=False,
    default="",
    max_length=300,
    label="Why",
    help="Battle hardening, casualty reduction, a mistake on the sheet …",
)


def retained_form(ctx, view: APState, side: str, initial: dict) -> tuple:
    """Correct the side's retained units: add units; or, once a unit is picked (the to-do's
    `choose`), change or remove that unit, its form filled with what it is now."""
    units = private(view, side)["retained"]
    if initial.get("action") == "add":
        nationality = "german" if side == "german" else "french"
        fields = _unit_fields(
            view, side, {"kind": None, "nationality": nationality, "status": "ok"}
        )
        return (
            hidden("action", "add"),
            Field("count", "int", required=False, default=1, min=1, max=40, label="How many"),
            *(f.but(required=True) if f.name in ("kind", "type") else f for f in fields),
            _REASON,
        )
    unit = next((u for u in units if u["id"] == initial.get("id")), None)
    if unit is None:  # pick the unit first
        return (Field("id", "choice", label="Unit", **unit_choices(units, view, side)),)
    return (
        hidden("id", unit["id"]),
        Field(
            "action",
            "choice",
            choices=("update", "remove"),
            widget="radios",
            default="update",
            label="What to do",
            labels=(
                ("update", f"Change the {words.unit_words(unit, words.names_for(view, side))}"),
                ("remove", "Remove it from your retained units (eliminated, lost, recombined …)"),
            ),
        ),
        *_unit_fields(view, side, unit),
        _REASON,
    )


def _same(before, after) -> bool:
    if isinstance(after, bool) or isinstance(before, bool):
        return bool(before) == bool(after)
    return (before if before not in (None, "") else None) == (
        after if after not in (None, "") else None
    )


def retained_changes(view: APState, side: str | None, data: dict) -> dict:
    """A change of one unit as the event records it: only the fields that differ from the unit
    as it is (the form starts from its current values), so what the person left alone is never
    written over; a removal only with its reason."""
    sides = view["game"].get("sides", {})
    units = private(view, side)["retained"] if side is not None and side in sides else []
    unit = next((u for u in units if u["id"] == data.get("id")), None)
    if unit is None:
        return data
    head = {"action": data["action"], "id": unit["id"], "reason": data.get("reason") or ""}
    if data["action"] == "remove":
        return head
    names = {f.name for f in retained.UNIT_FIELDS}
    return {**head, **{k: v for k, v in data.items() if k in names and not _same(unit.get(k), v)}}
