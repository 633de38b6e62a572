"""1.6131 immobilization removal (with remanning), 1.6132 weapon repair, 1.6135 captured weapons,
1.6142 AFV platoon withdrawal. All rolls are the side's own (retained units are side-private).

Vehicular-mounted weapons are not units: an item names the AFV and the weapon ("MA", "CMG"…);
their state is kept in the AFV's ``weapons`` map ({"MA": "ok"|"malfunctioned"|"disabled"}).
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, roll_on

from .. import common
from .base import Step
from .helpers import (
    after_new_half_day,
    eliminate,
    is_immobilized,
    mods,
    picked_units,
    ratio,
    retained,
    table_mod,
    unit_by_id,
    unit_choices,
    upcoming,
)

AFV_KINDS = ("afv", "vehicle")
WEAPON_KINDS = ("sw", "gun")


def _check_items(items, path: str, key=lambda e: e["unit"]):
    seen = set()
    for i, entry in enumerate(items):
        k = key(entry)
        if k in seen:
            raise DomainError(
                f"{path}[{i}]", f"{k if isinstance(k, str) else ' '.join(k)} is listed twice."
            )
        seen.add(k)


# --- 1.6131 immobilization removal ------------------------------------------------------------


def immobilization_mods(ctx, afv: dict, entry: dict) -> list:
    leader = entry.get("armor_leader_drm") or 0
    return mods(
        Mod("Armor leader DRM", "1.6131", leader) if leader else None,
        table_mod(ctx, "1.6131", "non_qualified_use") if entry.get("non_qualified") else None,
        table_mod(ctx, "1.6131", "isolated") if afv.get("isolated") else None,
        table_mod(ctx, "1.6131", "inexperienced_crew") if entry.get("inexperienced_crew") else None,
    )


def _manned_immobilized(state, side, remanned_ids) -> list[dict]:
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS
        and is_immobilized(u)
        and (u.get("status") != "abandoned" or u["id"] in remanned_ids)
    ]


# 1.6131 b/c: shock/UK (C7.47) and bog removal (D8.3) are ASL procedures rolled at the table; the
# side records how each ended (rules-notes R-A20). A bog that ends immobilized then rolls d.
AT_TABLE = {"bogged": ("unbogged", "immobilized"), "shocked": ("recovered", "eliminated")}
AT_TABLE_WORDS = (
    ("unbogged", "unbogged (D8.3)"),
    ("immobilized", "immobilized (D8.3)"),
    ("recovered", "no longer shocked/UK (C7.47)"),
    ("eliminated", "eliminated (C7.47)"),
)


def _at_table(state, side) -> list[dict]:
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS and u.get("status") in AT_TABLE
    ]


def _plan_at_table(state, side, entries) -> list[tuple[dict, str]]:
    """How each bogged/shocked AFV ended, checked (nothing applied yet)."""
    _check_items(entries, "at_table", key=lambda e: e["afv"])
    waiting = {u["id"]: u for u in _at_table(state, side)}
    plan = []
    for i, entry in enumerate(entries):
        afv = waiting.get(entry["afv"])
        if afv is None:
            raise DomainError(
                f"at_table[{i}].afv", f"{entry['afv']} is not a bogged or shocked/UK AFV."
            )
        if entry["outcome"] not in AT_TABLE[afv["status"]]:
            raise DomainError(
                f"at_table[{i}].outcome", f"Not an outcome for a {afv['status']} AFV."
            )
        plan.append((afv, entry["outcome"]))
    missing = sorted(set(waiting) - {a["id"] for a, _ in plan})
    if missing:
        raise DomainError(
            "at_table",
            f"Say how it ended for each bogged or shocked/UK AFV (1.6131b-c): "
            f"{', '.join(missing)}.",
        )
    return plan


def _apply_at_table(ctx, state, side, plan) -> None:
    lost = []
    for afv, outcome in plan:
        if outcome == "eliminated":
            eliminate(state, side, afv, "1.6131", "shocked/UK AFV eliminated (C7.47, 1.6131b)")
            lost.append(afv)
        else:  # an AFV immobilized before it was shocked stays immobilized once it recovers
            still = outcome == "immobilized" or bool(afv.get("immobilized"))
            afv["status"] = "immobilized" if still else "ok"
            afv["immobilized"] = still
    _count_after_victory(ctx, state, side, lost)


def run_immobilization(ctx, state, side, data):
    at_table = _plan_at_table(state, side, data.get("at_table") or [])
    gone = {afv["id"] for afv, outcome in at_table if outcome == "eliminated"}
    # No 1.6131d dr for an AFV eliminated or unbogged at the table, nor one that recovered mobile.
    freed = gone | {
        afv["id"]
        for afv, outcome in at_table
        if outcome == "unbogged" or (outcome == "recovered" and not afv.get("immobilized"))
    }
    bogged_down = [afv for afv, outcome in at_table if outcome == "immobilized"]
    remanned = data.get("remanned") or []
    _check_items(data.get("rolls") or [], "rolls", key=lambda e: e["afv"])
    # A roll ticked on the page for an AFV its at-table outcome freed is dropped; errors name the
    # row as it was sent.
    rolls = [(i, r) for i, r in enumerate(data.get("rolls") or []) if r.get("afv") not in freed]
    _check_items(remanned, "remanned", key=lambda e: e["afv"])
    crews = set()
    plan_reman = []
    for i, entry in enumerate(remanned):
        afv = unit_by_id(state, side, entry["afv"], f"remanned[{i}].afv")
        if (
            afv.get("kind") not in AFV_KINDS
            or afv.get("status") != "abandoned"
            or afv.get("isolated")
        ):
            raise DomainError(
                f"remanned[{i}].afv", f"{afv['id']} is not an abandoned, non-isolated AFV."
            )
        crew = unit_by_id(state, side, entry["by"], f"remanned[{i}].by")
        if (
            crew["id"] == afv["id"]
            or crew.get("kind") in AFV_KINDS + WEAPON_KINDS
            or crew["id"] in crews
        ):
            raise DomainError(f"remanned[{i}].by", f"{crew['id']} cannot man {afv['id']}.")
        crews.add(crew["id"])
        plan_reman.append((afv, crew))
    must = {
        u["id"]: u
        for u in _manned_immobilized(state, side, {a["id"] for a, _ in plan_reman}) + bogged_down
        if u["id"] not in gone
    }
    plan_rolls = []
    for i, entry in rolls:
        if entry["afv"] not in must:
            raise DomainError(
                f"rolls[{i}].afv", f"{entry['afv']} is not a manned, immobilized AFV."
            )
        plan_rolls.append((must[entry["afv"]], entry))
    missing = sorted(set(must) - {e["afv"] for _, e in rolls})
    if missing:
        raise DomainError(
            "rolls", f"Each manned, immobilized AFV must roll (1.6131d): add {', '.join(missing)}."
        )
    _apply_at_table(ctx, state, side, at_table)
    for afv, crew in plan_reman:
        afv["status"] = "immobilized" if is_immobilized(afv) else "ok"
        afv["manned_by"] = crew["id"]
        afv["note"] = f"remanned by {crew['id']} (1.6131a)"
    for afv, entry in plan_rolls:
        report = roll_on(
            ctx,
            "1.6131",
            common.roll_key(state, "1.6131", side, afv["id"]),
            immobilization_mods(ctx, afv, entry),
            side=side,
            label=f"Immobilization removal {afv.get('type', '')} ({afv['id']})",
        )
        if report["result"]["effect"] == "mobile":
            afv["status"] = "ok"
            afv["immobilized"] = False
        report["effect"] = {"unit": afv["id"], "outcome": report["result"]["effect"]}
        common.record_roll(state, side, report, "1.6131")


def upcoming_immobilization(state, side, ctx):
    return [
        upcoming(
            common.roll_key(state, "1.6131", side, u["id"]),
            f"Immobilization removal ({u['id']})",
            "1.6131",
            immobilization_mods(ctx, u, {}),
            "effect",
        )
        for u in _manned_immobilized(state, side, set())
    ]


# --- 1.6132 weapon repair ---------------------------------------------------------------------


def repair_mods(ctx, unit: dict, entry: dict) -> list:
    return mods(
        table_mod(ctx, "1.6132", "vehicular_mounted") if unit.get("kind") in AFV_KINDS else None,
        table_mod(ctx, "1.6132", "non_qualified_use") if entry.get("non_qualified") else None,
        table_mod(ctx, "1.6132", "isolated") if unit.get("isolated") else None,
    )


def _malfunctioned_weapons(state, side) -> list[dict]:
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in WEAPON_KINDS
        and u.get("status") == "malfunctioned"
        and not u.get("captured")
    ]


def _vehicular_item(unit: dict, entry: dict, path: str, want: str) -> str:
    weapon = (entry.get("weapon") or "").strip()
    if not weapon:
        raise DomainError(f"{path}.weapon", f"Name the weapon of {unit['id']} (MA, CMG, BMG…).")
    known = unit.get("weapons")
    if known is None:
        return weapon
    if want == "malfunctioned" and unit.get("status") == "malfunctioned":
        # Marked malfunctioned at the end of this scenario: any weapon not disabled may be the one,
        # even one repaired in an earlier Refit Phase.
        if known.get(weapon) == "disabled":
            raise DomainError(
                f"{path}.weapon",
                f"{unit['id']}'s {weapon} is disabled; it cannot malfunction again.",
            )
        return weapon
    if known.get(weapon) != want:
        raise DomainError(f"{path}.weapon", f"{unit['id']}'s {weapon} is not {want}.")
    return weapon


def run_repair(ctx, state, side, data):
    items = data.get("weapons") or []
    _check_items(items, "weapons", key=lambda e: (e["unit"], (e.get("weapon") or "").strip()))
    plan = []
    for i, entry in enumerate(items):
        path = f"weapons[{i}]"
        unit = unit_by_id(state, side, entry["unit"], f"{path}.unit")
        if unit.get("captured"):
            raise DomainError(f"{path}.unit", f"{unit['id']} is captured: see 1.6135.")
        if unit.get("kind") in AFV_KINDS:
            plan.append((unit, _vehicular_item(unit, entry, path, "malfunctioned"), entry))
        elif unit.get("kind") in WEAPON_KINDS and unit.get("status") == "malfunctioned":
            if (entry.get("weapon") or "").strip():
                raise DomainError(f"{path}.weapon", "Only a vehicular-mounted weapon is named.")
            plan.append((unit, None, entry))
        else:
            raise DomainError(f"{path}.unit", f"{unit['id']} is not a malfunctioned weapon.")
    listed = {u["id"] for u, w, _ in plan if w is None}
    named = {u["id"] for u, w, _ in plan if w is not None}
    unnamed = [u["id"] for u in _malfunctioned_afvs(state, side) if u["id"] not in named]
    if unnamed:
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


def upcoming_repair(state, side, ctx):
    return [
        upcoming(
            common.roll_key(state, "1.6132", side, u["id"]),
            f"Weapon repair ({u['id']})",
            "1.6132",
            repair_mods(ctx, u, {}),
            "effect",
        )
        for u in _malfunctioned_weapons(state, side)
    ]


# --- 1.6135 captured weapons ------------------------------------------------------------------


def _captured_weapons(state, side) -> list[dict]:
    return [u for u in retained(state, side) if u.get("kind") in WEAPON_KINDS and u.get("captured")]


def run_captured(ctx, state, side, data):
    items = data.get("vehicular") or []
    _check_items(items, "vehicular", key=lambda e: (e["unit"], (e.get("weapon") or "").strip()))
    plan = []
    for i, entry in enumerate(items):
        path = f"vehicular[{i}]"
        unit = unit_by_id(state, side, entry["unit"], f"{path}.unit")
        if unit.get("kind") not in AFV_KINDS or not unit.get("captured"):
            raise DomainError(f"{path}.unit", f"{unit['id']} is not a captured AFV.")
        want = "malfunctioned" if entry.get("malfunctioned") else "ok"
        plan.append(
            (unit, _vehicular_item(unit, entry, path, want), bool(entry.get("malfunctioned")))
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


def upcoming_captured(state, side, ctx):
    return [
        upcoming(
            common.roll_key(state, "1.6135", side, u["id"]),
            f"Captured weapon ({u['id']})",
            "1.6135",
            [],
            "effect",
        )
        for u in _captured_weapons(state, side)
        if u.get("status") != "malfunctioned"
    ]


# --- 1.6142 AFV platoon withdrawal ------------------------------------------------------------


def withdrawal_mods(ctx, state: dict, side: str) -> list:
    if len(common.completed(state)) < int(ctx.value("afv_withdrawal.min_half_days_completed")):
        return []
    won, lost = common.win_loss(state, side)
    a, b = ratio(ctx.value("afv_withdrawal.losing_record_ratio"))
    if lost and won * b <= lost * a:  # win:loss ≤ 1:2 (no ratio without a loss)
        return [table_mod(ctx, "1.6142", "losing_record", label=f"Win:loss {won}:{lost} ≤ {a}:{b}")]
    return []


def _platoon(state, side, platoon) -> list[dict]:
    """The units of a platoon; a captured AFV (no platoon of its own) is a portion by itself."""
    return [
        u
        for u in retained(state, side)
        if u.get("platoon") == platoon
        or (u["id"] == platoon and u.get("captured") and not u.get("platoon"))
    ]


def _captured_afvs(state, side) -> list[str]:
    """1.6142 "(including captured)": a captured AFV was on the map where it was captured."""
    return [
        u["id"]
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS
        and u.get("captured")
        and not u.get("platoon")
        and not u.get("isolated")
    ]


def _with_afv(state, side, platoon) -> bool:
    return any(
        u.get("kind") in AFV_KINDS and not u.get("isolated") for u in _platoon(state, side, platoon)
    )


def qualifying_platoons(state, side) -> list[str]:
    """1.6142: each non-isolated retained AFV platoon "that has had at least one AFV of it's platoon on
    the map in at least one CG scenario" (the side's end-of-scenario records say which were)."""
    on_map = common.private(state, side).get("platoons_on_map", [])
    return [p for p in on_map if _with_afv(state, side, p)] + _captured_afvs(state, side)


