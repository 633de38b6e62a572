"""1.6122 SAN adjustment: a dr for a SAN ≥ 4, a SAN of zero raised to 2.

The side's SAN is private until 1.625 announces it, so the dr is kept with the side's rolls.
"""

from __future__ import annotations

from campaigns.game_interface import Mod, roll_on

from .. import common
from ..shapes import APState
from .base import Step
from .helpers import after_new_half_day, upcoming_roll


def _must_roll(ctx, san: int) -> bool:
    return san >= int(ctx.value("san.adjust_min"))


def san_mods(ctx, state: APState, side: str) -> list[Mod]:
    san = common.private(state, side)["san"]
    base = int(ctx.value("san.adjust_drm_base"))
    label = next(m["label"] for m in ctx.table("1.6122").modifiers if m["key"] == "san_minus_4")
    return [Mod(f"{label} (SAN {san})", "1.6122", san - base)]


def run(ctx, state: APState, side, data):
    private = common.private(state, side)
    san = private["san"]
    if _must_roll(ctx, san):
        report = roll_on(
            ctx,
            "1.6122",
            common.roll_key(state, "1.6122", side),
            san_mods(ctx, state, side),
            side=side,
            label="SAN adjustment",
        )
        private["san"] = san + int(report["result"]["san_change"])
        report["effect"] = {"san_before": san, "san_after": private["san"]}
        common.record_roll(state, side, report, "1.6122")
    elif san == 0:
        private["san"] = int(ctx.value("san.zero_raised_to"))


def applies(state: APState, side):
    return True  # the sequencer shows the step; run() does nothing for a SAN of 1-3


def upcoming_rolls(state: APState, side, ctx):
    if not _must_roll(ctx, common.private(state, side)["san"]):
        return []
    return [
        upcoming_roll(
            state, side, "1.6122", "SAN adjustment", san_mods(ctx, state, side), "san_change"
        )
    ]


STEPS = [
    Step(
        "1.6122",
        "SAN adjustment",
        "1.6122",
        run=run,
        applies=applies,
        upcoming=after_new_half_day(upcoming_rolls),
        help="A SAN ≥4 rolls a dr +(SAN−4): ≥5 lowers it by one. A SAN of 0 becomes 2.",
    ),
]
