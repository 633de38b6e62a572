"""1.620 RG strength, weapons and leaders, for every RG bought this half-day and every RG given in
an initial OB (purchase records with given=True).

Five side-private steps, in rulebook order, each one event with no input (every roll is secret,
keyed "<half-day>/<step>/<side>/<purchase id>[/...]"):

* 1.6201 strength DR (historical DRM + 1.32) of every infantry coy, HW platoon, AFV platoon and
  transport; "Attached" → the Attached Weapons Table; the unit-type sub-tables (German A2/A3/A5/
  T2/T3 footnotes m–q, PSW chart b, French A1/A2/A3, British carrier half-squads c). Units go to
  the retained roster (retained.new_unit).
* 1.6202 support weapons (dr ≤ exponent, +1 if depleted; 2 of a type: at least one; a depleted HW
  platoon loses one random weapon) and the HW platoons' crews (German t: a 228 per mortar, a 247
  per MMG).
* 1.6204 OBA ammo and gun battery strength (historical DRM + 1.32; a depleted battery gets one gun
  less; German G2 never fewer than 2 guns).
* 1.6205 infantry leaders (German −1, French +1, the RG's Lead Mod, +1 depleted; at most one per
  3 squads, the best kept).
* 1.6206 armor leaders (German −1, Lead Mod), not for II.2's FT-17s.

Rule choices: docs/rules-notes.md, "1.620 reinforcements".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from campaigns.game_interface import Mod, TableSet, plain_roll, roll_on

from .. import common, retained as retained_units
from ..shapes import APState
from . import purchases as P
from .base import Step
from .helpers import table_mod_value, upcoming_roll

_BOOK = TableSet.load(Path(__file__).resolve().parents[1] / "tables")

STRENGTH_KINDS = (
    "infantry",
    "armor",
    "transport",
    "boat",
)  # 1.6201: Infantry Coy, HW platoon, AFV platoon, transport
SW_COLUMNS = ("gun37", "hmg", "mmg", "lmg", "atr", "mtr", "dc")
# 1.6201: "a 228 crew for applicable Gun or SW requiring a crew. A first line half-squad is added for
# other attached SW. The crew of a carrier is always a first line half-squad." Which attached items
# are Guns or crew-served is ASL knowledge (rules-notes R-C11).
ATTACHED_GUNS = ("37L AT Gun", "25LL", "37* Inf Gun")
ATTACHED_CREWED_SW = ("81* Mortar",)
ATTACHED_CARRIERS = ("Carrier C",)
CREW_228 = "228"
MOUNTS = {("german", ("u",)): "motorcycle or motorcycle/sidecar", ("french", ("j",)): "horse"}
FIRST_LINE_HS = "first-line HS"


# --- reads ------------------------------------------------------------------------------------


def _row(purchase: dict):
    if not purchase.get("rg"):
        return None
    return _BOOK.tables[P.rg_table_id(purchase["nationality"])].row(purchase["rg"])


def kind_of(purchase: dict) -> str | None:
    if purchase.get("kind"):
        return purchase["kind"]
    row = _row(purchase)
    return row.cells["kind"] if row else None


def cell(ctx, purchase: dict, column: str):
    return P.rg_cell(ctx, purchase["nationality"], purchase["rg"], column)


def is_hw_platoon(purchase: dict) -> bool:
    row = _row(purchase)
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


def _done(purchase: dict, step_id: str) -> bool:
    return step_id in purchase.get("rolled", [])


def _mark(purchase: dict, step_id: str) -> None:
    purchase.setdefault("rolled", []).append(step_id)


def _strength_mods(ctx, state: APState, side: str) -> list[Mod]:
    mods = [common.historical_mod(ctx, state, side)]
    balance = common.balance_mod(ctx, state, side)
    if balance:
        mods.append(balance)
    return [m for m in mods if m.value]


def _roll(ctx, state: APState, side, table_id, step_id, subject, mods=(), label=""):
    report = roll_on(
        ctx, table_id, common.roll_key(state, step_id, side, subject), mods, side=side, label=label
    )
    return common.record_roll(state, side, report, step_id)


def _dr(ctx, state: APState, side, step_id, subject, expr="1d6", mods=(), label="", rule=""):
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
        report = _dr(ctx, state, side, step_id, subject, "1d3", label=label)
        common.record_roll(state, side, dict(report, row=str(report["final"])), step_id)
        return report["final"] - 1
    if count == 2:
        report = _dr(ctx, state, side, step_id, subject, label=label)
        pick = 0 if report["final"] <= 3 else 1
        common.record_roll(state, side, dict(report, row="1-3" if pick == 0 else "4-6"), step_id)
        return pick
    for attempt in range(1, 21):
        report = _dr(ctx, state, side, step_id, f"{subject}/{attempt}", label=label)
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


def _add(state: APState, side, purchase, kind, type_, count=1, **extra) -> list[dict]:
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


def _count(line: dict, strength: str) -> int:
    value = line["depleted"] if strength == "depleted" else line["full"]
    return int(value or 0)


# --- 1.6201 strength, attached weapons, unit types --------------------------------------------------


def needs_strength(purchase: dict) -> bool:
    return kind_of(purchase) in STRENGTH_KINDS and not _done(purchase, "1.6201")


def _unit_lines(ctx, state: APState, side, purchase: dict) -> list[dict]:
    """The RG's unit lines {type, full, depleted}, after the type sub-tables (footnotes b, m-q)."""
    if purchase.get("given_units"):
        return [
            {"type": u["type"], "full": u.get("count", 1), "depleted": u.get("count", 1)}
            for u in purchase["given_units"]
        ]
    lines = [dict(u) for u in cell(ctx, purchase, "units")]
    pid = purchase["id"]
    for table_id in cell(ctx, purchase, "subtables") or []:
        if table_id == "1.619.british_t1_hs":
            continue  # rolled per carrier, below
        if purchase.get("unit_type"):
            lines = [
                dict(lines[0], type=purchase["unit_type"])
            ]  # the OB names the variant (CG I PzIIA)
            continue
        report = _roll(ctx, state, side, table_id, "1.6201", f"{pid}/type")
        result = report["result"]
        if "units" in result:  # German PSW chart: its own lines and numbers
            lines = [dict(u) for u in result["units"]]
        elif "full" in result:  # French A2 availability table
            lines = [
                {"type": result["tank"], "full": result["full"], "depleted": result["depleted"]}
            ]
        else:
            lines = [dict(lines[0], type=result.get("unit") or result.get("tank"))]
        purchase["unit_type"] = ", ".join(line["type"] for line in lines)
    return lines


