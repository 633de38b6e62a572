"""A half-day's play as the scenario result, 1.6067 victory, objective points, CG victory.

The half-day log (the core's scenario result, confirmed by the other side or the
referee) fills the CG Roster line; the winner is decided later, at RePh step 1.6067,
because the steps before it (melee, escape, pockets) can still change control and CVP.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from campaigns.game_interface import DomainError, Field, clean_fields

from .common import SIDES, current_index, other, private, public
from .shapes import APState, RosterLine
from .state import cg

NAMES = {"allied": "Allied", "german": "German"}

# Lists are typed as text ("23BB5, 40Q2 hill_520"); a JSON list is accepted too.
_LISTS = ("objectives_start", "objectives_end", "perimeter")


def _side_fields(name, kind, label, **kw):
    return tuple(
        Field(f"{side}_{name}", kind, label=f"{NAMES[side]} {label}", **kw) for side in SIDES
    )


RESULT_FIELDS = (
    *_side_fields(
        "objectives_start",
        "str",
        "objective hexes controlled at the start",
        required=False,
        default="",
        help="Objective hexes or areas of 1.2, e.g. \"23BB5, 40Q2, hill_520\".",
    ),
    *_side_fields(
        "objectives_end",
        "str",
        "objective hexes controlled at the end",
        required=False,
        default="",
        help="Objective hexes or areas of 1.2 controlled when the scenario ended.",
    ),
    *_side_fields(
        "half_boards",
        "int",
        "half boards completely within the perimeter",
        required=False,
        default=0,
        min=0,
        max=100,
        help="Counts only in a Dual Attack (1.6232).",
    ),
    *_side_fields(
        "cvp",
        "int",
        "CVP sustained",
        required=False,
        default=0,
        min=0,
        max=10000,
        help="Casualty VP (A26.2) the side lost in the scenario (1.12).",
    ),
    *_side_fields("air_support", "bool", "air support used", required=False, default=False),
    *_side_fields(
        "oba_missions",
        "int",
        "OBA fire missions used",
        required=False,
        default=0,
        min=0,
        max=100,
        help="CG4: an OBA RG is retained only if no Fire Missions were used.",
    ),
    Field(
        "bridges_destroyed",
        "str",
        label="Bridges destroyed",
        required=False,
        default="",
        help="CG15: a destroyed bridge ceases to be an objective. Bridge hexes or areas.",
    ),
    *_side_fields(
        "perimeter",
        "str",
        "perimeter hexes",
        required=False,
        default="",
        max_length=20000,
        help="The perimeter as a list of hexes (kept as a record).",
    ),
)


# --- objectives (1.2) -----------------------------------------------------------------------


def areas(table) -> list[dict]:
    return [
        {
            "key": row.label,
            "kind": table.value(row, "kind"),
            "hexes": list(table.value(row, "hexes")),
            "points": int(table.value(row, "points")),
        }
        for row in table.rows
    ]


def _hex_index(area_list) -> dict:
    return {hex_.upper(): area for area in area_list for hex_ in area["hexes"]}


def split_list(value) -> list[str]:
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    return [item for item in re.split(r"[\s,;]+", value or "") if item]


def to_hexes(ids, area_list, path: str) -> list[str]:
    """Objective area keys or hexes -> objective hexes (sorted, unique); DomainError names the bad id."""
    by_key = {a["key"].lower(): a for a in area_list}
    by_hex = _hex_index(area_list)
    hexes: set[str] = set()
    for item in ids:
        if item.lower() in by_key:
            hexes.update(h.upper() for h in by_key[item.lower()]["hexes"])
        elif item.upper() in by_hex:
            hexes.add(item.upper())
        else:
            raise DomainError(path, f"{item} is not an objective hex or area of 1.2.")
    return sorted(hexes)


def bridge_hexes(ids, area_list, path: str) -> list[str]:
    """Destroyed bridges: a whole bridge area stops being an objective (CG15: even undamaged sections)."""
    by_hex = _hex_index(area_list)
    out: set[str] = set()
    for hex_ in to_hexes(ids, area_list, path):
        area = by_hex[hex_]
        if area["kind"] != "bridge":
            raise DomainError(path, f"{hex_} is not a bridge objective.")
        out.update(h.upper() for h in area["hexes"])
    return sorted(out)


def live_areas(area_list, destroyed) -> list[dict]:
    """Objective areas still objectives: destroyed bridges are not (CG15)."""
    gone = set(destroyed)
    return [a for a in area_list if not any(h.upper() in gone for h in a["hexes"])]


def objective_points(controlled, area_list, destroyed) -> int:
    """1.2: the points of each area all of whose hexes the side controls."""
    held = set(controlled)
    return sum(
        a["points"]
        for a in live_areas(area_list, destroyed)
        if all(h.upper() in held for h in a["hexes"])
    )


def all_objective_hexes(area_list, destroyed) -> set[str]:
    return {h.upper() for a in live_areas(area_list, destroyed) for h in a["hexes"]}


# --- the log --------------------------------------------------------------------------------


def clean_result(state: APState, data: dict, ctx) -> dict:
    if not isinstance(data, dict):
        raise DomainError("data", "Must be an object.")
    raw = dict(data)
    for name in (*[f"{s}_{n}" for s in SIDES for n in _LISTS], "bridges_destroyed"):
        if isinstance(raw.get(name), list):
            raw[name] = ", ".join(str(v) for v in raw[name])
    cleaned = clean_fields(RESULT_FIELDS, raw)
    area_list = areas(ctx.table("1.2"))
    before = set(public(state)["bridges_destroyed"])
    now = bridge_hexes(split_list(cleaned["bridges_destroyed"]), area_list, "bridges_destroyed")
    already = sorted(before & set(now))
    if already:
        raise DomainError(
            "bridges_destroyed", f"{', '.join(already)} was destroyed on an earlier half-day."
        )
    out = {"bridges_destroyed": now}
    for moment, gone in (("start", before), ("end", before | set(now))):
        held = {}
        for side in SIDES:
            name = f"{side}_objectives_{moment}"
            hexes = to_hexes(split_list(cleaned[name]), area_list, name)
            dead = sorted(set(hexes) & gone)
            if dead:
                raise DomainError(
                    name, f"{', '.join(dead)}: a destroyed bridge is no objective (CG15)."
                )
            held[side] = hexes
            out[name] = hexes
        both = sorted(set(held["allied"]) & set(held["german"]))
        if both:
            raise DomainError(
                f"german_objectives_{moment}", f"Controlled by both sides: {', '.join(both)}."
            )
    for side in SIDES:
        for name in ("half_boards", "cvp", "air_support", "oba_missions"):
            out[f"{side}_{name}"] = cleaned[f"{side}_{name}"]
        out[f"{side}_perimeter"] = [h.upper() for h in split_list(cleaned[f"{side}_perimeter"])]
    return out


def log_result(state: APState, index: int, result: dict) -> RosterLine:
    """Copy the confirmed log into the CG Roster line of half-day `index`."""
    line = public(state)["roster"][index]
    line["played"] = True
    for side in SIDES:
        line["objectives_start"][side] = list(result[f"{side}_objectives_start"])
        line["objectives_end"][side] = list(result[f"{side}_objectives_end"])
        line["half_boards"][side] = result[f"{side}_half_boards"]
        line["cvp"][side] = result[f"{side}_cvp"]
        line["air_support"][side] = result[f"{side}_air_support"]
        line["oba_missions"][side] = result[f"{side}_oba_missions"]
        line["perimeter"][side] = list(result[f"{side}_perimeter"])
    line["bridges_destroyed"] = list(result["bridges_destroyed"])
    return line


# --- 1.6067 -----------------------------------------------------------------------------------


def _gain(line, side) -> int:
    return len(line["objectives_end"][side]) - len(line["objectives_start"][side])


def _captured(line, side) -> int:
    return len(set(line["objectives_end"][side]) - set(line["objectives_start"][side]))


def _objectives_gained(line, rule: dict, label: str) -> tuple[str, dict]:
    side, need = rule["side"], rule["objectives_gained"]
    gain = _gain(line, side)
    winner = side if gain >= need else other(side)
    why = (
        f"{label}: {NAMES[side]} objective hexes {len(line['objectives_start'][side])} at the start, "
        f"{len(line['objectives_end'][side])} at the end: {gain:+d} (needs +{need})."
    )
    return winner, {"rule": rule.get("rule", "1.5"), "text": why, "gain": gain, "needed": need}


def _assault(line, attacker: str, ctx) -> tuple[str, dict]:
    row = "german_assault" if attacker == "german" else "allied_assault"
    table = ctx.table("1.6232")
    need_hexes = int(table.value(row, "objectives_to_capture"))
    need_cvp = int(table.value(row, "cvp_margin"))
    defender = other(attacker)
    captured = _captured(line, attacker)
    caused = line["cvp"][defender] - line["cvp"][attacker]
    won = captured >= need_hexes or caused >= need_cvp
    why = (
        f"{NAMES[attacker]} assault: captured {captured} objective hexes (needs {need_hexes}) and caused "
        f"{caused:+d} CVP more than sustained (needs {need_cvp}); "
        + ("the attacker wins." if won else "the attack failed: the defender wins.")
    )
    return (attacker if won else defender), {
        "rule": "1.6232",
        "text": why,
        "captured": captured,
        "cvp_margin": caused,
    }


def _dual(line) -> tuple[str, dict]:
    score = {
        s: len(line["objectives_end"][s]) + line["half_boards"][s] - line["cvp"][s] for s in SIDES
    }
    parts = "; ".join(
        f"{NAMES[s]} {len(line['objectives_end'][s])} objective hexes + {line['half_boards'][s]} half boards − "
        f"{line['cvp'][s]} CVP = {score[s]}"
        for s in SIDES
    )
    if score["allied"] == score["german"]:
        return "draw", {
            "rule": "1.6232",
            "text": f"Dual Attack: {parts}; a tie: neither side wins.",
            "score": score,
        }
    winner = max(SIDES, key=lambda s: score[s])
    return winner, {
        "rule": "1.6232",
        "text": f"Dual Attack: {parts}; {NAMES[winner]} wins.",
        "score": score,
    }


def scenario_winner(state: APState, line: RosterLine, ctx) -> tuple[str, dict]:
    """The winner of the just-completed half-day: initial scenario VC, CG II's per-scenario VC,
    or the 1.6232 VC of the scenario type."""
    pub = public(state)
    data = cg(pub["cg"])
    if pub["initial"]:
        rule = dict(data["initial_scenario"]["victory"], rule=data["rule"])
        return _objectives_gained(line, rule, "Initial Scenario")
    if data.get("scenario_victory"):
        rule = dict(data["scenario_victory"], rule=data["rule"])
        return _objectives_gained(line, rule, f"CG {pub['cg'][-1]} scenario victory conditions")
    type_ = line["type"] or pub["scenario_type"]
    if type_ in ("dual", "dual_attack"):
        return _dual(line)
    if type_ in ("german_assault", "allied_assault"):
        return _assault(line, type_.split("_")[0], ctx)
    raise DomainError("scenario", "The scenario type of this half-day is unknown (1.623).")


def determine_victory(state: APState, ctx) -> RosterLine:
    """1.6067: decide the half-day, update the win:loss record and the objective points."""
    pub = public(state)
    index = current_index(state)
    line = pub["roster"][index]
    winner, why = scenario_winner(state, line, ctx)
    line["winner"], line["victory"] = winner, why
    if winner == "draw":
        for side in SIDES:
            pub["record"][side]["drawn"] += 1
    else:
        pub["record"][winner]["won"] += 1
        pub["record"][other(winner)]["lost"] += 1
    area_list = areas(ctx.table("1.2"))
    pub["bridges_destroyed"] = sorted(
        set(pub["bridges_destroyed"]) | set(line["bridges_destroyed"])
    )
    line["op"] = {
        s: objective_points(line["objectives_end"][s], area_list, pub["bridges_destroyed"])
        for s in SIDES
    }
    return line


def cg_victory(state: APState, ctx) -> tuple[str, str] | None:
    """1.51/1.52: the CG's victory conditions after the just-completed half-day, or None."""
    pub = public(state)
    data = cg(pub["cg"])
    goal = data["cg_victory"]
    if goal["kind"] != "control_all_objectives":
        return None
    line = pub["roster"][current_index(state)]
    needed = all_objective_hexes(areas(ctx.table("1.2")), pub["bridges_destroyed"])
    if needed and needed <= set(line["objectives_end"][goal["side"]]):
        return goal["side"], f"{data['cg_victory_text']} ({line['half_day']})"
    return None


