"""1.6142 AFV platoon withdrawal: a secret dr for each platoon that had an AFV on the map; an isolated
mobile AFV of a withdrawn platoon waits for 1.6143."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, roll_on

from .. import common
from ..shapes import APState
from .base import Step
from .equipment_kinds import (
    AFV_KINDS,
    check_items,
    count_after_victory,
)
from .helpers import (
    after_new_half_day,
    eliminate,
    is_immobilized,
    ratio,
    retained,
    table_mod,
    upcoming_roll,
)

# R-B20: from A!P! v2 (the end-of-scenario record, which says which platoons were on the map) every
# such platoon rolls, listed or not. A v1 player listed the platoons he said had been on the map and
# only those rolled: v1 events keep that rule (ctx.journal_version).
RECORDED_PLATOONS_ROLL_SINCE = 2
# R-A23: from A!P! v3 (707737a) a captured AFV rolls as a platoon portion of its own; v1 and v2 events
# rolled for platoons only.
CAPTURED_AFVS_ROLL_SINCE = 3


def withdrawal_mods(ctx, state: APState, side: str) -> list:
    if len(common.completed(state)) < int(ctx.value("afv_withdrawal.min_half_days_completed")):
        return []
    won, lost = common.win_loss(state, side)
    a, b = ratio(ctx.value("afv_withdrawal.losing_record_ratio"))
    if lost and won * b <= lost * a:  # win:loss ≤ 1:2 (no ratio without a loss)
        return [table_mod(ctx, "1.6142", "losing_record", label=f"Win:loss {won}:{lost} ≤ {a}:{b}")]
    return []


def _platoon(state: APState, side, platoon) -> list[dict]:
    """The units of a platoon; a captured AFV (no platoon of its own) is a portion by itself."""
    return [
        u
        for u in retained(state, side)
        if u.get("platoon") == platoon
        or (u["id"] == platoon and u.get("captured") and not u.get("platoon"))
    ]


def _captured_afvs(state: APState, side) -> list[str]:
    """1.6142 "(including captured)": a captured AFV was on the map where it was captured."""
    return [
        u["id"]
        for u in retained(state, side)
        if u.get("kind") in AFV_KINDS
        and u.get("captured")
        and not u.get("platoon")
        and not u.get("isolated")
    ]


def _with_afv(state: APState, side, platoon) -> bool:
    return any(
        u.get("kind") in AFV_KINDS and not u.get("isolated") for u in _platoon(state, side, platoon)
    )


def qualifying_platoons(state: APState, side) -> list[str]:
    """1.6142: each non-isolated retained AFV platoon "that has had at least one AFV of it's platoon on
    the map in at least one CG scenario" (the side's end-of-scenario records say which were)."""
    on_map = common.private(state, side).get("platoons_on_map", [])
    captured = _captured_afvs(state, side) if common.since(state, CAPTURED_AFVS_ROLL_SINCE) else []
    return [p for p in on_map if _with_afv(state, side, p)] + captured


def run_withdrawal(ctx, state: APState, side, data):
    given = data.get("platoons") or []
    check_items([{"unit": p} for p in given], "platoons")
    for i, platoon in enumerate(given):
        if not _with_afv(state, side, platoon):
            raise DomainError(f"platoons[{i}]", f"{platoon} has no non-isolated retained AFV.")
    # The rolls are mandatory: the platoons recorded on the map roll whether listed or not (v1: the
    # listed ones only).
    recorded = (
        qualifying_platoons(state, side)
        if ctx.journal_version >= RECORDED_PLATOONS_ROLL_SINCE
        else []
    )
    platoons = list(dict.fromkeys([*recorded, *given]))
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
            count_after_victory(ctx, state, side, gone)
            gone = [u["id"] for u in gone]
        report["effect"] = {
            "platoon": platoon,
            "outcome": report["result"]["effect"],
            "eliminated": gone,
            "isolated_1_6143": stays,
        }
        common.record_roll(state, side, report, "1.6142")


def upcoming_withdrawal(state: APState, side, ctx):
    platoons = qualifying_platoons(state, side)
    return [
        upcoming_roll(
            state,
            side,
            "1.6142",
            f"AFV platoon withdrawal ({p})",
            withdrawal_mods(ctx, state, side),
            "effect",
            subject=p,
        )
        for p in platoons
    ]


def _applies_withdrawal(state: APState, side):
    return bool(qualifying_platoons(state, side))


STEP = Step(
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
)
