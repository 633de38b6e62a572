"""The Refit Phase steps of the system itself: the map actions players only confirm
(checklists), the end of the scenario (1.600), the losses before victory, and the system steps
applied here (1.6067 victory, 1.6121 new half-day, 1.625 commencement). The table steps live in
the step modules (steps/); refit_steps puts both in rulebook order.
"""

from __future__ import annotations

from campaigns.game_interface import advance, finish, roll_on

from . import aftermath, common, halfday, retained
from .common import (
    SIDES,
    core_state,
    current_index,
    private,
    public,
    record_public_roll,
    roll_key,
)
from .refit_losses import LOSS_FIELDS, losses_form, record_losses, rolled_1616
from .shapes import APState
from .steps.base import Step


def _victory(ctx, state: APState, side, data):
    line = halfday.determine_victory(state, ctx)
    for s in SIDES:
        aftermath.oba_retention(state, s, line)
    pub = public(state)
    won = halfday.cg_victory(state, ctx)
    if won:
        pub["phase"] = "finished"
        finish(core_state(state), won[0], won[1])
    elif state["current"] == len(state["scenarios"]) - 1:
        pub["phase"] = "finished"
        advance(core_state(state), ctx)  # past the last half-day: on_calendar_end decides


def _new_half_day(ctx, state: APState, side, data):
    """1.6121: the new CG half-day begins (the core's next scenario)."""
    advance(core_state(state), ctx)
    pub = public(state)
    pub["half_day"] = state["scenarios"][current_index(state)]["label"]
    pub["initial"] = False
    pub.update(
        {
            "weather": None,
            "ec": None,
            "wind": None,
            "special_half_day": None,
            "scenario_type": None,
            "sets_up_first": None,
            "moves_first": None,
            "attack_chits": {s: None for s in SIDES},
        }
    )
    for s in SIDES:
        private(state, s)["attack_chit"] = None


def _commencement(ctx, state: APState, side, data):
    """1.625: ELR and SAN are announced; the half-day is played."""
    pub = public(state)
    for s in SIDES:
        pub["elr"][s] = dict(private(state, s)["elr"])  # every nationality the side fields (CG14)
        pub["san"][s] = private(state, s)["san"]
    pub["roster"][current_index(state)]["elr"] = dict(
        pub["elr"]
    )  # the CG Roster keeps what was announced
    if pub.get("special_half_day") == "armor":
        # CG13: the French SAN is 2 for an Armor half-day only; the kept SAN returns afterwards.
        pub["san"]["allied"] = int(ctx.value("san.french_armor_half_day"))
    if pub["scenario_type"] in ("dual", "dual_attack") and not pub.get("moves_first"):
        # The Dual Attack move dr of 1.6231 and 1.625 is one roll (rules-notes).
        report = roll_on(
            ctx,
            "1.6231.dual_dr",
            roll_key(state, "1.625", "public"),
            label="Dual Attack: moves first",
        )
        record_public_roll(state, report, "1.625")
        pub["moves_first"] = report["result"]["side"]
    line = pub["roster"][current_index(state)]
    line.update(
        {
            "type": pub["scenario_type"],
            "weather": pub["weather"],
            "ec": pub["ec"],
            "sets_up_first": pub["sets_up_first"],
            "moves_first": pub["moves_first"],
            "attack_chits": dict(pub["attack_chits"] or {}),
        }
    )
    pub["phase"] = "play"


def _check(id_, label, rule, scope="side", help_="", confirm=None, short=""):
    audience = "public" if scope == "joint" else "side"
    return Step(
        id_,
        label,
        rule,
        scope=scope,
        checklist=True,
        help=help_,
        audience=audience,
        confirm=confirm,
        short=short,
    )


def _disrupted_french(ctx, state: APState, side):
    """1.603: "Disrupted French infantry are immediately eliminated" (marked at the end of the scenario)."""
    for s in SIDES:
        units = [u for u in private(state, s)["retained"] if u.get("disrupted")]
        aftermath.eliminate_by_rule(
            state, s, units, "1.603", "disrupted French infantry eliminated (1.603)", ctx
        )


RECALL_ELIMINATES_SINCE = 2  # A!P! v2 (a787fca): confirming 1.6141 eliminates (R-A18)