def calendar_end_winner(state: APState) -> tuple[str | None, str]:
    """The last half-day is done and no CG victory ended the campaign earlier."""
    pub = public(state)
    data = cg(pub["cg"])
    goal = data["cg_victory"]
    if goal["kind"] == "control_all_objectives":
        # The side with the CG's goal failed to reach it: the other side holds (rules-notes).
        return other(
            goal["side"]
        ), f"The last half-day was played and the {NAMES[goal['side']]} goal was not met."
    totals = total_op(state)
    if totals["allied"] == totals["german"]:
        return (
            None,
            f"The last half-day was played; cumulative objective points are equal ({totals['allied']}).",
        )
    winner = max(SIDES, key=lambda s: totals[s])
    return winner, (
        f"Most cumulative objective points: Allied {totals['allied']}, German {totals['german']} "
        f"({data['rule']})."
    )


def total_op(state: APState) -> dict:
    lines = public(state)["roster"]
    return {s: sum(line["op"][s] or 0 for line in lines) for s in SIDES}


def played_line(state: APState) -> RosterLine:
    """The CG Roster line of the last half-day played (the one whose RePh is running)."""
    lines = [line for line in public(state)["roster"] if line["played"]]
    if not lines:
        raise DomainError("cvp", "No half-day has been played yet.")
    return lines[-1]


def add_cvp(
    state: APState, side: str, cvp: int, rolled_1616: Callable[[], bool] | None = None
) -> None:
    """CVP of units eliminated in the RePh: before 1.6067 they count for victory; after it
    only for the CPP/ELR DRM (1.6067), so not once the side has rolled 1.616 (`rolled_1616`
    answers that: the progress machine sits above this module)."""
    line = played_line(state)
    if line["winner"] is None:
        line["cvp"][side] += cvp
        return
    if rolled_1616 is not None and rolled_1616():
        raise DomainError(
            "cvp", "1.616 has been rolled: CVP eliminated now no longer count (1.6067)."
        )
    # Kept private: after 1.6067 they may come from secret rolls (e.g. 1.6142 withdrawal).
    after = private(state, side).setdefault("cvp_after_victory", {})
    after[line["half_day"]] = after.get(line["half_day"], 0) + cvp
