"""The Refit Phase in rulebook order: which step is current for each side, and dispatch.

STEPS holds every RePh step: the map actions players only confirm (checklists), the
system steps applied here (1.6067 victory, 1.6121 new half-day, 1.625 commencement)
and the table steps of the step modules (each exposes ``STEPS``; steps/registry.py imports
them and lists them in order).

Each side works through the list on its own; a joint or system step (or one with
extra["sync"]) waits until both sides have finished everything before it. After the
Initial Scenario's set-up only 1.619-1.622 run (1.5), then 1.625.
"""

from __future__ import annotations

import re

from campaigns.game_interface import DomainError, Field, advance, finish, roll_on

from . import aftermath, halfday, retained
from .common import SIDES, private, public, record_public_roll, roll_key
from .state import cg
from .steps import registry
from .steps.base import DONE, PENDING, Step, kind_name

NAMES = {"allied": "Allied", "german": "German"}


# --- the system's own steps ---------------------------------------------------------------------


def _victory(ctx, state, side, data):
    line = halfday.determine_victory(state, ctx)
    for s in SIDES:
        aftermath.oba_retention(state, s, line)
    pub = public(state)
    won = halfday.cg_victory(state, ctx)
    if won:
        pub["phase"] = "finished"
        finish(state, won[0], won[1])
    elif state["current"] == len(state["scenarios"]) - 1:
        pub["phase"] = "finished"
        advance(state, ctx)  # past the last half-day: on_calendar_end decides


def _new_half_day(ctx, state, side, data):
    """1.6121: the new CG half-day begins (the core's next scenario)."""
    advance(state, ctx)
    pub = public(state)
    pub["half_day"] = state["scenarios"][state["current"]]["label"]
    pub["initial"] = False
    pub.update(
        weather=None,
        ec=None,
        wind=None,
        special_half_day=None,
        scenario_type=None,
        sets_up_first=None,
        moves_first=None,
        attack_chits={s: None for s in SIDES},
    )
    for s in SIDES:
        private(state, s)["attack_chit"] = None


