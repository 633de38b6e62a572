"""A half-day's result as the page asks for it and says it: the form (each objective hex of 1.2 a
row, with who held it at the start), the posted rows back into the log's lists, the result in words
for the Confirm and Settle forms and the winner it gives, provisional until 1.6067. The log itself
and the victory rules are halfday.py's."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field

from .common import SIDES, public
from .halfday import (
    NAMES,
    areas,
    clean_result,
    live_areas,
    log_result,
    objective_points,
    scenario_winner,
)
from .shapes import APState

# Objectives ticked hex by hex from the CG's objective list (1.2).
CONTROL = ("allied", "german", "none")
CONTROL_LABELS = (("allied", "Allied"), ("german", "German"), ("none", "neither"))
KIND_WORDS = {
    "bridge": "bridge",
    "building": "building",
    "hill": "hill",
    "crossroads": "crossroads",
}


def area_words(area: dict) -> str:
    """ "Hill 520", "bridge 40Q2 & 40Q3", "building 6N4": an objective area of 1.2 in words."""
    kind = KIND_WORDS.get(area["kind"], area["kind"])
    name = area["key"].split("_", 1)[-1]
    if name.upper() == area["hexes"][0].upper():
        return f"{kind} {' & '.join(h.upper() for h in area['hexes'])}"
    return f"{kind.capitalize()} {name}"


def _start_control(state: APState, index: int) -> dict | None:
    """hex -> side holding it at the start of half-day `index`: the end of the last half-day played
    (1.3: the start lines are the control of the last-completed scenario), None before the first."""
    lines = [line for line in public(state)["roster"][:index] if line.get("played")]
    if not lines:
        return None
    last = lines[-1]
    return {h: side for side in SIDES for h in last["objectives_end"][side]}


def result_form(ctx, view: APState, index: int) -> tuple:
    area_list = areas(ctx.table("1.2"))
    gone = set(public(view)["bridges_destroyed"])
    start = _start_control(view, index)
    bridges = [a for a in live_areas(area_list, gone) if a["kind"] == "bridge"]
    reported = (
        public(view).get("cvp_reported", {}).get(public(view)["roster"][index]["half_day"], {})
    )
    fields = [
        _objectives_field(_objective_rows(area_list, gone, start), start),
        _bridges_field(bridges),
    ]
    for side in SIDES:
        fields += _side_result_fields(side, reported)
    return tuple(fields)


def _objective_rows(area_list, gone: set, start: dict | None) -> list[dict]:
    """A row per objective hex still standing, starting from who held it at the start."""
    rows = []
    for area in live_areas(area_list, gone):
        for hex_ in area["hexes"]:
            hex_ = hex_.upper()
            held = (start or {}).get(hex_, "none")
            rows.append(
                {
                    "hex": hex_,
                    "start": held,
                    "end": held,
                    "_label": f"{hex_}: {area_words(area)} ({area['points']} pt{'s' if area['points'] != 1 else ''})"
                    + (
                        f", held by {NAMES.get(held, 'neither side')} at the start" if start else ""
                    ),
                }
            )
    return rows


def _objectives_field(rows: list[dict], start: dict | None) -> Field:
    """Control of each objective hex at the start (asked only before the first half-day played)
    and at the end."""
    start_field = (
        Field(
            "start",
            "choice",
            choices=CONTROL,
            labels=CONTROL_LABELS,
            widget="radios",
            label="At the start",
        )
        if start is None
        else Field("start", widget="hidden")
    )
    return Field(
        "objectives",
        "list",
        label="Objective hexes (1.2)",
        key="hex",
        rows=tuple(rows),
        item=Field(
            "row",
            "object",
            fields=(
                Field("hex"),
                start_field,
                Field(
                    "end",
                    "choice",
                    choices=CONTROL,
                    labels=CONTROL_LABELS,
                    widget="radios",
                    label="At the end",
                ),
            ),
        ),
        help="Who controls each objective hex (the start is the end of the last half-day, 1.3).",
    )


def _bridges_field(bridges: list[dict]) -> Field:
    return Field(
        "bridges_destroyed",
        "list",
        required=False,
        default=[],
        label="Bridges destroyed (CG15)",
        item=Field(
            "bridge",
            "choice",
            choices=tuple(a["key"] for a in bridges),
            labels=tuple((a["key"], " & ".join(h.upper() for h in a["hexes"])) for a in bridges),
        ),
    )


def _side_result_fields(side: str, reported: dict) -> list[Field]:
    """One side's CVP, half boards, air support, OBA missions and perimeter."""
    group = NAMES[side]
    return [
        Field(
            f"{side}_cvp",
            "int",
            min=0,
            max=10000,
            default=reported.get(side),
            group=group,
            label="CVP sustained (A26.2)",
            help="From the side's end-of-scenario record when recorded.",
        ),
        Field(
            f"{side}_half_boards",
            "int",
            required=False,
            default=0,
            min=0,
            max=100,
            group=group,
            label="Half boards completely within its perimeter",
            help="Counts in a Dual Attack (1.6232).",
        ),
        Field(
            f"{side}_air_support",
            "bool",
            required=False,
            default=False,
            group=group,
            label="Used air support",
        ),
        Field(
            f"{side}_oba_missions",
            "int",
            required=False,
            default=0,
            min=0,
            max=100,
            group=group,
            label="OBA Fire Missions used",
            help="An OBA RG without Fire Missions is retained (CG4).",
        ),
        Field(
            f"{side}_perimeter",
            required=False,
            default="",
            max_length=20000,
            group=group,
            label="Perimeter hexes (a record, optional)",
        ),
    ]


