"""Which Refit Phase steps each side has done or skipped: the marks, and nothing else.

The marks of the steps both sides share (joint and system steps) are public; those of a side's
own steps are private to it. This module reads only the state, so every other part of the Refit
Phase (the own steps, the step list, the progress machine, the event appliers) may use it.
"""

from __future__ import annotations

from collections.abc import Callable

from .common import private, public
from .shapes import APState
from .steps.base import Step


def refit_key(state: APState) -> str:
    return public(state)["refit_key"]


def _marks(state: APState) -> dict:
    """Marks of the steps both sides share (joint and system steps): public."""
    return public(state)["steps"].setdefault(refit_key(state), {})


def _side_marks(state: APState, side: str) -> dict:
    """Marks of a side's own steps: private to it (which it did, skipped or did together depends
    on its secrets; rules-notes R-A16)."""
    return private(state, side).setdefault("marks", {}).setdefault(refit_key(state), {})


def is_own(step: Step) -> bool:
    return step.scope in ("side", "allied")


def status(state: APState, step: Step, side: str) -> str | None:
    if step.scope == "allied" and side != "allied":
        return "done"  # nothing for the Germans to do
    if is_own(step):
        return _side_marks(state, side).get(step.id)
    return _marks(state).get(step.id, {}).get(side)


def reader(state: APState, side: str) -> Callable[[Step], str | None]:
    """`status(state, step, side)` for many steps of one unchanged state, each marks dict looked
    up once, when first needed (the progress machine asks about every step after each event)."""
    found: dict[str, dict] = {}

    def read(step: Step) -> str | None:
        if step.scope == "allied" and side != "allied":
            return "done"
        if is_own(step):
            if "own" not in found:
                found["own"] = _side_marks(state, side)
            return found["own"].get(step.id)
        if "shared" not in found:
            found["shared"] = _marks(state)
        return found["shared"].get(step.id, {}).get(side)

    return read


def skipped(state: APState, side: str) -> list[str]:
    return private(state, side)["skipped"].get(refit_key(state), [])


def mark(state: APState, step: Step, side: str, skip: bool = False) -> None:
    if is_own(step):
        _side_marks(state, side)[step.id] = "done"
    else:
        _marks(state).setdefault(step.id, {})[side] = "done"
    if skip:
        private(state, side)["skipped"].setdefault(refit_key(state), []).append(step.id)