def run_withdrawal(ctx, state, side, data):
    given = data.get("platoons") or []
    _check_items([{"unit": p} for p in given], "platoons")
    for i, platoon in enumerate(given):
        if not _with_afv(state, side, platoon):
            raise DomainError(f"platoons[{i}]", f"{platoon} has no non-isolated retained AFV.")
    # The rolls are mandatory: the platoons recorded on the map roll whether listed or not.
    platoons = list(dict.fromkeys([*qualifying_platoons(state, side), *given]))
    for platoon in platoons:
        report = roll_on(
            ctx,
            "1.6142",
            common.roll_key(state, "1.6142", side, platoon),
            withdrawal_mods(ctx, state, side),
            side=side,
            label=f"AFV platoon withdrawal ({platoon})",
        )
        withdrawn = report["result"]["effect"] == "withdrawn"
        gone, stays = [], []
        if withdrawn:
            for unit in _platoon(state, side, platoon):
                if unit.get("kind") in AFV_KINDS and unit.get("isolated"):
                    if not is_immobilized(
                        unit
                    ):  # 1.6143: "an isolated mobile AFV": a dr in each friendly RPh
                        unit["withdrawal_pending"] = True
                        stays.append(unit["id"])
                elif unit.get("kind") in AFV_KINDS + ("armor_leader",):
                    eliminate(
                        state, side, unit, "1.6142", f"AFV platoon {platoon} withdrawn (1.6142)"
                    )
                    gone.append(unit)
            _count_after_victory(ctx, state, side, gone)
            gone = [u["id"] for u in gone]
        report["effect"] = {
            "platoon": platoon,
            "outcome": report["result"]["effect"],
            "eliminated": gone,
            "isolated_1_6143": stays,
        }
        common.record_roll(state, side, report, "1.6142")