def _attach(ctx, state: APState, side, purchase: dict) -> None:
    report = _roll(ctx, state, side, "1.6201.attached", "1.6201", f"{purchase['id']}/attached")
    item = report["result"][purchase["nationality"]]
    purchase["attached"] = item
    if item in ATTACHED_GUNS:
        _add(state, side, purchase, "gun", item, note="attached (1.6201)")
        _add(state, side, purchase, "crew", CREW_228, note=f"crew of the attached {item} (1.6201)")
    elif item in ATTACHED_CARRIERS:
        _add(state, side, purchase, "afv", item, note="attached (1.6201)")
        _add(
            state,
            side,
            purchase,
            "half_squad",
            FIRST_LINE_HS,
            note=f"crew of the attached {item} (1.6201)",
        )
    else:
        _add(state, side, purchase, "sw", item, note="attached (1.6201)")
        crew = ("crew", CREW_228) if item in ATTACHED_CREWED_SW else ("half_squad", FIRST_LINE_HS)
        _add(state, side, purchase, crew[0], crew[1], note=f"with the attached {item} (1.6201)")


def _strength(ctx, state: APState, side, purchase: dict) -> None:
    kind = kind_of(purchase)
    if purchase.get("no_depletion"):
        purchase["strength"] = "full"
        purchase["strength_note"] = "not subject to depletion (II.2)"
    else:
        report = _roll(
            ctx,
            state,
            side,
            "1.6201",
            "1.6201",
            purchase["id"],
            _strength_mods(ctx, state, side),
            label=f"RG strength: {purchase.get('rg') or purchase.get('note')}",
        )
        strength = report["result"]["strength"]
        # Units are attached to infantry companies only ("never attached to Armor units"; 1.2 Attached).
        purchase["strength"] = strength if strength != "attached" or kind == "infantry" else "full"
    strength = purchase["strength"]
    lines = _unit_lines(ctx, state, side, purchase)
    if kind == "infantry" and not is_hw_platoon(purchase):
        squads = 0
        for line in lines:
            _add(state, side, purchase, "squad", line["type"], _count(line, strength))
            squads += _count(line, strength)
        notes = (cell(ctx, purchase, "notes") or []) if purchase.get("rg") else []
        mounts = MOUNTS.get((purchase["nationality"], tuple(n for n in notes if n in ("u", "j"))))
        if mounts:  # German u: a motorcycle per squad; French j: horses to mount all units
            _add(state, side, purchase, "vehicle", mounts, squads)
    elif kind == "armor":
        for line in lines:
            _add(state, side, purchase, "afv", line["type"], _count(line, strength))
    elif kind in ("transport", "boat"):
        carriers = "1.619.british_t1_hs" in (cell(ctx, purchase, "subtables") or [])
        n = 0
        for line in lines:
            for _unit in range(_count(line, strength)):
                n += 1
                _add(state, side, purchase, "afv" if carriers else "vehicle", line["type"])
                if carriers and not discovering(
                    ctx
                ):  # British c: an inherent 247/248 half-squad, per carrier
                    report = _roll(
                        ctx,
                        state,
                        side,
                        "1.619.british_t1_hs",
                        "1.6201",
                        f"{purchase['id']}/carrier{n}",
                    )
                    _add(
                        state,
                        side,
                        purchase,
                        "half_squad",
                        report["result"]["half_squad"],
                        note=f"carrier {line['type']}",
                    )
    if purchase["strength"] == "attached" and not discovering(ctx):
        _attach(ctx, state, side, purchase)


