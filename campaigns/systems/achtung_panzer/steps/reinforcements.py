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

from typing import Any

from campaigns.game_interface import Mod

from .. import common
from ..shapes import APState
from .base import Step
from .helpers import upcoming_roll
from .rg_leaders import (
    needs_armor_leader_book,
    needs_leaders_book,
    run_armor_leaders,
    run_leaders,
    upcoming_armor_leaders,
    upcoming_leaders,
)
from .rg_records import (
    add_units,
    cell,
    discovering,
    is_hw_platoon,
    kind_of,
    mark_rolled,
    plain_dr,
    random_pick,
    rg_label,
    rolled,
    secret_roll,
    strength_mods,
    sw_row_key,
    to_roll,
    unit_count,
)

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


# --- 1.6201 strength, attached weapons, unit types --------------------------------------------------


def needs_strength(purchase: dict) -> bool:
    return kind_of(purchase) in STRENGTH_KINDS and not rolled(purchase, "1.6201")


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
        report = secret_roll(ctx, state, side, table_id, "1.6201", f"{pid}/type")
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
    report = secret_roll(
        ctx, state, side, "1.6201.attached", "1.6201", f"{purchase['id']}/attached"
    )
    item = report["result"][purchase["nationality"]]
    purchase["attached"] = item
    if item in ATTACHED_GUNS:
        add_units(state, side, purchase, "gun", item, note="attached (1.6201)")
        add_units(
            state, side, purchase, "crew", CREW_228, note=f"crew of the attached {item} (1.6201)"
        )
    elif item in ATTACHED_CARRIERS:
        add_units(state, side, purchase, "afv", item, note="attached (1.6201)")
        add_units(
            state,
            side,
            purchase,
            "half_squad",
            FIRST_LINE_HS,
            note=f"crew of the attached {item} (1.6201)",
        )
    else:
        add_units(state, side, purchase, "sw", item, note="attached (1.6201)")
        crew = ("crew", CREW_228) if item in ATTACHED_CREWED_SW else ("half_squad", FIRST_LINE_HS)
        add_units(
            state, side, purchase, crew[0], crew[1], note=f"with the attached {item} (1.6201)"
        )


def _strength(ctx, state: APState, side, purchase: dict) -> None:
    kind = kind_of(purchase)
    if purchase.get("no_depletion"):
        purchase["strength"] = "full"
        purchase["strength_note"] = "not subject to depletion (II.2)"
    else:
        report = secret_roll(
            ctx,
            state,
            side,
            "1.6201",
            "1.6201",
            purchase["id"],
            strength_mods(ctx, state, side),
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
            add_units(state, side, purchase, "squad", line["type"], unit_count(line, strength))
            squads += unit_count(line, strength)
        notes = (cell(ctx, purchase, "notes") or []) if purchase.get("rg") else []
        mounts = MOUNTS.get((purchase["nationality"], tuple(n for n in notes if n in ("u", "j"))))
        if mounts:  # German u: a motorcycle per squad; French j: horses to mount all units
            add_units(state, side, purchase, "vehicle", mounts, squads)
    elif kind == "armor":
        for line in lines:
            add_units(state, side, purchase, "afv", line["type"], unit_count(line, strength))
    elif kind in ("transport", "boat"):
        carriers = "1.619.british_t1_hs" in (cell(ctx, purchase, "subtables") or [])
        n = 0
        for line in lines:
            for _unit in range(unit_count(line, strength)):
                n += 1
                add_units(state, side, purchase, "afv" if carriers else "vehicle", line["type"])
                if carriers and not discovering(
                    ctx
                ):  # British c: an inherent 247/248 half-squad, per carrier
                    report = secret_roll(
                        ctx,
                        state,
                        side,
                        "1.619.british_t1_hs",
                        "1.6201",
                        f"{purchase['id']}/carrier{n}",
                    )
                    add_units(
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
            mark_rolled(purchase, "1.6201")


# --- 1.6202 support weapons ------------------------------------------------------------------------


def needs_sw(purchase: dict) -> bool:
    return bool(
        sw_row_key(purchase) and purchase.get("strength") and not rolled(purchase, "1.6202")
    )


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
            report = plain_dr(
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
        add_units(state, side, purchase, "sw", weapon["type"])
    if is_hw_platoon(purchase):
        # German t: "a 228 per mortar and a 247 per MMG"; French HW: its 228s, one per weapon.
        for weapon in received:
            crew = (
                "247"
                if purchase["nationality"] == "german" and weapon["column"] == "mmg"
                else CREW_228
            )
            add_units(state, side, purchase, "crew", crew, note=f"crew of the {weapon['type']}")


def run_support_weapons(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if needs_sw(purchase):
            _support_weapons(ctx, state, side, purchase)
            mark_rolled(purchase, "1.6202")


# --- 1.6204 OBA ammo and gun batteries ----------------------------------------------------------------


def needs_1_6204(purchase: dict) -> bool:
    return kind_of(purchase) in ("oba", "gun") and not rolled(purchase, "1.6204")


def _guns(ctx, state: APState, side, purchase: dict) -> None:
    report = secret_roll(
        ctx,
        state,
        side,
        "1.6204.guns",
        "1.6204",
        purchase["id"],
        strength_mods(ctx, state, side),
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
        add_units(state, side, purchase, "gun", gun)
        add_units(state, side, purchase, "crew", CREW_228, note=f"crew of the {gun}")
        for other in others:
            add_units(state, side, purchase, "vehicle", other, note=f"portee for the {gun}")


def run_oba_and_guns(ctx, state: APState, side: str, data: dict) -> None:
    for purchase in to_roll(state, side):
        if not needs_1_6204(purchase):
            continue
        if kind_of(purchase) == "oba":
            table_id = f"1.6204.oba.{purchase['nationality']}"
            report = secret_roll(
                ctx,
                state,
                side,
                table_id,
                "1.6204",
                purchase["id"],
                strength_mods(ctx, state, side),
                label=f"OBA ammo: {purchase['rg']}",
            )
            purchase["ammo"] = report["result"]["ammo"]
        else:
            _guns(ctx, state, side, purchase)
        mark_rolled(purchase, "1.6204")


# --- odds before rolling ---------------------------------------------------------------------------


def upcoming_strength(state: APState, side, ctx):
    mods = strength_mods(ctx, state, side)
    return [
        upcoming_roll(
            state, side, "1.6201", f"RG strength: {rg_label(p)}", mods, "strength", subject=p["id"]
        )
        for p in to_roll(state, side)
        if needs_strength(p) and not p.get("no_depletion")
    ]


def upcoming_1_6204(state: APState, side, ctx):
    mods = strength_mods(ctx, state, side)
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
                    f"OBA ammo: {rg_label(p)}",
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
                    f"Gun battery: {rg_label(p)}",
                    mods,
                    "strength",
                    subject=p["id"],
                    table="1.6204.guns",
                )
            )
    return found


# --- steps --------------------------------------------------------------------------------------------


def _any(pred):
    return lambda state, side: any(pred(p) for p in to_roll(state, side))


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
        applies=_any(lambda p: bool(sw_row_key(p)) and not rolled(p, "1.6202")),
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
        applies=_any(needs_leaders_book),
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
        applies=_any(needs_armor_leader_book),
        independent_dice=True,
        help="A secret DR per AFV platoon for its armor leader.",
    ),
]
