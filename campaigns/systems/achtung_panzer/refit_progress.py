"""Where each side is in the Refit Phase, and what moves it on.

Each side works through the list on its own; a joint or system step (or one with
extra["sync"]) waits until both sides have finished everything before it. After the
Initial Scenario's set-up only 1.619-1.622 run (1.5), then 1.625. The steps with nothing to
decide (rolls, checklists once confirmed) are found and run here too.
"""

from __future__ import annotations

from campaigns.game_interface import clean_fields

from . import refit_steps
from .common import SIDES, public
from .refit_marks import is_own, mark, reader, status
from .shapes import APState
from .steps.base import DONE, PENDING, Step


def active_steps(state: APState) -> list[Step]:
    if public(state)["refit_initial"]:
        return [s for s in refit_steps.STEPS if s.initial]
    return list(refit_steps.STEPS)


def publish_reached(state: APState) -> None:
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


def current(state: APState, side: str) -> Step | None:
    if public(state)["phase"] != "refit":
        return None
    read = reader(state, side)
    for step in active_steps(state):
        if read(step) is None:
            return step
    return None


def is_shared(step: Step) -> bool:
    return step.scope in ("joint", "system") or bool(step.extra.get("sync"))


def reached_by_all(state: APState, step: Step) -> bool:
    """Both sides have finished every step before `step`."""
    steps = active_steps(state)
    readers = [reader(state, side) for side in SIDES]
    return all(
        read(earlier) is not None for earlier in steps[: steps.index(step)] for read in readers
    )


def waiting(state: APState, side: str) -> bool:
    """The side's current step waits for the other side (a sync point) or for something else."""
    step = current(state, side)
    if step is None:
        return False
    if is_shared(step) and not reached_by_all(state, step):
        return True
    return step.scope == "system"


def progress(state: APState, ctx) -> None:
    """Skip what does not apply and run the system steps every side has reached."""
    _progress(state, ctx)
    publish_reached(state)


def _progress(state: APState, ctx) -> None:
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
        now = [step for step in (current(state, s) for s in SIDES) if step is not None]
        for step in {step.id: step for step in now}.values():
            if step.scope != "system" or not reached_by_all(state, step):
                continue
            if step.id in public(state)["pending_steps"]:
                continue
            assert step.run is not None  # a system step is run by the sequencer: it has its run()
            if step.run(ctx, state, None, {}) == PENDING:
                public(state)["pending_steps"].append(step.id)
                continue
            for side in SIDES:
                mark(state, step, side)
            moved = True
            break


def complete_pending(state: APState, ctx) -> None:
    """Something outside the steps finished a pending system step (the sealed initiative choice)."""
    pub = public(state)
    for step_id in pub["pending_steps"]:
        for side in SIDES:
            mark(state, refit_steps.BY_ID[step_id], side)
    pub["pending_steps"] = []
    progress(state, ctx)


def run_step(ctx, state: APState, side: str, step: Step, data: dict) -> None:
    """Apply one side's step with its (cleaned) data; mark it done unless it waits for more."""
    result = step.run(ctx, state, side, dict(data)) if step.run else None
    if result == DONE or (result != PENDING and not step.repeatable):
        for s in SIDES if step.scope == "joint" else (side,):
            mark(state, step, s)
    progress(state, ctx)


def start_refit(state: APState, index: int) -> None:
    pub = public(state)
    labels = [s["label"] for s in state["scenarios"]]
    pub["phase"] = "refit"
    pub["refit_initial"] = False
    pub["refit_key"] = labels[index + 1] if index + 1 < len(labels) else f"after {labels[index]}"
    pub["steps"][pub["refit_key"]] = {}


# --- steps with nothing to decide --------------------------------------------------------------


def auto_data(state: APState, side: str, step: Step) -> dict | None:
    """The data a step runs with when the side has nothing to decide in it now, else None."""
    if step.checklist:
        return {}
    if step.auto is not None:
        return step.auto(state, side)
    if step.fields or step.repeatable:
        return None
    return {}


def without_decision(state: APState, side: str, step: Step) -> tuple[str, dict] | None:
    """The submission that settles `step` (the side's current one) when nothing is decided in it:
    the joint steps confirmed as done at the table, as the page offers them, or the steps that run
    on their own. None when the step asks for a decision."""
    if step.scope == "joint":
        return "ap.joint", {"through": joint_span(state)[-1].id}
    if auto_data(state, side, step) is not None:
        return "ap.continue", {"checklists": True}
    return None


def runnable(state: APState, side: str, checklists: bool = True) -> list[Step]:
    """The side's next steps that need no decision, in order, as far as can be seen now (a roll
    may still change what comes after it); stops at a decision, a joint step or a wait."""
    if waiting(state, side):
        return []
    found = []
    now = current(state, side)
    for step in active_steps(state)[active_steps(state).index(now) :] if now else []:
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


def decision_after(state: APState, side: str, span: list[Step]) -> Step | None:
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
    return refit_steps.STEPS.index(step) < refit_steps.STEPS.index(other)


def confirmable(state: APState, last: Step) -> bool:
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


def own_after_table(state: APState, side: str) -> Step | None:
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


def continue_steps(ctx, state: APState, side: str, checklists: bool) -> list[str]:
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
            # one whose dice are due whatever they show is asked in the same form, so a player enters every die due at once.
            return done
        if step.checklist:
            confirm(ctx, state, step, side)
            mark(state, step, side)
            progress(state, ctx)
        else:
            run_step(ctx, state, side, step, _clean(step, data))
        done.append(step.id)


def _clean(step: Step, data: dict) -> dict:
    return clean_fields(step.fields, data)


def confirm(ctx, state: APState, step: Step, side: str | None) -> None:
    """A checklist step's own consequence once confirmed (1.603 disrupted French, 1.6141 recall)."""
    if step.confirm is not None:
        step.confirm(ctx, state, side)


def joint_span(state: APState) -> list[Step]:
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
