"""1.6112 heroes and MMC battle hardening.

Two events of its kind:
1. ``{"action": "roll"}`` — each retained hero (not a heroic leader, 1.6113) is eliminated and
   lets one MMC battle harden; the secret DR gives how many retained infantry MMC may harden.
2. ``{"action": "harden", "hardened": [{"unit", "becomes", "fanatic"}]}`` — the player names the
   MMC (at most the DR's number plus one per hero) and what each becomes (ASL A15: entered).

From journal version 6 (R-A26) the roll may carry the choice: ``hardened`` on the roll lists the
MMC the player would harden, in the order he wants them (``priority``, then as listed); the DR's
number (plus one per hero) of them harden at once, and the second event is not needed. A roll
with none listed still waits for the choice after the DR.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, roll_on

from .. import common, words
from ..shapes import APState
from .base import PENDING, Step
from .helpers import (
    UNIT_KINDS_INFANTRY_MMC,
    clear_pending,
    eliminate,
    hidden,
    is_elite,
    mods,
    pending_for,
    retained,
    set_pending,
    table_mod,
    this_line,
    unit_by_id,
    upcoming_roll,
    won_this_half_day,
)


def hardening_mods(ctx, state: APState, side: str) -> list:
    line = this_line(state)  # before 1.6121: the half-day just played
    amassed = line["cvp"][common.other(side)] if line else 0  # 1.6067: RePh CVP do not count
    per = int(ctx.value("battle_hardening.cvp_per_drm"))
    return mods(
        table_mod(ctx, "1.6112", "won_this_half_day") if won_this_half_day(state, side) else None,
        table_mod(ctx, "1.6112", "german") if side == "german" else None,
        table_mod(
            ctx,
            "1.6112",
            "per_20_cvp_amassed",
            times=amassed // per,
            label=f"Per {per} CVP amassed in the previous scenario ({amassed} CVP)",
        ),
    )


def run(ctx, state: APState, side, data):
    pend = pending_for(state, side, "1.6112")
    if data["action"] == "harden":
        return _harden(state, side, data.get("hardened") or [], pend)
    if pend is not None:
        raise DomainError("action", "The MMC battle hardening DR has been made: name the MMC.")
    orders = []
    if data.get("hardened") and common.choices_before_roll(state):  # before v6 they were not read
        orders = _ordered(state, side, data["hardened"])  # checked before the DR is made
    heroes = [u for u in retained(state, side) if u.get("kind") == "hero"]
    report = roll_on(
        ctx,
        "1.6112",
        common.roll_key(state, "1.6112", side),
        hardening_mods(ctx, state, side),
        side=side,
        label="MMC battle hardening",
    )
    count = int(report["result"]["mmc"])
    for hero in heroes:
        eliminate(state, side, hero, "1.6112", "hero eliminated to battle harden one MMC (1.6112)")
    report["effect"] = {"mmc": count, "heroes": [h["id"] for h in heroes]}
    common.record_roll(state, side, report, "1.6112")
    if count + len(heroes) == 0:
        return None
    pend = {"mmc": count, "heroes": len(heroes)}
    if orders:  # the choice given with the roll (v6): the first of them, as many as allowed
        _apply(state, side, orders[: count + len(heroes)])
        return None
    set_pending(state, side, "1.6112", pend)
    return PENDING


def _ordered(state: APState, side, entries) -> list[tuple[dict, str, bool]]:
    """The MMC listed with the roll, best first (by `priority`, then as listed), checked."""
    ranked = sorted(
        enumerate(entries),
        key=lambda pair: (pair[1].get("priority") or len(entries) + 1, pair[0]),
    )
    return _plan(state, side, [entry for _, entry in ranked])


def _harden(state: APState, side, entries, pend):
    if pend is None:
        raise DomainError("action", "Make the MMC battle hardening DR first.")
    allowed = pend["mmc"] + pend["heroes"]
    if len(entries) > allowed:
        raise DomainError(
            "hardened",
            f"At most {allowed} MMC may battle harden ({pend['mmc']} by the DR, "
            f"{pend['heroes']} by heroes).",
        )
    _apply(state, side, _plan(state, side, entries))
    clear_pending(state, side, "1.6112")
    return None


def _plan(state: APState, side, entries) -> list[tuple[dict, str, bool]]:
    seen = set()
    plan = []
    for i, entry in enumerate(entries):
        unit = unit_by_id(state, side, entry["unit"], f"hardened[{i}].unit")
        if unit.get("kind") not in UNIT_KINDS_INFANTRY_MMC or unit.get("vehicular"):
            raise DomainError(
                f"hardened[{i}].unit", f"{unit['id']} is not a retained infantry MMC."
            )
        if unit["id"] in seen:
            raise DomainError(
                f"hardened[{i}].unit", "No MMC may battle harden more than once per RePh."
            )
        seen.add(unit["id"])
        if not common.elite_becomes_fanatic(state):  # v1: the player said which became fanatic
            becomes = entry["becomes"].strip()
            if not becomes:
                raise DomainError(
                    f"hardened[{i}].becomes", f"Enter what the {unit['type']} becomes."
                )
            plan.append((unit, becomes, bool(entry.get("fanatic"))))
            continue
        # "In all cases, an elite MMC that battle hardens becomes fanatic" (1.6112): not a choice.
        elite = is_elite(state, side, unit)
        if entry.get("fanatic") and not elite:
            raise DomainError(
                f"hardened[{i}].fanatic",
                f"Only an elite MMC becomes fanatic; {unit['id']} is not elite.",
            )
        becomes = (entry.get("becomes") or "").strip() or (unit["type"] if elite else "")
        if not becomes:
            raise DomainError(f"hardened[{i}].becomes", f"Enter what the {unit['type']} becomes.")
        plan.append((unit, becomes, elite))
    return plan


def _apply(state: APState, side, plan) -> None:
    for unit, becomes, fanatic in plan:
        unit["note"] = f"battle hardened from {unit['type']} (1.6112)"
        unit["type"] = becomes
        if fanatic:
            unit["fanatic"] = True  # an elite MMC: fanatic for the next scenario only (1.602e)
    log = common.private(state, side)["rolls"]
    for report in reversed(log):
        if report.get("step") == "1.6112" and report.get("half_day") == common.half_day(state):
            report["effect"]["hardened"] = [
                {"unit": u["id"], "to": b, "fanatic": f} for u, b, f in plan
            ]
            break


def upcoming_rolls(state: APState, side, ctx):
    if pending_for(state, side, "1.6112") is not None:
        return []
    return [
        upcoming_roll(
            state, side, "1.6112", "MMC battle hardening", hardening_mods(ctx, state, side), "mmc"
        )
    ]


def candidates(state: APState, side) -> list[dict]:
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in UNIT_KINDS_INFANTRY_MMC and not u.get("vehicular")
    ]


def auto(state: APState, side):
    """Before v6 the DR needed no decision (naming the MMC afterwards did); since, the MMC may be
    named with it, so the DR waits for the side when it has MMC to harden."""
    if pending_for(state, side, "1.6112") is not None:
        return None
    if common.choices_before_roll(state) and candidates(state, side):
        return None
    return {"action": "roll"}


def _rows(view: APState, side) -> list[dict]:
    rows = []
    for unit in candidates(view, side):
        elite = is_elite(view, side, unit)
        note = " — elite: becomes fanatic for the next scenario" if elite else ""
        rows.append(
            {
                "unit": unit["id"],
                "_label": words.unit_label(unit, words.names_for(view, side)) + note,
            }
        )
    return rows


_BECOMES = Field(
    "becomes",
    required=False,
    default="",
    max_length=20,
    label="Becomes",
    help="The unit type after battle hardening (ASL A15), e.g. 548; an elite one keeps its type.",
)


def form(ctx, view: APState, side):
    pend = pending_for(view, side, "1.6112")
    if pend is None:
        return _roll_form(ctx, view, side)
    allowed = pend["mmc"] + pend["heroes"]
    rows = _rows(view, side)
    why = f"{pend['mmc']} by the DR" + (
        f" + {pend['heroes']} for the heroes eliminated" if pend["heroes"] else ""
    )
    return (
        hidden("action", "harden"),
        Field(
            "hardened",
            "list",
            label="MMC that battle harden",
            required=False,
            default=[],
            max=allowed,
            key="unit",
            widget="pick",
            rows=tuple(rows),
            item=Field(
                "entry",
                "object",
                fields=(
                    Field("unit", labels=tuple((r["unit"], r["_label"]) for r in rows)),
                    _BECOMES,
                ),
            ),
            help=f"Tick up to {allowed} MMC ({why}); none may harden twice.",
        ),
    )


def _roll_form(ctx, view: APState, side):
    """The DR with the MMC named before it (v6, R-A26): the DR says how many of them harden."""
    rows = _rows(view, side)
    if not rows or not common.choices_before_roll(view):
        return (hidden("action", "roll"),)
    return (
        hidden("action", "roll"),
        Field(
            "hardened",
            "list",
            label="MMC to battle harden, if the DR allows",
            required=False,
            default=[],
            key="unit",
            widget="pick",
            rows=tuple(rows),
            item=Field(
                "entry",
                "object",
                fields=(
                    Field("unit", labels=tuple((r["unit"], r["_label"]) for r in rows)),
                    _BECOMES,
                    Field(
                        "priority",
                        "int",
                        required=False,
                        default=None,
                        min=1,
                        max=99,
                        label="Order (1 first)",
                        help="When the DR allows fewer than you tick, the first in this order harden.",
                    ),
                ),
            ),
            help="The DR gives how many retained infantry MMC may battle harden (one more per hero "
            "eliminated): tick them now, with what each becomes, and they harden as soon as the DR "
            "is made; tick none to choose after the DR.",
        ),
    )


STEPS = [
    Step(
        "1.6112",
        "Heroes and MMC battle hardening",
        "1.6112",
        run=run,
        upcoming=upcoming_rolls,
        auto=auto,
        form=form,
        short="MMC battle hardening",
        fields=(
            Field("action", "choice", choices=("roll", "harden")),
            Field(
                "hardened",
                "list",
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("unit"),
                        Field("becomes", required=False, default=""),
                        Field("fanatic", "bool", required=False, default=False),
                        Field("priority", "int", required=False, default=None, min=1, max=99),
                    ),
                ),
                help="The MMC that battle harden and what each becomes (an elite MMC becomes "
                "fanatic); with the roll (v6), those the player would harden, best first.",
            ),
        ),
        help="Heroes are eliminated (one MMC each); a DR gives how many more MMC may battle harden.",
    ),
]
