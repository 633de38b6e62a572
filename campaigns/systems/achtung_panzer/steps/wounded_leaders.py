"""1.610 wounded leaders: a dr for each wounded leader (+1 if isolated): unwounded, still wounded
or eliminated."""

from __future__ import annotations

from campaigns.game_interface import roll_on

from .. import common
from ..shapes import APState
from .base import Step
from .helpers import (
    LEADER_KINDS,
    eliminate,
    mods,
    retained,
    table_mod,
    upcoming_roll,
)


def _wounded(state: APState, side):
    return [
        u
        for u in retained(state, side)
        if u.get("kind") in LEADER_KINDS and u.get("status") == "wounded"
    ]


def applies_wounded(state: APState, side):
    return bool(_wounded(state, side))


def wounded_mods(ctx, leader: dict) -> list:
    return mods(table_mod(ctx, "1.610", "isolated") if leader.get("isolated") else None)


def run_wounded(ctx, state: APState, side, data):
    results = []
    for leader in _wounded(state, side):
        report = roll_on(
            ctx,
            "1.610",
            common.roll_key(state, "1.610", side, leader["id"]),
            wounded_mods(ctx, leader),
            side=side,
            label=f"Wounded leader {leader['type']} ({leader['id']})",
        )
        effect = report["result"]["effect"]
        report["effect"] = {"unit": leader["id"], "outcome": effect}
        results.append((leader, effect, report))
    for leader, effect, report in results:
        if effect == "retained_unwounded":
            leader["status"] = "ok"
        elif effect == "eliminated":
            eliminate(state, side, leader, "1.610", "wounded leader eliminated (1.610)")
        common.record_roll(state, side, report, "1.610")


def upcoming_wounded(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.610",
            f"Wounded leader {u['type']} ({u['id']})",
            wounded_mods(ctx, u),
            "effect",
            subject=u["id"],
        )
        for u in _wounded(state, side)
    ]


STEP = Step(
    "1.610",
    "Wounded leaders",
    "1.610",
    run=run_wounded,
    applies=applies_wounded,
    upcoming=upcoming_wounded,
    short="Wounded leaders",
    help="A dr for each wounded leader (+1 if isolated): 1 unwounded, 2 still wounded, ≥3 eliminated.",
)