def _count_after_victory(ctx, state, side, units) -> None:
    """Eliminated after 1.6067: their CVP count for 1.616 only, privately (R-A18), when the club's
    CVP list covers them."""
    from .. import aftermath, halfday

    cvp = aftermath.cvp_of(ctx, units) if units else None
    if cvp:
        halfday.add_cvp(state, side, cvp)


def upcoming_withdrawal(state, side, ctx):
    platoons = qualifying_platoons(state, side)
    return [
        upcoming(
            common.roll_key(state, "1.6142", side, p),
            f"AFV platoon withdrawal ({p})",
            "1.6142",
            withdrawal_mods(ctx, state, side),
            "effect",
        )
        for p in platoons
    ]


# A step with nothing to roll for is skipped (the other side sees it done, as any completed step).


def _applies_immobilization(state, side):
    return bool(_at_table(state, side)) or any(
        u.get("kind") in AFV_KINDS
        and ((u.get("status") == "abandoned" and not u.get("isolated")) or is_immobilized(u))
        for u in retained(state, side)
    )


def _malfunctioned_afvs(state, side) -> list[dict]:
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


def _applies_repair(state, side):
    return bool(_malfunctioned_weapons(state, side)) or bool(_malfunctioned_afvs(state, side))


def _applies_captured(state, side):
    return any(u.get("captured") for u in retained(state, side))


