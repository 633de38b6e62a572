"""The Refit Phase events: each checks that the step is the side's to do now, then applies it
(ap.check, ap.joint, ap.continue, ap.cvp, ap.retained and each step's own kind)."""

from __future__ import annotations

from campaigns.game_interface import DomainError

from . import aftermath, halfday, refit_steps, retained
from .common import SIDES, current_index, public
from .refit_losses import record_losses
from .refit_marks import mark, status
from .refit_progress import (
    active_steps,
    confirm,
    continue_steps,
    current,
    progress,
    reached_by_all,
    run_step,
    runnable,
    waiting,
)
from .shapes import APState
from .steps.base import Step


def _not_now(state: APState, side: str, wanted: Step) -> DomainError:
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


def apply_step_event(state: APState, record, ctx) -> None:
    step = refit_steps.BY_KIND[record.kind]
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


def apply_continue(state: APState, record, ctx) -> None:
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


def follow_ups(state: APState, record) -> list[tuple[str, dict]]:
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


def apply_check(state: APState, record, ctx) -> None:
    """ap.check: a side confirms its checklist step or finishes a repeatable step."""
    side = _acting(record)
    step = refit_steps.BY_ID.get(record.data["step"])
    if step is None:
        raise DomainError("step", "No such Refit Phase step.")
    if not (step.repeatable or (step.checklist and step.scope in ("side", "allied"))):
        raise DomainError("step", f"{_named(step)} is not confirmed this way: use its own form.")
    if current(state, side) is not step or waiting(state, side):
        raise _not_now(state, side, step)
    if step.repeatable and step.extra.get("finish"):
        step.extra["finish"](ctx, state, side)
    if step.checklist:
        confirm(ctx, state, step, side)
    mark(state, step, side)
    progress(state, ctx)


def apply_joint(state: APState, record, ctx) -> None:
    """ap.joint: either side (or the referee) confirms map actions both sides did together:
    ``step`` one of them, or ``through`` every joint step up to that one, as far as both sides
    can go now (a side's escape from isolation comes before 1.6064)."""
    target = record.data.get("through") or record.data.get("step")
    if not target:
        raise DomainError("step", "Name the step (or the last step) done at the table.")
    step = refit_steps.BY_ID.get(target)
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
        confirm(ctx, state, nxt, None)
        for s in SIDES:
            mark(state, nxt, s)
        confirmed.append(nxt.id)
        progress(state, ctx)
    if control:
        raise DomainError("control", "Control is corrected when the perimeter is drawn (1.6066).")


def _update_control(state: APState, control: dict, ctx) -> None:
    """Control changed in the RePh before 1.6067 (melee, escape, evacuated pockets)."""
    if not isinstance(control, dict):
        raise DomainError("control", "Must be an object.")
    line = public(state)["roster"][current_index(state)]
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


def apply_cvp(state: APState, record, ctx) -> None:
    """Units eliminated at the table in the RePh (melee, encirclement, minefields …) and their CVP
    (entered, or from the club's CVP list)."""
    side = _acting(record)
    pub = public(state)
    if pub["phase"] != "refit" or pub["refit_initial"]:
        raise DomainError(
            "cvp", "CVP are entered here for units eliminated in a Refit Phase after a half-day."
        )
    step = current(state, side)
    record_losses(ctx, state, side, record.data, step.id if step else "refit")


def apply_retained(state: APState, record, ctx) -> None:
    side = _acting(record)
    step = current(state, side)
    retained.apply(state, side, record.data, step.id if step else public(state)["phase"])