def _commencement(ctx, state, side, data):
    """1.625: ELR and SAN are announced; the half-day is played."""
    pub = public(state)
    for s in SIDES:
        pub["elr"][s] = dict(private(state, s)["elr"])  # every nationality the side fields (CG14)
        pub["san"][s] = private(state, s)["san"]
    pub["roster"][state["current"]]["elr"] = dict(
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
    line = pub["roster"][state["current"]]
    line.update(
        type=pub["scenario_type"],
        weather=pub["weather"],
        ec=pub["ec"],
        sets_up_first=pub["sets_up_first"],
        moves_first=pub["moves_first"],
        attack_chits=dict(pub["attack_chits"] or {}),
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


def _disrupted_french(ctx, state, side):
    """1.603: "Disrupted French infantry are immediately eliminated" (marked at the end of the scenario)."""
    for s in SIDES:
        units = [u for u in private(state, s)["retained"] if u.get("disrupted")]
        aftermath.eliminate_by_rule(
            state, s, units, "1.603", "disrupted French infantry eliminated (1.603)", ctx
        )


def _recall(ctx, state, side):
    """1.6141: "Each Mobile, non-isolated retained AFV under recall is eliminated." Their CVP count for
    1.616 (after 1.6067) when the club's CVP list covers them (R-A18)."""
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
        halfday.add_cvp(state, side, cvp, _rolled_1616(state, side))


def _run_aftermath(ctx, state, side, data):
    aftermath.apply(state, side, data, ctx, step="1.600")


# The losses of the map steps (melee, encirclement 1TC, minefields …) count for the half-day
# only if they are in before 1.6067 runs, so each side says what it lost (or nothing) before it
# (rules-notes R-A19): one player's "done at the table" cannot leave the other's losses out.
LOSS_FIELDS = (
    Field(
        "units",
        "list",
        required=False,
        default=[],
        max=100,
        item=Field("unit", max_length=20),
        label="Units eliminated",
        help="Retained units eliminated at the table in the Refit Phase.",
    ),
    Field(
        "cvp",
        "int",
        label="CVP sustained",
        required=False,
        default=None,
        min=0,
        max=1000,
        help="The total, when given: the club's CVP list is then not used.",
    ),
    Field(
        "cvp_unlisted",
        "int",
        label="CVP of the lost units the club's CVP list does not cover",
        required=False,
        default=None,
        min=0,
        max=1000,
        help="The others are counted from the list (A26.2).",
    ),
    Field("note", required=False, default="", max_length=300),
)


def losses_form(ctx, view: dict, side: str) -> tuple:
    from .steps.helpers import unit_choices

    units = private(view, side)["retained"]
    return (
        Field(
            "units",
            "list",
            label="Units eliminated",
            required=False,
            default=[],
            item=Field("unit", "choice", **unit_choices(units, view, side)),
        ),
        *aftermath.cvp_fields(ctx, units, 1000)[1],
        Field(
            "note",
            required=False,
            default="",
            max_length=300,
            label="How (melee, 1TC, minefield …)",
        ),
    )


def _played_lines(state) -> list:
    return [line for line in public(state)["roster"] if line.get("played")]


def _before_victory(state, side) -> bool:
    """The losses step is for a Refit Phase whose 1.6067 has not run (`applies`)."""
    lines = _played_lines(state)
    return bool(lines) and lines[-1].get("winner") is None


def _run_losses(ctx, state, side, data):
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


def _order_key(step: Step) -> str:
    """Rule numbers sort as decimals: "1.6063" < "1.607" < "1.6121" < "1.619" < "1.6201"."""
    match = re.match(r"^1\.(\d+)", step.id)
    if not match:
        return "9"
    digits = match.group(1)
    if digits.startswith("1691"):  # the on-map/reserve rules printed "1.1691x" are 1.6191x
        digits = "6" + digits[1:]
    return digits


def load_steps() -> list[Step]:
    steps = [*OWN_STEPS, *registry.module_steps()]
    if len({s.id for s in steps}) != len(steps):
        raise RuntimeError("Two Refit Phase steps share an id")
    return sorted(
        steps, key=_order_key
    )  # stable: a module's own order is kept within one rule number


STEPS: list[Step] = load_steps()
BY_ID = {s.id: s for s in STEPS}
BY_KIND = {kind_name(s): s for s in STEPS if not s.checklist and s.scope != "system"}


def signature() -> tuple[str, ...]:
    """The Refit Phase as the journal depends on it (campaigns.signatures): each step's id, scope,
    event kind and how it is done, in order."""
    return tuple(
        f"{s.id} {s.scope} {'checklist' if s.checklist else kind_name(s)}"
        + "".join(
            f" {flag}"
            for flag, on in (
                ("initial", s.initial),
                ("repeatable", s.repeatable),
                ("sync", s.extra.get("sync")),
            )
            if on
        )
        for s in STEPS
    )


# --- where each side is --------------------------------------------------------------------------


def refit_key(state: dict) -> str:
    return public(state)["refit_key"]


def active_steps(state: dict) -> list[Step]:
    if public(state)["refit_initial"]:
        return [s for s in STEPS if s.initial]
    return list(STEPS)


def _marks(state: dict) -> dict:
    """Marks of the steps both sides share (joint and system steps): public."""
    return public(state)["steps"].setdefault(refit_key(state), {})


def _side_marks(state: dict, side: str) -> dict:
    """Marks of a side's own steps: private to it (which it did, skipped or did together depends
    on its secrets; rules-notes R-A16)."""
    return private(state, side).setdefault("marks", {}).setdefault(refit_key(state), {})


def is_own(step: Step) -> bool:
    return step.scope in ("side", "allied")


def status(state: dict, step: Step, side: str) -> str | None:
    if step.scope == "allied" and side != "allied":
        return "done"  # nothing for the Germans to do
    if is_own(step):
        return _side_marks(state, side).get(step.id)
    return _marks(state).get(step.id, {}).get(side)


def _rolled_1616(state: dict, side: str):
    """Asked by halfday.add_cvp only once the half-day has a winner (reading the marks adds them)."""
    step = BY_ID.get("1.616")
    return lambda: step is not None and status(state, step, side) is not None


def skipped(state: dict, side: str) -> list[str]:
    return private(state, side)["skipped"].get(refit_key(state), [])


def mark(state: dict, step: Step, side: str, skip: bool = False) -> None:
    if is_own(step):
        _side_marks(state, side)[step.id] = "done"
    else:
        _marks(state).setdefault(step.id, {})[side] = "done"
    if skip:
        private(state, side)["skipped"].setdefault(refit_key(state), []).append(step.id)


def publish_reached(state: dict) -> None:
    """What the other side may know of a side's Refit Phase: the shared step it has reached
    (every step of its own before it done), or None while it works on its own steps."""
    pub = public(state)
    if pub.get("phase") != "refit":
        pub["reached"] = {}
        return
    reached = {}
    for side in SIDES:
        step = current(state, side)
        reached[side] = "finished" if step is None else (step.id if is_shared(step) else None)
    pub["reached"] = reached


def current(state: dict, side: str) -> Step | None:
    if public(state)["phase"] != "refit":
        return None
    for step in active_steps(state):
        if status(state, step, side) is None:
            return step
    return None


def is_shared(step: Step) -> bool:
    return step.scope in ("joint", "system") or bool(step.extra.get("sync"))


def reached_by_all(state: dict, step: Step) -> bool:
    """Both sides have finished every step before `step`."""
    steps = active_steps(state)
    return all(
        status(state, earlier, s) is not None
        for earlier in steps[: steps.index(step)]
        for s in SIDES
    )


def waiting(state: dict, side: str) -> bool:
    """The side's current step waits for the other side (a sync point) or for something else."""
    step = current(state, side)
    if step is None:
        return False
    if is_shared(step) and not reached_by_all(state, step):
        return True
    return step.scope == "system"


def progress(state: dict, ctx) -> None:
    """Skip what does not apply and run the system steps every side has reached."""
    _progress(state, ctx)
    publish_reached(state)


def _progress(state: dict, ctx) -> None:
    moved = True
    while moved and state["status"] == "active" and public(state)["phase"] == "refit":
        moved = False
        for side in SIDES:
            step = current(state, side)
            if step is None:
                continue
            if step.scope in ("side", "allied") and not step.applies(state, side):
                mark(state, step, side, skip=True)
                moved = True
        if moved:
            continue
        for step in {
            current(state, s).id: current(state, s) for s in SIDES if current(state, s)
        }.values():
            if step.scope != "system" or not reached_by_all(state, step):
                continue
            if step.id in public(state)["pending_steps"]:
                continue
            if step.run(ctx, state, None, {}) == PENDING:
                public(state)["pending_steps"].append(step.id)
                continue
            for side in SIDES:
                mark(state, step, side)
            moved = True
            break


def complete_pending(state: dict, ctx) -> None:
    """Something outside the steps finished a pending system step (the sealed initiative choice)."""
    pub = public(state)
    for step_id in pub["pending_steps"]:
        for side in SIDES:
            mark(state, BY_ID[step_id], side)
    pub["pending_steps"] = []
    progress(state, ctx)


# --- events -------------------------------------------------------------------------------------


def _not_now(state: dict, side: str, wanted: Step) -> DomainError:
    pub = public(state)
    if pub["phase"] != "refit":
        return DomainError(
            "kind", f"The Refit Phase is not running: {pub['half_day']} is being played."
        )
    step = current(state, side)
    if step is None:
        return DomainError("kind", "Your side has finished this Refit Phase.")
    if status(state, wanted, side) is not None:
        return DomainError("kind", f"{_named(wanted)} is already done.")
    if waiting(state, side) and step is wanted:
        return DomainError(
            "kind", f"{_named(wanted)} waits for the other side to finish the steps before it."
        )
    return DomainError(
        "kind", f"Not yet: your side's current step is {_named(step)}, not {_named(wanted)}."
    )


def _named(step: Step) -> str:
    """A step in words with its rule number (never its internal id)."""
    return f"{step.label} ({step.rule})"


def _acting(record) -> str:
    if not record.side:
        raise DomainError("side", "Act for a side.")
    return record.side


def run_step(ctx, state: dict, side: str, step: Step, data: dict) -> None:
    """Apply one side's step with its (cleaned) data; mark it done unless it waits for more."""
    result = step.run(ctx, state, side, dict(data)) if step.run else None
    if result == DONE or (result != PENDING and not step.repeatable):
        for s in SIDES if step.scope == "joint" else (side,):
            mark(state, step, s)
    progress(state, ctx)


def apply_step_event(state: dict, record, ctx) -> None:
    step = BY_KIND[record.kind]
    side = _acting(record)
    if step.id == "1.600" and public(state)["phase"] == "play":
        # The end of the scenario is recorded while it is being played, before its result.
        reason = aftermath.open_for(state)
        if reason:
            raise DomainError("kind", reason)
        aftermath.apply(state, side, dict(record.data), ctx)
        return
    if current(state, side) is not step or (waiting(state, side) and step.scope != "joint"):
        raise _not_now(state, side, step)
    if step.scope == "joint" and not reached_by_all(state, step):
        raise _not_now(state, side, step)
    run_step(ctx, state, side, step, record.data)


# --- steps with nothing to decide --------------------------------------------------------------


def auto_data(state: dict, side: str, step: Step) -> dict | None:
    """The data a step runs with when the side has nothing to decide in it now, else None."""
    if step.checklist:
        return {}
    if step.auto is not None:
        return step.auto(state, side)
    if step.fields or step.repeatable:
        return None
    return {}


def without_decision(state: dict, side: str, step: Step) -> tuple[str, dict] | None:
    """The submission that settles `step` (the side's current one) when nothing is decided in it:
    the joint steps confirmed as done at the table, as the page offers them, or the steps that run
    on their own. None when the step asks for a decision."""
    if step.scope == "joint":
        return "ap.joint", {"through": joint_span(state)[-1].id}
    if auto_data(state, side, step) is not None:
        return "ap.continue", {"checklists": True}
    return None


def runnable(state: dict, side: str, checklists: bool = True) -> list[Step]:
    """The side's next steps that need no decision, in order, as far as can be seen now (a roll
    may still change what comes after it); stops at a decision, a joint step or a wait."""
    if waiting(state, side):
        return []
    found = []
    for step in (
        active_steps(state)[active_steps(state).index(current(state, side)) :]
        if current(state, side)
        else []
    ):
        if status(state, step, side) is not None:
            continue
        if step.scope not in ("side", "allied") or (step.checklist and not checklists):
            break
        if not step.applies(state, side):
            continue
        if auto_data(state, side, step) is None:
            break
        found.append(step)
    return found


def decision_after(state: dict, side: str, span: list[Step]) -> Step | None:
    """The side's own decision step right after `span` (what `runnable` found), when nothing but
    steps that do not apply lie between: the step a "Continue" may be folded into."""
    if not span:
        return None
    steps = active_steps(state)
    for step in steps[steps.index(span[-1]) + 1 :]:
        if status(state, step, side) is not None:
            continue
        if step.scope not in ("side", "allied") or step.checklist:
            return None
        if not step.applies(state, side):
            continue
        return step if auto_data(state, side, step) is None else None
    return None


def before(step: Step, other: Step) -> bool:
    """`step` comes before `other` in the Refit Phase."""
    return STEPS.index(step) < STEPS.index(other)


def confirmable(state: dict, last: Step) -> bool:
    """Every joint step from the current ones through `last` can be confirmed now: no side has an
    own step still to do between them (a side's escape comes before 1.6064)."""
    steps = active_steps(state)
    for step in steps[: steps.index(last) + 1]:
        for side in SIDES:
            if status(state, step, side) is not None:
                continue
            if step.scope == "joint":
                continue
            if step.scope in ("side", "allied") and not step.applies(state, side):
                continue
            return False
    return True


def own_after_table(state: dict, side: str) -> Step | None:
    """The side's first own step still to do after the joint steps it is at (what it does once they
    are confirmed at the table), when it applies; None if something else comes first."""
    steps = active_steps(state)
    start = current(state, side)
    if start is None or start.scope != "joint":
        return None
    for step in steps[steps.index(start) :]:
        if status(state, step, side) is not None or step.scope == "joint":
            continue
        if step.scope not in ("side", "allied") or step.checklist:
            return None
        if step.applies(state, side):
            return step
    return None


def continue_steps(ctx, state: dict, side: str, checklists: bool) -> list[str]:
    """Run the side's steps that need no decision (checklists confirmed only when asked)."""
    done: list[str] = []
    while True:
        step = current(state, side)
        if step is None or waiting(state, side) or step.scope not in ("side", "allied"):
            return done
        if step.checklist and not checklists:
            return done
        data = auto_data(state, side, step)
        if data is None or (done and done[-1] == step.id):
            return done  # a decision now (or a step that stays current after its roll)
        if getattr(ctx.provider, "missing", None) and not step.independent_dice:
            # Dice entered from the table and some still missing: a step whose dice may depend
            # on them waits for them, so nobody is asked for a die the real ones make unnecessary;
            # one whose dice are due whatever they show is asked in the same form (issue 21.6).
            return done
        if step.checklist:
            _confirm(ctx, state, step, side)
            mark(state, step, side)
            progress(state, ctx)
        else:
            run_step(ctx, state, side, step, _clean(step, data))
        done.append(step.id)


def _clean(step: Step, data: dict) -> dict:
    from campaigns.game_interface import clean_fields

    return clean_fields(step.fields, data)


def apply_continue(state: dict, record, ctx) -> None:
    """ap.continue: the steps with nothing to decide, done together (checklists confirmed)."""
    side = _acting(record)
    if public(state)["phase"] != "refit":
        raise DomainError("kind", "The Refit Phase is not running.")
    done = continue_steps(ctx, state, side, bool(record.data.get("checklists")))
    if not done:
        step = current(state, side)
        if step is None:
            raise DomainError("kind", "Your side has finished this Refit Phase.")
        if waiting(state, side):
            raise DomainError("kind", f"{step.label} waits for the other side.")
        raise DomainError("kind", f"{step.label} needs your decision first.")


def follow_ups(state: dict, record) -> list[tuple[str, dict]]:
    """After a side's own step, the steps with nothing to decide that follow it (rolls) are done
    in the same submission; checklists wait for the players' confirmation."""
    side = record.side
    if (
        side not in SIDES
        or record.kind in ("ap.continue", "ap.retained", "ap.cvp")
        or state["status"] != "active"
    ):
        return []
    if public(state)["phase"] != "refit":
        return []
    if not runnable(state, side, checklists=False):
        return []
    return [("ap.continue", {"checklists": False})]


def _confirm(ctx, state: dict, step: Step, side: str | None) -> None:
    if step.confirm is not None:
        step.confirm(ctx, state, side)


def apply_check(state: dict, record, ctx) -> None:
    """ap.check: a side confirms its checklist step or finishes a repeatable step."""
    side = _acting(record)
    step = BY_ID.get(record.data["step"])
    if step is None:
        raise DomainError("step", "No such Refit Phase step.")
    if not (step.repeatable or (step.checklist and step.scope in ("side", "allied"))):
        raise DomainError("step", f"{_named(step)} is not confirmed this way: use its own form.")
    if current(state, side) is not step or waiting(state, side):
        raise _not_now(state, side, step)
    if step.repeatable and step.extra.get("finish"):
        step.extra["finish"](ctx, state, side)
    if step.checklist:
        _confirm(ctx, state, step, side)
    mark(state, step, side)
    progress(state, ctx)


def joint_span(state: dict) -> list[Step]:
    """The joint steps from the current one up to the next system step (1.601-1.6066 before
    1.6067): what players confirm together as done at the table. Reads public marks only."""
    found = []
    for step in active_steps(state):
        if is_own(step) or all(status(state, step, s) is not None for s in SIDES):
            continue
        if step.scope == "system":
            break
        found.append(step)
    return found


def apply_joint(state: dict, record, ctx) -> None:
    """ap.joint: either side (or the referee) confirms map actions both sides did together:
    ``step`` one of them, or ``through`` every joint step up to that one, as far as both sides
    can go now (a side's escape from isolation comes before 1.6064)."""
    target = record.data.get("through") or record.data.get("step")
    if not target:
        raise DomainError("step", "Name the step (or the last step) done at the table.")
    step = BY_ID.get(target)
    if step is None or step.scope != "joint":
        raise DomainError("step", f"{target} is not a joint Refit Phase step.")
    side = record.side or "allied"
    first = current(state, side)
    if first is None or first.scope != "joint" or not reached_by_all(state, first):
        raise _not_now(state, side, step)
    steps = active_steps(state)
    if steps.index(step) < steps.index(first):
        raise _not_now(state, side, step)
    if not record.data.get("through") and first is not step:
        raise _not_now(state, side, step)
    control = record.data.get("control")
    confirmed = []
    while True:
        nxt = current(state, side)
        if nxt is None or nxt.scope != "joint" or not reached_by_all(state, nxt):
            break
        if steps.index(nxt) > steps.index(step):
            break
        if nxt.id == "1.6066" and control:
            _update_control(state, control, ctx)
            control = None
        _confirm(ctx, state, nxt, None)
        for s in SIDES:
            mark(state, nxt, s)
        confirmed.append(nxt.id)
        progress(state, ctx)
    if control:
        raise DomainError("control", "Control is corrected when the perimeter is drawn (1.6066).")


def _update_control(state: dict, control: dict, ctx) -> None:
    """Control changed in the RePh before 1.6067 (melee, escape, evacuated pockets)."""
    if not isinstance(control, dict):
        raise DomainError("control", "Must be an object.")
    line = public(state)["roster"][state["current"]]
    data = {f"{s}_objectives_start": line["objectives_start"][s] for s in SIDES}
    data["bridges_destroyed"] = line["bridges_destroyed"]
    for s in SIDES:
        for name in ("objectives_end", "half_boards"):
            key = f"{s}_{name}"
            data[key] = control.get(key, line[name][s])
    unknown = set(control) - {f"{s}_{n}" for s in SIDES for n in ("objectives_end", "half_boards")}
    if unknown:
        raise DomainError(f"control.{sorted(unknown)[0]}", "Unknown field.")
    saved = public(state)["bridges_destroyed"]
    public(state)["bridges_destroyed"] = sorted(set(saved) - set(line["bridges_destroyed"]))
    try:
        cleaned = halfday.clean_result(state, data, ctx)
    finally:
        public(state)["bridges_destroyed"] = saved
    for s in SIDES:
        line["objectives_end"][s] = cleaned[f"{s}_objectives_end"]
        line["half_boards"][s] = cleaned[f"{s}_half_boards"]


def apply_cvp(state: dict, record, ctx) -> None:
    """Units eliminated at the table in the RePh (melee, encirclement, minefields …) and their CVP
    (entered, or from the club's CVP list)."""
    side = _acting(record)
    pub = public(state)
    if pub["phase"] != "refit" or pub["refit_initial"]:
        raise DomainError(
            "cvp", "CVP are entered here for units eliminated in a Refit Phase after a half-day."
        )
    record_losses(ctx, state, side, record.data, None)


def record_losses(ctx, state: dict, side: str, data: dict, where: str | None) -> None:
    units = []
    for i, unit_id in enumerate(data.get("units") or []):
        unit = retained.find(state, side, unit_id, f"units[{i}]")
        if unit in units:
            raise DomainError(f"units[{i}]", f"{unit_id} is listed twice.")
        units.append(unit)
    cvp = aftermath.cvp_sustained(
        ctx, units, data.get("cvp"), data.get("cvp_unlisted"), required=True
    )
    if not units and not cvp:
        raise DomainError("cvp", "Give the units eliminated or the CVP sustained.")
    if where is None:
        step = current(state, side)
        where = step.id if step else "refit"
    halfday.add_cvp(state, side, cvp, _rolled_1616(state, side))
    for unit in units:
        retained.eliminate(
            state, side, unit, where, data.get("note") or "eliminated in the Refit Phase"
        )


def apply_retained(state: dict, record, ctx) -> None:
    side = _acting(record)
    step = current(state, side)
    retained.apply(state, side, record.data, step.id if step else public(state)["phase"])


def start_refit(state: dict, index: int) -> None:
    pub = public(state)
    labels = [s["label"] for s in state["scenarios"]]
    pub["phase"] = "refit"
    pub["refit_initial"] = False
    pub["refit_key"] = labels[index + 1] if index + 1 < len(labels) else f"after {labels[index]}"
    pub["steps"][pub["refit_key"]] = {}


def label_of(state: dict) -> str:
    return cg(public(state)["cg"])["name"]
