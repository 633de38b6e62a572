"""1.622 reconnaissance: pay 1 CPP (German) / 2 (Allied) for a secret recon dr, +3 for one more CPP,
+1 with air support on the previous half-day; or decline and keep the CPP. The final dr is the
number of Locations the opponent must reveal at 1.6245."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, plain_roll

from .. import common
from ..shapes import APState
from .base import Step
from .helpers import after_new_half_day, upcoming_roll

DICE = "1d6"


def _cost(ctx, side: str, extra: bool) -> int:
    return int(ctx.value(f"recon.cost.{side}")) + (
        int(ctx.value("recon.extra_cpp_cost")) if extra else 0
    )


def _air_support_previous(state: APState, side) -> bool:
    line = common.previous_line(state)
    return bool(line and (line.get("air_support") or {}).get(side))


def recon_mods(ctx, state: APState, side, extra: bool) -> list[Mod]:
    out = []
    if extra:
        out.append(Mod("Extra CPP spent", "1.622", int(ctx.value("recon.extra_cpp_drm"))))
    if _air_support_previous(state, side):
        out.append(
            Mod(
                "Air support on the previous half-day",
                "1.622",
                int(ctx.value("recon.air_support_drm")),
            )
        )
    return out


def run(ctx, state: APState, side, data):
    private = common.private(state, side)
    if not data["conduct"]:
        if data.get("extra_cpp"):
            raise DomainError("extra_cpp", "An extra CPP only modifies a recon dr that is made.")
        private["recon"] = {
            "locations": 0,
            "declined": True,
            "cpp_spent": 0,
            "half_day": common.half_day(state),
        }
        return None
    extra = bool(data.get("extra_cpp"))
    cost = _cost(ctx, side, extra)
    if private["cpp"] < cost:
        raise DomainError("conduct", f"Recon costs {cost} CPP (1.622); you have {private['cpp']}.")
    report = plain_roll(
        ctx,
        common.roll_key(state, "1.622", side),
        DICE,
        recon_mods(ctx, state, side, extra),
        side=side,
        label="Recon",
        rule="1.622",
    )
    locations = report["final"]
    private["cpp"] -= cost
    private["recon"] = {
        "locations": locations,
        "declined": False,
        "cpp_spent": cost,
        "half_day": common.half_day(state),
    }
    report["effect"] = {"locations": locations, "cpp_spent": cost}
    common.record_roll(state, side, report, "1.622")
    return None


def upcoming_rolls(state: APState, side, ctx):
    return [
        upcoming_roll(
            state,
            side,
            "1.622",
            "Recon (Locations)",
            recon_mods(ctx, state, side, False),
            table=f"dice:{DICE}",
        )
    ]


def form(ctx, view: APState, side):
    cost = _cost(ctx, side, False)
    extra = int(ctx.value("recon.extra_cpp_cost"))
    cpp = common.private(view, side)["cpp"]
    air = " (+1: air support on the previous half-day)" if _air_support_previous(view, side) else ""
    return (
        Field(
            "conduct",
            "bool",
            required=False,
            default=False,
            label=f"Make a recon dr for {cost} CPP (you have {cpp}){air}",
            help="Declining keeps the CPP for the next half-day (1.622).",
        ),
        Field(
            "extra_cpp",
            "bool",
            required=False,
            default=False,
            label=f"Spend {extra} more CPP for +{int(ctx.value('recon.extra_cpp_drm'))}",
        ),
    )


STEPS = [
    Step(
        "1.622",
        "Reconnaissance",
        "1.622",
        run=run,
        upcoming=after_new_half_day(upcoming_rolls),
        initial=True,
        form=form,
        short="Recon",
        fields=(
            Field(
                "conduct", "bool", help="Spend the recon CPP (1 German, 2 Allied) for a recon dr."
            ),
            Field("extra_cpp", "bool", required=False, default=False, help="One more CPP for +3."),
        ),
        help="The final dr is the number of Locations the opponent reveals after set up (1.6245).",
    ),
]
