"""The leaders' steps of the Refit Phase, in their order: 1.610 wounded leaders (wounded_leaders.py)
and 1.6113 leader battle hardening or 1.6114 promotion out of the ranks (the rules in
leader_hardening.py, the form in leader_hardening_form.py)."""

from __future__ import annotations

from campaigns.game_interface import Field

from . import leader_hardening, leader_hardening_form, wounded_leaders
from .base import Step
from .leader_hardening import (
    candidates,  # the benchmark's player (benchmarks/apcg.py) reads it here
)

STEPS = [
    wounded_leaders.STEP,
    Step(
        "1.6113",
        "Leader battle hardening / promotion",
        "1.6113",
        run=leader_hardening.run_hardening,
        upcoming=leader_hardening.upcoming_hardening,
        auto=leader_hardening.auto_hardening,
        form=leader_hardening_form.form_hardening,
        short="Leader battle hardening",
        fields=(
            Field("action", "choice", choices=("roll", "promote", "resolve")),
            Field(
                "nationality",
                "choice",
                required=False,
                choices=("german", "french", "british"),
                help="Allied: which nationality's leader table, chosen before the DR.",
            ),
            Field(
                "leader_kind",
                "choice",
                required=False,
                default="infantry",
                choices=("infantry", "armor"),
            ),
            leader_hardening.HEROIC,
            Field(
                "promote",
                required=False,
                default="",
                help="1.6114: the 8-0 or 8-1 leader to exchange.",
            ),
            Field(
                "win_drm",
                "choice",
                required=False,
                choices=("full", "reduced", "ignore", "none"),
                help="After the DR, a side that won this half-day keeps, reduces or ignores the win DRM.",
            ),
            Field("leader", required=False, default="", help="The leader that battle hardens."),
            Field(
                "if_hardened",
                "list",
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(Field("leader"), Field("becomes", required=False, default="")),
                ),
                help="With the DR (v6): what each leader becomes should he be the one who hardens.",
            ),
            Field(
                "becomes", required=False, default="", help="The leader type he becomes (ASL A15)."
            ),
        ),
        help="Heroic leaders battle harden; then one secret DR (or a promotion out of the ranks, 1.6114).",
    ),
]

__all__ = ["STEPS", "candidates"]