def _applies_withdrawal(state, side):
    return bool(qualifying_platoons(state, side))


def _auto_captured(state, side):
    """Captured SW and Guns roll on their own; the weapons of a captured AFV are named by the side."""
    return (
        None
        if any(u.get("kind") in AFV_KINDS and u.get("captured") for u in retained(state, side))
        else {}
    )


# --- the page ------------------------------------------------------------------------------


def _crews(state, side) -> list[dict]:
    return [u for u in retained(state, side) if u.get("kind") not in AFV_KINDS + WEAPON_KINDS]


def form_immobilization(ctx, view, side):
    afvs = [u for u in retained(view, side) if u.get("kind") in AFV_KINDS]
    abandoned = [u for u in afvs if u.get("status") == "abandoned" and not u.get("isolated")]
    immobile = [u for u in afvs if is_immobilized(u) or u.get("status") == "bogged"]
    fields = []
    at_table = _at_table(view, side)
    if at_table:
        fields.append(
            picked_units(
                "at_table",
                "Shock/UK and bogged AFVs (1.6131b-c)",
                at_table,
                view,
                side,
                Field(
                    "outcome",
                    "choice",
                    choices=tuple(k for k, _ in AT_TABLE_WORDS),
                    labels=AT_TABLE_WORDS,
                    label="How it ended",
                ),
                key="afv",
                help="Roll these at the table with the ASL rules (C7.47, D8.3) and say how each "
                "ended; a bogged AFV that ends immobilized also rolls below (tick it there).",
            )
        )
    if abandoned:
        crews = _crews(view, side)
        fields.append(
            picked_units(
                "remanned",
                "Remanning abandoned AFVs (1.6131a)",
                abandoned,
                view,
                side,
                Field("by", "choice", label="Manned by", **unit_choices(crews, view, side)),
                key="afv",
                rows=({"afv": u["id"]} for u in abandoned),  # none ticked: remanning is a choice
                help="Tick an AFV to reman it; it is then manned and must roll if immobilized.",
            )
        )
    if immobile:
        fields.append(
            Field(
                "rolls",
                "list",
                label="Immobilization removal dr (1.6131d)",
                key="afv",
                widget="pick",
                required=False,
                default=[],
                rows=tuple(
                    {
                        "afv": u["id"],
                        "_on": u.get("status") != "abandoned",
                        "inexperienced_crew": "Inexperienced crew" in (u.get("note") or ""),
                    }
                    for u in immobile
                ),
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("afv", **unit_choices(immobile, view, side)),
                        Field(
                            "armor_leader_drm",
                            "int",
                            required=False,
                            default=0,
                            min=-5,
                            max=5,
                            label="Armor leader DRM",
                        ),
                        Field(
                            "non_qualified",
                            "bool",
                            required=False,
                            default=False,
                            label="Only non-qualified use possible (+1)",
                        ),
                        Field(
                            "inexperienced_crew",
                            "bool",
                            required=False,
                            default=False,
                            label="Inexperienced crew (+1)",
                        ),
                    ),
                ),
                help="Every manned, immobilized AFV rolls (ticked); an abandoned one only if remanned.",
            )
        )
    return tuple(fields)


