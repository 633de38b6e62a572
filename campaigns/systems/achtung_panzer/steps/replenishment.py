"""1.616 CPP replenishment, 1.617 ELR loss/gain, 1.618 weather and EC.

These run after 1.6121, so the current half-day is the new one and "previous half-day"
is the last completed roster line (common.previous_line).
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, roll_on

from .. import common, elr
from ..shapes import APState, RosterLine
from .base import DONE, PENDING, Step
from .helpers import after_new_half_day, mods, table_mod, upcoming_roll

# ASL B25.5 Environmental Conditions: 1.618 prints no EC table, so the players roll the EC
# dr at the table with their ASL rules and enter the result (docs/rules-notes.md).
EC_CHOICES = ("Very Dry", "Dry", "Moderate", "Moist", "Wet", "Very Wet")


# --- 1.616 CPP replenishment ----------------------------------------------------------


def cpp_mods(ctx, state: APState, side: str) -> list:
    cvp = common.cvp_sustained_previous(
        state, side, include_refit=True
    )  # 1.6067: RePh CVP count here
    per = int(ctx.value("cpp.cvp_per_drm"))
    return mods(
        table_mod(ctx, "1.616", "won_previous") if common.won_previous(state, side) else None,
        common.historical_mod(ctx, state, side),
        table_mod(
            ctx,
            "1.616",
            "per_30_cvp_sustained",
            times=cvp // per,
            label=f"Per {per} CVP sustained previous half-day ({cvp} CVP)",
        ),
        common.balance_mod(ctx, state, side),
    )


def run_cpp(ctx, state: APState, side, data):
    private = common.private(state, side)

    def replenish(result: dict) -> dict:
        gained = int(result["cpp"])
        before = private["cpp"]
        private["cpp"] += gained
        return {"cpp_before": before, "cpp_gained": gained, "cpp_after": before + gained}

    _secret_roll(
        ctx, state, side, "1.616", "CPP replenishment", cpp_mods(ctx, state, side), replenish
    )


def _secret_roll(ctx, state: APState, side, step_id: str, label: str, mod_list, apply) -> None:
    """The side's secret DR of 1.616 or 1.617: `apply` changes the side's value by the table's
    result and returns what the report records of the change."""
    report = roll_on(
        ctx, step_id, common.roll_key(state, step_id, side), mod_list, side=side, label=label
    )
    report["effect"] = apply(report["result"])
    common.record_roll(state, side, report, step_id)


def upcoming_cpp(state: APState, side, ctx):
    return [
        upcoming_roll(state, side, "1.616", "CPP replenishment", cpp_mods(ctx, state, side), "cpp")
    ]


# --- 1.617 ELR loss/gain --------------------------------------------------------------


def _rg_ids(ctx, suffix: str, nationality: str) -> set:
    """RG IDs of a company type, from the 1.6202 rows ("german:elite" -> rg I2)."""
    table = ctx.table("1.6202")
    return {row.cells.get("rg") for row in table.rows if row.label == f"{nationality}:{suffix}"}


def _rg_kind(ctx, nationality: str, rg: str | None) -> str | None:
    table_id = f"1.619.{nationality}"
    if not rg or table_id not in ctx.system.tables:
        return None
    try:
        return ctx.table(table_id).value(rg, "kind")
    except KeyError:
        return None


def previous_purchases(state: APState, side: str) -> list[dict]:
    """RGs bought (not given in an initial OB: docs/rules-notes.md) on the previous half-day."""
    line = common.previous_line(state)
    if not line:
        return []
    return [
        p
        for p in common.private(state, side).get("purchases", [])
        if p.get("half_day") == line["half_day"] and not p.get("given")
    ]


def attack_chit_previous(state: APState, side: str) -> bool:
    line = common.previous_line(state)
    if not line:
        return False
    # 1.625 copies the revealed chits into the roster line; the Initial Scenario's free chit counts
    return bool((line.get("attack_chits") or {}).get(side))


def elr_mods(ctx, state: APState, side: str) -> list:
    elite = first_line = afv = 0
    for purchase in previous_purchases(state, side):
        nationality = purchase.get("nationality") or common.nationality_of(side)
        if purchase.get("rg") in _rg_ids(ctx, "elite", nationality):
            elite += 1
        elif purchase.get("rg") in _rg_ids(ctx, "first_line", nationality):
            first_line += 1
        elif (
            _rg_kind(ctx, nationality, purchase.get("rg")) == "armor"
            or purchase.get("kind") == "armor"
        ):
            afv += 1
    cvp = common.cvp_sustained_previous(state, side, include_refit=False)  # 1.6067
    per = int(ctx.value("elr.cvp_per_drm"))
    return mods(
        table_mod(ctx, "1.617", "won_previous") if common.won_previous(state, side) else None,
        table_mod(ctx, "1.617", "elite_company_purchased", times=elite),
        table_mod(
            ctx,
            "1.617",
            "per_first_line_company_or_afv_platoon",
            times=first_line + afv,
            label=f"First-line companies ({first_line}) / AFV platoons ({afv}) purchased on the previous half-day",
        ),
        table_mod(ctx, "1.617", "attack_chit_previous")
        if attack_chit_previous(state, side)
        else None,
        table_mod(
            ctx,
            "1.617",
            "per_30_cvp_sustained",
            times=cvp // per,
            label=f"Per {per} CVP sustained on the previous CG scenario ({cvp} CVP)",
        ),
        common.historical_mod(ctx, state, side),
    )


def run_elr(ctx, state: APState, side, data):
    private = common.private(state, side)

    def move(result: dict) -> dict:
        before = private["elr"]
        private["elr"] = elr.after_roll(ctx, side, before, int(result["elr_change"]))
        return {"elr_before": before, "elr_after": private["elr"]}

    _secret_roll(ctx, state, side, "1.617", "ELR loss/gain", elr_mods(ctx, state, side), move)


def upcoming_elr(state: APState, side, ctx):
    return [
        upcoming_roll(
            state, side, "1.617", "ELR loss/gain", elr_mods(ctx, state, side), "elr_change"
        )
    ]


# --- 1.618 weather and EC -------------------------------------------------------------


def _current_line(state: APState) -> RosterLine | None:
    for line in common.public(state)["roster"]:
        if line.get("half_day") == common.half_day(state):
            return line
    return None


def run_weather(ctx, state: APState, side, data):
    """1.618: the weather DR "then" the EC dr: the weather is rolled first (with nothing to decide,
    it is rolled on its own), the EC rolled at the table is entered once the weather is known.
    Both in one event (the EC given with it) is accepted too."""
    public = common.public(state)
    line = _current_line(state)
    ec = data.get("ec")
    if public.get("weather") is not None:
        if not ec:
            raise DomainError("ec", "Enter the EC rolled at the table.")
    else:
        report = roll_on(
            ctx, "1.618", common.roll_key(state, "1.618", "allied"), (), side="", label="Weather"
        )
        weather = report["result"]["weather"]
        report["effect"] = {"weather": weather, "ec": ec}
        public["weather"] = weather
        if line is not None:
            line["weather"] = weather
        common.record_public_roll(state, report, "1.618")
        if not ec:
            return PENDING  # the EC is asked for now that the weather is known
    public["ec"] = ec
    if line is not None:
        line["ec"] = ec
    return DONE


def _weather_not_rolled(state: APState, side):
    return {} if common.public(state).get("weather") is None else None


def form_weather(ctx, view: APState, side):
    weather = common.public(view).get("weather")
    if weather is None:
        return None
    return (
        Field(
            "ec",
            "choice",
            label="Environmental Conditions",
            choices=EC_CHOICES,
            widget="radios",
            help=f"Weather: {weather} (1.618). Roll the EC dr at the table and enter the result.",
        ),
    )


def upcoming_weather(state: APState, side, ctx):
    if side != "allied" or common.public(state).get("weather") is not None:
        return []  # the German does not roll; once rolled it is no longer to come
    return [upcoming_roll(state, "allied", "1.618", "Weather", [], "weather")]


STEPS = [
    # One DR each, due whatever the dice before them show: asked with theirs (entered dice).
    Step(
        "1.616",
        "CPP replenishment",
        "1.616",
        run=run_cpp,
        upcoming=after_new_half_day(upcoming_cpp),
        independent_dice=True,
        help="Secret DR: won previous half-day +1, historical DRM, -1 per 30 CVP sustained, balance 1.32.",
    ),
    Step(
        "1.617",
        "ELR loss/gain",
        "1.617",
        run=run_elr,
        upcoming=after_new_half_day(upcoming_elr),
        independent_dice=True,
        help="Secret DR: ≤2 raises the ELR by one, ≥13 lowers it by one.",
    ),
    Step(
        "1.618",
        "Weather and EC",
        "1.618",
        scope="allied",
        audience="public",
        run=run_weather,
        upcoming=after_new_half_day(upcoming_weather),
        auto=_weather_not_rolled,
        form=form_weather,
        short="Weather and EC",
        independent_dice=True,
        fields=(
            Field(
                "ec",
                "choice",
                label="Environmental Conditions",
                choices=EC_CHOICES,
                widget="radios",
                required=False,
                help="1.618 prints no EC table: roll the EC dr at the table and enter the result.",
            ),
        ),
        help="The weather DR is rolled (public); then the Allied player enters the EC rolled at the table.",
    ),
]
