"""1.6131 AFV recovery: remanning abandoned AFVs, how bogged and shocked/UK AFVs ended at the
table, and the immobilization removal dr of every manned, immobilized AFV."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, roll_on

from .. import common
from ..shapes import APState
from .base import Step
from .equipment_kinds import (
    AFV_KINDS,
    WEAPON_KINDS,
    check_items,
    count_after_victory,
)
from .helpers import (
    after_new_half_day,
    eliminate,
    is_immobilized,
    mods,
    picked_units,
    retained,
    table_mod,
    unit_by_id,
    unit_choices,
    upcoming_roll,
)


def immobilization_mods(ctx, afv: dict, entry: dict) -> list:
    leader = entry.get("armor_leader_drm") or 0
    return mods(
        Mod("Armor leader DRM", "1.6131", leader) if leader else None,
        table_mod(ctx, "1.6131", "non_qualified_use") if entry.get("non_qualified") else None,
        table_mod(ctx, "1.6131", "isolated") if afv.get("isolated") else None,
        table_mod(ctx, "1.6131", "inexperienced_crew") if entry.get("inexperienced_crew") else None,
    )


def _manned_immobilized(state: APState, side, remanned_ids) -> list[dict]:
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


# From A!P! v3 (707737a) the side says how each bogged or shocked/UK AFV ended (R-A20); before,
# 1.6131 did not ask, and the events of v1 and v2 journals keep that.
AT_TABLE_SINCE = 3


def _at_table(state: APState, side) -> list[dict]:
    if not common.since(state, AT_TABLE_SINCE):
        return []
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS and u.get("status") in AT_TABLE
    ]


def _plan_at_table(state: APState, side, entries) -> list[tuple[dict, str]]:
    """How each bogged/shocked AFV ended, checked (nothing applied yet)."""
    check_items(entries, "at_table", key=lambda e: e["afv"])
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


def _apply_at_table(ctx, state: APState, side, plan) -> None:
    lost = []
    for afv, outcome in plan:
        if outcome == "eliminated":
            eliminate(state, side, afv, "1.6131", "shocked/UK AFV eliminated (C7.47, 1.6131b)")
            lost.append(afv)
        else:  # an AFV immobilized before it was shocked stays immobilized once it recovers
            still = outcome == "immobilized" or bool(afv.get("immobilized"))
            afv["status"] = "immobilized" if still else "ok"
            afv["immobilized"] = still
    count_after_victory(ctx, state, side, lost)


def run_immobilization(ctx, state: APState, side, data):
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
    check_items(data.get("rolls") or [], "rolls", key=lambda e: e["afv"])
    # A roll ticked on the page for an AFV its at-table outcome freed is dropped; errors name the
    # row as it was sent.
    rolls = [(i, r) for i, r in enumerate(data.get("rolls") or []) if r.get("afv") not in freed]
    check_items(remanned, "remanned", key=lambda e: e["afv"])
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


def upcoming_immobilization(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.6131",
            f"Immobilization removal ({u['id']})",
            immobilization_mods(ctx, u, {}),
            "effect",
            subject=u["id"],
        )
        for u in _manned_immobilized(state, side, set())
    ]


def _applies_immobilization(state: APState, side):
    return bool(_at_table(state, side)) or any(
        u.get("kind") in AFV_KINDS
        and ((u.get("status") == "abandoned" and not u.get("isolated")) or is_immobilized(u))
        for u in retained(state, side)
    )


# --- the page ------------------------------------------------------------------------------


def _crews(state: APState, side) -> list[dict]:
    return [u for u in retained(state, side) if u.get("kind") not in AFV_KINDS + WEAPON_KINDS]


def form_immobilization(ctx, view: APState, side):
    afvs = [u for u in retained(view, side) if u.get("kind") in AFV_KINDS]
    abandoned = [u for u in afvs if u.get("status") == "abandoned" and not u.get("isolated")]
    immobile = [u for u in afvs if is_immobilized(u) or u.get("status") == "bogged"]
    fields = []
    at_table = _at_table(view, side)
    if at_table:
        fields.append(_at_table_field(at_table, view, side))
    if abandoned:
        fields.append(_remanned_field(abandoned, view, side))
    if immobile:
        fields.append(_rolls_field(immobile, view, side))
    return tuple(fields)


def _at_table_field(at_table: list, view: APState, side) -> Field:
    return picked_units(
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


def _remanned_field(abandoned: list, view: APState, side) -> Field:
    crews = _crews(view, side)
    return picked_units(
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


def _rolls_field(immobile: list, view: APState, side) -> Field:
    """The immobilization removal dr of each immobilized AFV, ticked when it is manned."""
    return Field(
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


STEP = Step(
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
)
