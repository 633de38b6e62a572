"""The end of the scenario's form (1.12): its first screen ticks the units something happened to
(pick_groups), the second asks what (aftermath_form), with the AFV platoons on the map, the OBA
modules that fired, the units gained in play and the CVP list's fields."""

from __future__ import annotations

from campaigns.game_interface import Field

from .. import aftermath, retained, words
from ..common import private
from ..shapes import APState
from ..steps.helpers import choice_words, unit_choices


def _marked(unit: dict) -> bool:
    """A unit the end of the scenario starts ticked: not in good order, or isolated."""
    return bool(unit.get("status") not in (None, "ok") or unit.get("isolated"))


def pick_groups(view: APState, side: str, kind: str, field: str) -> list[dict]:
    """The side's retained units grouped by RG (in the order bought), for the end of the scenario's
    first screen: the units something happened to are ticked there, the rest keep their state."""
    if (
        kind != "ap.aftermath"
        or field != "units"
        or side not in (view.get("game") or {}).get("sides", {})
    ):
        return []
    mine = private(view, side)
    units, names = mine["retained"], words.Names(mine)
    groups = []
    bought = [p["id"] for p in mine.get("purchases", [])]
    for rg in [*bought, None]:
        rows = [
            {
                "value": u["id"],
                "label": names.unit(u, with_rg=False) + words.flags(u),
                "on": _marked(u),
            }
            for u in units
            if (u.get("rg") if u.get("rg") in bought else None) == rg
        ]
        if rows:
            groups.append({"title": names.rg(rg) if rg else "Other units", "rows": rows})
    return groups


def aftermath_form(ctx, view: APState, side: str, picked: list | None = None) -> tuple:
    """The end of the scenario. `picked`: the units its first screen ticked (pick_groups), the only
    rows asked for; None: a row for every retained unit (a form posted without that screen)."""
    units = private(view, side)["retained"]
    rows = _unit_rows(units, picked)
    platoons = sorted(
        {u["platoon"] for u in units if u.get("kind") in aftermath.AFV and u.get("platoon")}
    )
    names = words.names_for(view, side)
    fields = [] if not rows else [_units_field(units, rows, view, side)]
    if platoons:
        fields.append(_platoons_field(platoons, names))
    oba = aftermath.oba_in_use(view, side)
    if oba:
        fields.append(_oba_field(oba, names))
    fields.append(_added_field())
    fields += aftermath.cvp_fields(ctx, units, 10000)[1]
    fields.append(
        Field("note", required=False, default="", max_length=500, label="Note (your side only)")
    )
    return tuple(fields)


def _unit_rows(units: list, picked: list | None) -> list[dict]:
    """A row per unit asked for, starting from what the unit is now."""
    rows = []
    for unit in units:
        if picked is not None and unit["id"] not in picked:
            continue
        rows.append(
            {
                "unit": unit["id"],
                "_on": picked is not None or _marked(unit),
                "status": unit.get("status") or "ok",
                "isolated": bool(unit.get("isolated")),
                "pocket": unit.get("pocket") or "",
                "elite": bool(unit.get("elite")),
            }
        )
    return rows


def _units_field(units: list, rows: list[dict], view: APState, side: str) -> Field:
    return Field(
        "units",
        "list",
        label="Your units",
        key="unit",
        widget="pick",
        rows=tuple(rows),
        required=False,
        default=[],
        item=Field("entry", "object", fields=_unit_entry_fields(units, view, side)),
        help="Tick each unit something happened to (eliminated, captured, wounded, isolated …); every unit "
        "left unticked is recorded as ok.",
    )


def _unit_entry_fields(units: list, view: APState, side: str) -> tuple:
    """What one row asks of a unit: its fate, state, isolation and pocket, and 1.603-1.6112's marks."""
    return (
        Field("unit", **unit_choices(units, view, side)),
        Field(
            "fate",
            "choice",
            choices=aftermath.FATES,
            labels=tuple(aftermath.FATE_WORDS.items()),
            label="Fate",
            default="kept",
        ),
        Field(
            "status",
            "choice",
            choices=retained.STATUSES,
            labels=choice_words(retained.STATUSES, words.STATUS_WORDS),
            label="State",
            default="ok",
            help="Wounded leader, heroic, malfunctioned weapon, immobilized, abandoned, "
            "shocked/UK or bogged AFV, under recall …",
        ),
        Field(
            "isolated",
            "bool",
            required=False,
            default=False,
            label="Isolated (1.606)",
        ),
        Field(
            "pocket",
            required=False,
            default="",
            max_length=20,
            label="Pocket",
            help="A name for its pocket (A, B …): units of one pocket may stack to escape.",
        ),
        Field(
            "encircled",
            "bool",
            required=False,
            default=False,
            label="Encircled (1.604)",
        ),
        Field(
            "disrupted",
            "bool",
            required=False,
            default=False,
            label="Disrupted (French infantry, 1.603)",
        ),
        Field(
            "elite",
            "bool",
            required=False,
            default=False,
            label="Elite (hardens to fanatic, 1.6112)",
        ),
    )


def _platoons_field(platoons: list, names) -> Field:
    return Field(
        "platoons_on_map",
        "list",
        label="AFV platoons that had an AFV on the map (1.6142)",
        required=False,
        default=list(platoons),
        item=Field(
            "platoon",
            "choice",
            choices=tuple(platoons),
            labels=tuple((p, names.rg(p)) for p in platoons),
        ),
        help="Untick a platoon held entirely off the map this half-day.",
    )


def _oba_field(oba: list, names) -> Field:
    return Field(
        "oba_fired",
        "list",
        label="OBA modules that fired a Fire Mission (CG4)",
        required=False,
        default=[],
        item=Field(
            "purchase",
            "choice",
            choices=tuple(p["id"] for p in oba),
            labels=tuple((p["id"], names.rg(p["id"])) for p in oba),
        ),
        help="A module that fired none is retained for the next half-day.",
    )


def _added_field() -> Field:
    return Field(
        "added",
        "list",
        label="Units gained in play",
        required=False,
        default=[],
        max=10,
        rows=({}, {}),
        item=Field(
            "entry",
            "object",
            fields=(
                Field(
                    "kind",
                    "choice",
                    choices=retained.KINDS,
                    label="Kind",
                    labels=choice_words(retained.KINDS, words.KIND_WORDS),
                ),
                Field("type", max_length=60, label="Type", help='e.g. "LMG", "8-0", "PzIIIF".'),
                Field(
                    "captured",
                    "bool",
                    required=False,
                    default=False,
                    label="Captured from the enemy",
                ),
                Field("count", "int", required=False, default=1, min=1, max=20, label="How many"),
            ),
        ),
        help="Weapons or AFVs captured from the enemy, heroes created in play (A15).",
    )