def _recall(ctx, state: APState, side):
    """1.6141: "Each Mobile, non-isolated retained AFV under recall is eliminated." Their CVP count for
    1.616 (after 1.6067) when the club's CVP list covers them (R-A18). A v1 journal's 1.6141
    eliminated nothing itself: its player removed such an AFV with ap.retained."""
    if not common.since(state, RECALL_ELIMINATES_SINCE):
        return
    gone = []
    for unit in list(private(state, side)["retained"]):
        if (
            unit.get("kind") in aftermath.AFV
            and unit.get("status") == "recalled"
            and not unit.get("isolated")
            and not unit.get("immobilized")
        ):
            retained.eliminate(
                state, side, unit, "1.6141", "mobile, non-isolated AFV under recall (1.6141)"
            )
            gone.append(unit)
    cvp = aftermath.cvp_of(ctx, gone) if gone else None
    if cvp:
        halfday.add_cvp(state, side, cvp, rolled_1616(state, side))


def _run_aftermath(ctx, state: APState, side, data):
    aftermath.apply(state, side, data, ctx, step="1.600")


def _played_lines(state: APState) -> list:
    return [line for line in public(state)["roster"] if line.get("played")]


def _before_victory(state: APState, side) -> bool:
    """The losses step is for a Refit Phase whose 1.6067 has not run (`applies`)."""
    lines = _played_lines(state)
    return bool(lines) and lines[-1].get("winner") is None


def _run_losses(ctx, state: APState, side, data):
    if data.get("units") or data.get("cvp") or data.get("cvp_unlisted") is not None:
        record_losses(ctx, state, side, data, "1.6067")


OWN_STEPS = [
    Step(
        "1.600",
        "End of scenario: what happened to your units",
        "1.12",
        run=_run_aftermath,
        applies=lambda state, side: aftermath.recorded(state, side) is None,
        fields=aftermath.EVENT.fields,
        short="End of scenario",
        extra={"kind": "ap.aftermath"},
        help="Mark what happened to your units; every unit you leave unmarked is recorded as ok.",
    ),
    _check("1.601", "Conclusion of melee (north to south)", "1.601", "joint"),
    _check("1.602", "Marker removal", "1.602", "joint"),
    _check(
        "1.603",
        "Rally; passengers unloaded; disrupted French infantry eliminated",
        "1.603",
        "joint",
        confirm=_disrupted_french,
    ),
    _check("1.604", "Encirclement and minefields", "1.604", "joint"),
    _check("1.605", "Perimeter determination, control markers, pockets", "1.605", "joint"),
    _check("1.606", "Isolation", "1.606", "joint"),
    _check(
        "1.6064",
        "Escape results; encirclement counters removed; evacuated pockets revert",
        "1.6064",
        "joint",
    ),
    _check(
        "1.6066",
        "Drawing the perimeter",
        "1.6066",
        "joint",
        "Confirm once the perimeter is drawn; give the final control if the RePh changed it.",
    ),
    Step(
        "1.6066.losses",
        "Your units eliminated at the table in this Refit Phase",
        "1.6067",
        run=_run_losses,
        applies=_before_victory,
        fields=LOSS_FIELDS,
        form=losses_form,
        short="Losses before victory",
        extra={"kind": "ap.losses"},
        help="Melee, encirclement, minefields …: their CVP count for the half-day's victory (1.6067), which is "
        "determined once both sides have said what they lost. Lost nothing? Record with nothing ticked. "
        "Units the rules eliminated on their own (escape, disrupted French) are counted already when "
        "the club's CVP list covers them.",
    ),
    Step(
        "1.6067",
        "CG scenario victory determination",
        "1.6067",
        scope="system",
        run=_victory,
        audience="public",
    ),
    _check(
        "1.607",
        "Clearing the map; retained equipment; hidden fortifications",
        "1.607",
        help_="Record what your side retains (retained units).",
    ),
    _check("1.608", "Prisoners", "1.608"),
    _check("1.609", "Extinguishing blazes", "1.609"),
    _check("1.6111", "Recombining half-squads", "1.611"),
    Step(
        "1.6121", "New CG half-day", "1.6121", scope="system", run=_new_half_day, audience="public"
    ),
    _check("1.6133", "AFV MG exchange", "1.6133"),
    _check("1.6134", "Demolition charges", "1.6134"),
    _check("1.6136", "Captured AFV", "1.6136"),
    _check(
        "1.6137", "Special ammo, Low Ammo and ammunition shortage removal (1.6137-1.6139)", "1.6137"
    ),
    _check(
        "1.6141",
        "Recall: mobile non-isolated AFV under recall eliminated",
        "1.6141",
        confirm=_recall,
    ),
    Step(
        "1.625",
        "Scenario commencement",
        "1.625",
        scope="system",
        run=_commencement,
        audience="public",
        initial=True,
    ),
]