def result_data(view: APState, index: int, data: dict) -> dict:
    """The page's rows of hexes back into the log's lists (one list of hexes per side and moment)."""
    out = {k: v for k, v in data.items() if k not in ("objectives", "bridges_destroyed")}
    start = _start_control(view, index)
    for moment in ("start", "end"):
        for side in SIDES:
            out[f"{side}_objectives_{moment}"] = ", ".join(
                row["hex"]
                for row in data.get("objectives") or []
                if (
                    row.get(moment)
                    if moment == "end" or start is None
                    else start.get(row["hex"], "none")
                )
                == side
            )
    out["bridges_destroyed"] = ", ".join(data.get("bridges_destroyed") or [])
    return out


def _held_words(hexes, area_list) -> str:
    """Objective hexes by area of 1.2: "Hill 520 (all 7 hexes), bridge 40Q2 & 40Q3 (40Q2)"."""
    held = {h.upper() for h in hexes or []}
    if not held:
        return "none"
    parts = []
    for area in area_list:
        mine = [h.upper() for h in area["hexes"] if h.upper() in held]
        if not mine:
            continue
        if len(mine) == len(area["hexes"]):
            parts.append(area_words(area) + (f" (all {len(mine)} hexes)" if len(mine) > 1 else ""))
        else:
            parts.append(f"{area_words(area)} ({', '.join(mine)} of {len(area['hexes'])} hexes)")
    known = {h.upper() for a in area_list for h in a["hexes"]}
    parts += sorted(held - known)
    return "; ".join(parts)


def result_sentences(state: APState, index: int, data: dict, ctx) -> list[str]:
    """Every field of a half-day's log in words, with the objective points and CVP it implies
    and the winner it gives (final once 1.6067 has run): what a player confirms or disputes."""
    lines = []
    area_list = areas(ctx.table("1.2")) if ctx is not None else []
    destroyed = sorted(
        set(public(state)["bridges_destroyed"]) | set(data.get("bridges_destroyed") or [])
    )
    for side in SIDES:
        start, end = (
            data.get(f"{side}_objectives_start") or [],
            data.get(f"{side}_objectives_end") or [],
        )
        points = objective_points(end, area_list, destroyed) if area_list else None
        lines.append(
            f"{NAMES[side]} objective hexes at the end: {_held_words(end, area_list)} — {len(end)} "
            f"hex{'es' if len(end) != 1 else ''}"
            + (
                f", {points} objective point{'s' if points != 1 else ''} (1.2)"
                if points is not None
                else ""
            )
            + f"; at the start: {len(start)}."
        )
    lines.append(
        f"CVP sustained (A26.2): Allied {data.get('allied_cvp', 0)}, German {data.get('german_cvp', 0)}."
    )
    if any(data.get(f"{s}_half_boards") for s in SIDES):
        lines.append(
            "Half boards completely within the perimeter: "
            + ", ".join(f"{NAMES[s]} {data.get(f'{s}_half_boards') or 0}" for s in SIDES)
            + " (1.6232)."
        )
    air = [NAMES[s] for s in SIDES if data.get(f"{s}_air_support")]
    if air:
        lines.append(f"Air support used: {' and '.join(air)}.")
    if any(data.get(f"{s}_oba_missions") for s in SIDES):
        lines.append(
            "OBA Fire Missions used: "
            + ", ".join(f"{NAMES[s]} {data.get(f'{s}_oba_missions') or 0}" for s in SIDES)
            + " (CG4)."
        )
    if data.get("bridges_destroyed"):
        lines.append(f"Bridges destroyed: {', '.join(data['bridges_destroyed'])} (CG15).")
    perimeter = [
        f"{NAMES[s]} {len(data.get(f'{s}_perimeter') or [])} hexes"
        for s in SIDES
        if data.get(f"{s}_perimeter")
    ]
    if perimeter:
        lines.append(f"Perimeter recorded: {', '.join(perimeter)}.")
    return lines


def provisional(state: APState, index: int, data: dict, ctx) -> str:
    """The winner the logged result gives by 1.6232 / 1.51-1.53, before the RePh (final at 1.6067)."""
    import copy

    trial = copy.deepcopy(state)
    line = log_result(trial, index, clean_result(trial, data, ctx))
    try:
        winner, why = scenario_winner(trial, line, ctx)
    except DomainError as error:
        return error.message
    who = "a draw" if winner == "draw" else f"{NAMES[winner]} win"
    return (
        f"Provisional result: {who}. {why['text']} Final at 1.6067, after encirclement and escape."
    )
