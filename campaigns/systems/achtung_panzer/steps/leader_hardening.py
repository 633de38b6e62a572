"""1.6113 leader battle hardening and 1.6114 promotion out of the ranks: the rules (the page is
leader_hardening_form.py, the step leaders.py).

1.6113 takes two events of its kind:
1. ``{"action": "roll", "nationality", "leader_kind", "heroic": [...]}`` — heroic leaders harden
   (the player enters what each becomes: ASL knowledge), then the secret DR is made. Or
   ``{"action": "promote", "promote": <leader id>, "heroic": [...]}`` instead of the DR (1.6114).
2. ``{"action": "resolve", "win_drm": "full"|"reduced"|"ignore", "leader": <id>, "becomes": "9-1"}``
   — after seeing the DR, a side that won may ignore the win DRM or apply only the reduced one;
   the table's leader type names the leader that hardens (or, if none of that type is retained,
   the lowest-grade retained non-wounded leader), and the player enters what he becomes.

From journal version 6 (R-A26) the roll may carry that choice: ``win_drm`` (kept, reduced or
ignored, when the side won) and ``if_hardened`` ``[{"leader", "becomes"}]``, what each leader
becomes should he be the one who hardens. When they settle the result (the win DRM is known and
a leader named there hardens, the first listed of several of the type the DR names; or none can),
it is resolved at once; otherwise the choice is asked after the DR as before.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, roll_on

from .. import common, words
from ..shapes import APState
from .base import PENDING
from .helpers import (
    LEADER_KINDS,
    clear_pending,
    eliminate,
    mods,
    new_unit,
    pending_for,
    retained,
    set_pending,
    table_mod,
    unit_by_id,
    upcoming_roll,
    won_this_half_day,
)

NONE = "None"  # the table's "no leader" row


def side_nationalities(side: str) -> tuple[str, ...]:
    return ("german",) if side == "german" else ("french", "british")


def hardening_table_id(nationality: str) -> str:
    return f"1.6113.{nationality}"


def _win_options(ctx, state: APState, side, nationality) -> dict:
    """The win DRM the player may keep, reduce or ignore after the DR (only if the side won)."""
    if not won_this_half_day(
        state, side
    ):  # before 1.6121 the last completed half-day is "this" one
        return {"none": None}
    table_id = hardening_table_id(nationality)
    full = table_mod(ctx, table_id, "won_this_half_day")
    reduced_value = int(ctx.value("battle_hardening.leader_win_drm_reduced"))
    reduced = Mod(
        f"Won this half-day, reduced to {reduced_value} by choice", "1.6113", reduced_value
    )
    return {"full": full, "reduced": reduced, "ignore": None}


def _grade_order(ctx, nationality: str) -> list[str]:
    return [
        row.cells["leader"]
        for row in ctx.table(hardening_table_id(nationality)).rows
        if row.cells["leader"] != NONE
    ]


def _leaders(state: APState, side, leader_kind: str, nationality: str) -> list[dict]:
    kind = "armor_leader" if leader_kind == "armor" else "leader"
    default = common.nationality_of(side)
    return [
        u
        for u in retained(state, side)
        if u.get("kind") == kind and (u.get("nationality") or default) == nationality
    ]


def candidates(ctx, state: APState, side, pend: dict, leader_type: str) -> list[dict]:
    """Who hardens for a table result: the leaders of that type, else the lowest-grade non-wounded one(s)."""
    if leader_type == NONE:
        return []
    leaders = _leaders(state, side, pend["leader_kind"], pend["nationality"])
    of_type = [u for u in leaders if u.get("type") == leader_type]
    if of_type:
        return of_type
    order = _grade_order(ctx, pend["nationality"])
    fit = [u for u in leaders if u.get("status") != "wounded"]
    if not fit:
        return []
    rank = {u["id"]: (order.index(u["type"]) if u.get("type") in order else -1) for u in fit}
    lowest = max(rank.values())
    return [u for u in fit if rank[u["id"]] == lowest]


def _check_heroic(ctx, state: APState, side, entries) -> list[tuple[dict, str | None]]:
    heroic = [
        u
        for u in retained(state, side)
        if u.get("kind") in LEADER_KINDS and u.get("status") == "heroic"
    ]
    no_effect = str(ctx.value("battle_hardening.heroic_no_effect_type"))
    listed = {}
    for i, entry in enumerate(entries):
        unit = unit_by_id(state, side, entry["unit"], f"heroic[{i}].unit")
        if unit not in heroic:
            raise DomainError(f"heroic[{i}].unit", f"{unit['id']} is not a retained heroic leader.")
        if unit["id"] in listed:
            raise DomainError(f"heroic[{i}].unit", f"{unit['id']} is listed twice.")
        becomes = (entry.get("becomes") or "").strip()
        if unit.get("type") == no_effect:
            becomes = None  # loses his heroic status with no additional effect
        elif not becomes:
            raise DomainError(
                f"heroic[{i}].becomes", f"Enter what the heroic {unit['type']} battle hardens to."
            )
        listed[unit["id"]] = (unit, becomes)
    missing = [u["id"] for u in heroic if u["id"] not in listed]
    if missing:
        raise DomainError(
            "heroic", f"Every heroic leader battle hardens (1.6113): list {', '.join(missing)}."
        )
    return list(listed.values())


def _apply_heroic(state: APState, side, hardened) -> None:
    for unit, becomes in hardened:
        unit["status"] = "ok"
        if becomes:
            unit["note"] = f"battle hardened from heroic {unit['type']} (1.6113)"
            unit["type"] = becomes


def _check_promotion(ctx, state: APState, side, unit_id) -> tuple[dict, list[str]]:
    if not unit_id:
        raise DomainError("promote", "Name the leader to exchange (1.6114).")
    unit = unit_by_id(state, side, unit_id, "promote")
    key = f"promotion.{str(unit.get('type', '')).replace('-', '_')}_for"
    if unit.get("kind") != "leader" or key not in ctx.system.constants():
        raise DomainError(
            "promote", "Only an 8-0 or 8-1 infantry leader can be exchanged (1.6114)."
        )
    if unit.get("isolated") or unit.get("status") != "ok":
        raise DomainError("promote", "The leader must be non-isolated and unwounded (1.6114).")
    return unit, list(ctx.value(key))


def run_hardening(ctx, state: APState, side, data):
    action = data["action"]
    pend = pending_for(state, side, "1.6113")
    if action == "resolve":
        return _resolve(ctx, state, side, data, pend)
    if pend is not None:
        raise DomainError("action", "The battle hardening DR has been made: resolve it.")
    hardened = _check_heroic(ctx, state, side, data.get("heroic") or [])
    if action == "promote":
        unit, new_types = _check_promotion(ctx, state, side, data.get("promote"))
        _apply_heroic(state, side, hardened)
        eliminate(state, side, unit, "1.6114", "exchanged: promotion out of the ranks (1.6114)")
        for new_type in new_types:
            new_unit(
                state,
                side,
                kind="leader",
                type=new_type,
                nationality=unit.get("nationality"),
                note=f"promoted out of the ranks from {unit['type']} {unit['id']} (1.6114)",
            )
        return None
    nationality = data.get("nationality") or side_nationalities(side)[0]
    if nationality not in side_nationalities(side):
        raise DomainError("nationality", f"Choose one of: {', '.join(side_nationalities(side))}.")
    leader_kind = data.get("leader_kind") or "infantry"
    options = _win_options(ctx, state, side, nationality)
    first = next(iter(options.values()))
    report = roll_on(
        ctx,
        hardening_table_id(nationality),
        common.roll_key(state, "1.6113", side),
        mods(first),
        side=side,
        label=f"Leader battle hardening ({words.NATIONALITY_WORDS[nationality]} table, {leader_kind} leader)",
    )
    outcomes = {}
    for name, mod in options.items():
        final = report["original"] + (mod.value if mod else 0)
        outcomes[name] = {
            "final": final,
            "leader": ctx.table(hardening_table_id(nationality)).lookup(final).cells["leader"],
        }
    _apply_heroic(state, side, hardened)
    pend = {
        "nationality": nationality,
        "leader_kind": leader_kind,
        "original": report["original"],
        "dice": report["dice"],
        "outcomes": outcomes,
    }
    if all(not candidates(ctx, state, side, pend, o["leader"]) for o in outcomes.values()):
        report["effect"] = {"leader": outcomes[next(iter(outcomes))]["leader"], "hardened": None}
        common.record_roll(state, side, report, "1.6113")
        return None  # nobody can harden, whatever the choice
    set_pending(state, side, "1.6113", pend)
    decided = _given_with_roll(ctx, state, side, pend, data)
    if decided is not None:
        return _resolve(ctx, state, side, decided, pend)
    return PENDING


def _given_with_roll(ctx, state: APState, side, pend, data) -> dict | None:
    """The choice after the DR as the roll gave it (v6), when it settles the result."""
    if not common.choices_before_roll(state):
        return None  # before v6 a roll's other fields were not read
    outcomes = pend["outcomes"]
    choice = "none" if "none" in outcomes else data.get("win_drm")
    if choice not in outcomes:
        return None  # the win DRM is chosen after the DR
    who = candidates(ctx, state, side, pend, outcomes[choice]["leader"])
    orders = {
        entry["leader"]: (entry.get("becomes") or "").strip()
        for entry in data.get("if_hardened") or []
        if (entry.get("becomes") or "").strip()
    }
    if not who:
        return {"win_drm": choice, "leader": "", "becomes": ""}
    # Of several leaders of the type the DR names, the first the player listed hardens.
    named = sorted((u for u in who if u["id"] in orders), key=lambda u: list(orders).index(u["id"]))
    if named:
        return {"win_drm": choice, "leader": named[0]["id"], "becomes": orders[named[0]["id"]]}
    return None


def _resolve(ctx, state: APState, side, data, pend):
    if pend is None:
        raise DomainError("action", "Make the battle hardening DR first.")
    choice = data.get("win_drm") or ("none" if "none" in pend["outcomes"] else None)
    if choice not in pend["outcomes"]:
        raise DomainError("win_drm", f"Choose one of: {', '.join(pend['outcomes'])}.")
    leader_type = pend["outcomes"][choice]["leader"]
    who = candidates(ctx, state, side, pend, leader_type)
    leader_id = data.get("leader") or ""
    becomes = (data.get("becomes") or "").strip()
    unit = None
    if who:
        names = ", ".join(f"{u['type']} {u['id']}" for u in who)
        if leader_id not in [u["id"] for u in who]:
            raise DomainError("leader", f"The {leader_type} result hardens one of: {names}.")
        unit = next(u for u in who if u["id"] == leader_id)
        if not becomes:
            raise DomainError("becomes", f"Enter what the {unit['type']} battle hardens to.")
    elif leader_id:
        raise DomainError("leader", f"The {leader_type} result hardens no retained leader.")
    mod = _win_options(ctx, state, side, pend["nationality"])[choice]
    report = roll_on(
        ctx,
        hardening_table_id(pend["nationality"]),
        common.roll_key(state, "1.6113", side),
        mods(mod),
        side=side,
        label=f"Leader battle hardening ({words.NATIONALITY_WORDS[pend['nationality']]} table, "
        f"{pend['leader_kind']} leader)",
    )
    report["effect"] = {
        "win_drm": choice,
        "leader": leader_type,
        "hardened": unit["id"] if unit else None,
        "from": unit["type"] if unit else None,
        "to": becomes or None,
    }
    if unit is not None:
        unit["note"] = f"battle hardened from {unit['type']} (1.6113)"
        unit["type"] = becomes
    clear_pending(state, side, "1.6113")
    common.record_roll(state, side, report, "1.6113")
    return None


def upcoming_hardening(state: APState, side, ctx):
    pend = pending_for(state, side, "1.6113")
    if pend is not None:
        return []
    nationality = side_nationalities(side)[0]
    first = next(iter(_win_options(ctx, state, side, nationality).values()))
    return [
        upcoming_roll(
            state,
            side,
            "1.6113",
            f"Leader battle hardening ({words.NATIONALITY_WORDS[nationality]} table)",
            mods(first),
            "leader",
            table=hardening_table_id(nationality),
        )
    ]


PROMOTABLE = ("8-0", "8-1")  # 1.6114 a) and b)


def heroic_leaders(state: APState, side):
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in LEADER_KINDS and u.get("status") == "heroic"
    ]


def promotable_leaders(state: APState, side):
    return [
        u
        for u in retained(state, side)
        if u.get("kind") == "leader"
        and u.get("type") in PROMOTABLE
        and not u.get("isolated")
        and u.get("status") in (None, "ok")
    ]


def kinds_held(state: APState, side) -> list[str]:
    held = {u.get("kind") for u in retained(state, side)}
    return [
        k
        for k, unit_kind in (("infantry", "leader"), ("armor", "armor_leader"))
        if unit_kind in held
    ]


def nationalities_held(state: APState, side) -> list[str]:
    if side == "german":
        return ["german"]
    held = {
        u.get("nationality") or "french"
        for u in retained(state, side)
        if u.get("kind") in LEADER_KINDS
    }
    return [n for n in side_nationalities(side) if n in held] or ["french"]


def auto_hardening(state: APState, side):
    """The DR is made without asking when there is nothing to choose before it: no heroic leader,
    no leader to promote out of the ranks, one kind of leader and one nationality."""
    if pending_for(state, side, "1.6113") is not None:
        return None
    if heroic_leaders(state, side) or promotable_leaders(state, side):
        return None
    if common.choices_before_roll(state) and any(
        u.get("kind") in LEADER_KINDS for u in retained(state, side)
    ):
        return None  # what a leader becomes is given with the DR (v6)
    kinds, nationalities = kinds_held(state, side), nationalities_held(state, side)
    if len(kinds) > 1 or len(nationalities) > 1:
        return None
    return {
        "action": "roll",
        "leader_kind": (kinds or ["infantry"])[0],
        "nationality": nationalities[0],
    }


HEROIC = Field(
    "heroic",
    "list",
    required=False,
    default=[],
    item=Field(
        "entry",
        "object",
        fields=(
            Field("unit"),
            Field("becomes", required=False, default=""),
        ),
    ),
    help="Every retained heroic leader, with the leader type he battle hardens to (a 10-3 just loses his heroic status).",
)