def form_repair(ctx, view, side):
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


def form_captured(ctx, view, side):
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


STEPS = [
    Step(
        "1.6131",
        "AFV: remanning and immobilization removal",
        "1.6131",
        run=run_immobilization,
        applies=_applies_immobilization,
        form=form_immobilization,
        short="AFV",
        upcoming=after_new_half_day(upcoming_immobilization),
        fields=(
            Field(
                "at_table",
                "list",
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("afv", max_length=20),
                        Field("outcome", "choice", choices=tuple(k for k, _ in AT_TABLE_WORDS)),
                    ),
                ),
                help="How each bogged or shocked/UK AFV ended at the table (1.6131b-c).",
            ),
            Field(
                "remanned",
                "list",
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("afv"),
                        Field("by"),
                    ),
                ),
                help="Abandoned non-isolated AFVs remanned, and the retained unit manning each (1.6131a).",
            ),
            Field(
                "rolls",
                "list",
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("afv"),
                        Field("armor_leader_drm", "int", required=False, default=0, min=-5, max=5),
                        Field("non_qualified", "bool", required=False, default=False),
                        Field("inexperienced_crew", "bool", required=False, default=False),
                    ),
                ),
                help="Every manned, immobilized AFV, with its modifiers (1.6131d).",
            ),
        ),
        help="Shock/UK (C7.47) and bog removal (D8.3) are rolled at the table with the ASL rules; say how each "
        "ended.",
    ),
    Step(
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
    ),
    Step(
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
    ),
    Step(
        "1.6142",
        "AFV platoon withdrawal",
        "1.6142",
        run=run_withdrawal,
        applies=_applies_withdrawal,
        upcoming=after_new_half_day(upcoming_withdrawal),
        auto=lambda state, side: {},
        short="AFV platoon withdrawal",
        fields=(
            Field(
                "platoons",
                "list",
                required=False,
                default=[],
                item=Field("platoon"),
                help="Each non-isolated retained AFV platoon that had an AFV on the map in a CG scenario.",
            ),
        ),
        help="A secret dr per platoon: 6 withdraws it (−1 with a win:loss ≤ 1:2 after 3 half-days).",
    ),
]