def run_strength(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_strength(purchase):
            _strength(ctx, state, side, purchase)
            _mark(purchase, "1.6201")


# --- 1.6202 support weapons ------------------------------------------------------------------------


def needs_sw(purchase: dict) -> bool:
    return bool(sw_row_key(purchase) and purchase.get("strength") and not _done(purchase, "1.6202"))


def _sw_name(table, column: str, row) -> str:
    name = table.columns[column]
    if column == "mtr" and "a" in (row.cells.get("notes") or []):
        return "81* MTR"  # footnote a: "Mortars with these RG are 81mm."
    return name


def _support_weapons(ctx, state: APState, side, purchase: dict) -> None:
    table = ctx.table("1.6202")
    row = table.row(sw_row_key(purchase))
    depleted = purchase["strength"] == "depleted"
    mods = [Mod("Depleted RG", "1.6202", int(ctx.value("sw.depleted_drm")))] if depleted else []
    received: list[dict[str, Any]] = []
    for column in SW_COLUMNS:
        entry = table.value(row, column)
        if not entry:
            continue
        name = _sw_name(table, column, row)
        got: list[dict[str, Any]] = []
        for n in range(1, int(entry["count"]) + 1):
            if entry.get("exponent") is None:
                got.append({"type": name, "column": column, "roll": None})
                continue
            report = _dr(
                ctx,
                state,
                side,
                "1.6202",
                f"{purchase['id']}/sw/{column}/{n}",
                mods=mods,
                label=f"SW {name} ({purchase['rg']}): received on ≤{entry['exponent']}",
                rule="1.6202",
            )
            ok = report["final"] <= int(entry["exponent"])
            common.record_roll(
                state,
                side,
                dict(
                    report,
                    row=f"≤{entry['exponent']}" if ok else f">{entry['exponent']}",
                    result={"received": ok},
                ),
                "1.6202",
            )
            if ok:
                got.append({"type": name, "column": column, "roll": report["final"]})
        if int(entry["count"]) >= 2 and not got:
            got.append(
                {
                    "type": name,
                    "column": column,
                    "roll": None,
                    "note": "2 of a type: at least one (1.6202)",
                }
            )
        received.extend(got)
    if is_hw_platoon(purchase) and depleted and received and not discovering(ctx):
        names = ", ".join(w["type"] for w in received)
        index = random_pick(
            ctx,
            state,
            side,
            "1.6202",
            f"{purchase['id']}/hw_lost",
            len(received),
            f"Depleted HW platoon: the weapon not received ({names})",
        )
        lost = received.pop(index)
        purchase["sw_lost"] = lost["type"]
    purchase["sw"] = [w["type"] for w in received]
    for weapon in received:
        _add(state, side, purchase, "sw", weapon["type"])
    if is_hw_platoon(purchase):
        # German t: "a 228 per mortar and a 247 per MMG"; French HW: its 228s, one per weapon.
        for weapon in received:
            crew = (
                "247"
                if purchase["nationality"] == "german" and weapon["column"] == "mmg"
                else CREW_228
            )
            _add(state, side, purchase, "crew", crew, note=f"crew of the {weapon['type']}")


def run_support_weapons(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_sw(purchase):
            _support_weapons(ctx, state, side, purchase)
            _mark(purchase, "1.6202")


# --- 1.6204 OBA ammo and gun batteries ----------------------------------------------------------------


def needs_1_6204(purchase: dict) -> bool:
    return kind_of(purchase) in ("oba", "gun") and not _done(purchase, "1.6204")


def _guns(ctx, state: APState, side, purchase: dict) -> None:
    report = _roll(
        ctx,
        state,
        side,
        "1.6204.guns",
        "1.6204",
        purchase["id"],
        _strength_mods(ctx, state, side),
        label=f"Gun battery strength: {purchase['rg']}",
    )
    strength = report["result"]["strength"]
    purchase["strength"] = strength
    lines = [dict(u) for u in cell(ctx, purchase, "units")]
    guns = [line["type"] for line in lines if line.get("full") for _ in range(int(line["full"]))]
    others = [
        line["type"] for line in lines if not line.get("full")
    ]  # British portee trucks (no strength)
    if strength == "depleted":
        fewer = int(ctx.value("gun.depleted_fewer_guns"))
        minimum = (
            int(ctx.value("german.g2_min_guns"))
            if (purchase["nationality"] == "german" and "i" in (cell(ctx, purchase, "notes") or []))
            else 0
        )
        for n in range(fewer):
            if len(guns) <= minimum:
                break
            if len(set(guns)) == 1 or discovering(ctx):
                guns.pop()
            else:
                index = random_pick(
                    ctx,
                    state,
                    side,
                    "1.6204",
                    f"{purchase['id']}/gun_lost{n + 1}",
                    len(guns),
                    f"Depleted battery: the Gun not received ({', '.join(guns)})",
                )
                guns.pop(index)
    purchase["guns"] = len(guns)
    for gun in guns:
        _add(state, side, purchase, "gun", gun)
        _add(state, side, purchase, "crew", CREW_228, note=f"crew of the {gun}")
        for other in others:
            _add(state, side, purchase, "vehicle", other, note=f"portee for the {gun}")


def run_oba_and_guns(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if not needs_1_6204(purchase):
            continue
        if kind_of(purchase) == "oba":
            table_id = f"1.6204.oba.{purchase['nationality']}"
            report = _roll(
                ctx,
                state,
                side,
                table_id,
                "1.6204",
                purchase["id"],
                _strength_mods(ctx, state, side),
                label=f"OBA ammo: {purchase['rg']}",
            )
            purchase["ammo"] = report["result"]["ammo"]
        else:
            _guns(ctx, state, side, purchase)
        _mark(purchase, "1.6204")


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
    if _done(purchase, "1.6205") or not purchase.get("strength") or not purchase.get("rg"):
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
    report = _roll(
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
        _add(state, side, purchase, "leader", leader)


def run_leaders(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_leaders(ctx, purchase):
            _leaders(ctx, state, side, purchase)
            _mark(purchase, "1.6205")


# --- 1.6206 armor leaders -----------------------------------------------------------------------------


def needs_armor_leader(ctx, purchase: dict) -> bool:
    if _done(purchase, "1.6206") or purchase.get("no_armor_leader") or not purchase.get("rg"):
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
    report = _roll(
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
        _add(state, side, purchase, "armor_leader", leader)


def run_armor_leaders(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_armor_leader(ctx, purchase):
            _armor_leader(ctx, state, side, purchase)
            _mark(purchase, "1.6206")


# --- odds before rolling ---------------------------------------------------------------------------


def _name(purchase: dict) -> str:
    return purchase.get("rg") or purchase.get("note") or purchase["id"]


def upcoming_strength(state: APState, side, ctx):
    mods = _strength_mods(ctx, state, side)
    return [
        upcoming_roll(
            state, side, "1.6201", f"RG strength: {_name(p)}", mods, "strength", subject=p["id"]
        )
        for p in to_roll(state, side)
        if needs_strength(p) and not p.get("no_depletion")
    ]


def upcoming_1_6204(state: APState, side, ctx):
    mods = _strength_mods(ctx, state, side)
    found = []
    for p in to_roll(state, side):
        if not needs_1_6204(p):
            continue
        if kind_of(p) == "oba":
            found.append(
                upcoming_roll(
                    state,
                    side,
                    "1.6204",
                    f"OBA ammo: {_name(p)}",
                    mods,
                    "ammo",
                    subject=p["id"],
                    table=f"1.6204.oba.{p['nationality']}",
                )
            )
        else:
            found.append(
                upcoming_roll(
                    state,
                    side,
                    "1.6204",
                    f"Gun battery: {_name(p)}",
                    mods,
                    "strength",
                    subject=p["id"],
                    table="1.6204.guns",
                )
            )
    return found


def upcoming_leaders(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6205",
            f"Infantry leaders: {_name(p)}",
            leader_mods(ctx, p),
            subject=p["id"],
        )
        for p in to_roll(state, side)
        if _needs_leaders_book(p)
    ]


def upcoming_armor_leaders(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6206",
            f"Armor leader: {_name(p)}",
            armor_leader_mods(ctx, p),
            subject=p["id"],
        )
        for p in to_roll(state, side)
        if _needs_armor_leader_book(p)
    ]


# --- steps --------------------------------------------------------------------------------------------


def _any(pred):
    return lambda state, side: any(pred(p) for p in to_roll(state, side))


def _needs_leaders_book(purchase: dict) -> bool:
    row = _row(purchase)
    if not row or _done(purchase, "1.6205"):
        return False
    kind = row.cells["kind"]
    return kind == "infantry" or (kind == "transport" and "h" in (row.cells.get("notes") or []))


def _needs_armor_leader_book(purchase: dict) -> bool:
    row = _row(purchase)
    return bool(
        row
        and row.cells["kind"] == "armor"
        and row.cells["lead_mod"] is not None
        and not purchase.get("no_armor_leader")
        and not _done(purchase, "1.6206")
    )


STEPS = [
    Step(
        "1.6201",
        "RG strength and attached weapons",
        "1.6201",
        run=run_strength,
        initial=True,
        upcoming=upcoming_strength,
        applies=_any(needs_strength),
        help="A secret DR per infantry coy, HW platoon, AFV platoon and transport bought (or given), "
        "and the unit-type drs of the RG notes.",
    ),
    Step(
        "1.6202",
        "Infantry RG support weapons",
        "1.6202",
        run=run_support_weapons,
        initial=True,
        applies=_any(lambda p: bool(sw_row_key(p)) and not _done(p, "1.6202")),
        independent_dice=True,
        help="A secret dr per support weapon with an exponent; +1 if the RG is depleted.",
    ),
    Step(
        "1.6204",
        "OBA ammo and gun battery strength",
        "1.6204",
        run=run_oba_and_guns,
        initial=True,
        upcoming=upcoming_1_6204,
        applies=_any(needs_1_6204),
        independent_dice=True,
        help="A secret DR per OBA module and per gun battery.",
    ),
    Step(
        "1.6205",
        "Infantry leaders",
        "1.6205",
        run=run_leaders,
        initial=True,
        upcoming=upcoming_leaders,
        applies=_any(_needs_leaders_book),
        independent_dice=True,
        help="A secret DR per infantry company for its leaders.",
    ),
    Step(
        "1.6206",
        "Armor leaders",
        "1.6206",
        run=run_armor_leaders,
        initial=True,
        upcoming=upcoming_armor_leaders,
        applies=_any(_needs_armor_leader_book),
        independent_dice=True,
        help="A secret DR per AFV platoon for its armor leader.",
    ),
]
