"""What one Refit Phase step is: the contract between the sequencer and the step modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from campaigns.schema import Field


def _always(state: dict, side: str) -> bool:
    return True


def _no_rolls(state: dict, side: str, ctx) -> list:
    return []


@dataclass(frozen=True)
class Step:
    """One RePh step (or one part of a step) as the app runs it.

    id:      the rule number, unique, e.g. "1.616" or "1.6113" ("1.619.declare" for a sub-part)
    label:   shown on the checklist
    scope:   "side"   - each side does it for itself (side-private event, runs independently)
             "allied" - only the Allied side does it (e.g. weather 1.618, CG13 declaration)
             "joint"  - a shared table step confirmed once by either side (public)
             "system" - applied automatically by the sequencer (no event), via run(ctx, state, None, {})
    fields:  the event's input fields (campaigns.schema.Field), validated before run()
    run(ctx, state, side, data): apply the step to state["game"] in place; raise DomainError on bad input.
             Secret rolls use side=<side> in ctx.roll / rolls.roll_on; reports go to
             state["game"]["sides"][side]["rolls"] (side-private) via common.record_roll.
    applies(state, side): False → the step is skipped for that side (shown as skipped).
    upcoming(state, side, ctx): UpcomingRoll list for the odds panel before the step is done.
    audience: "side" (private; default for side steps) or "public" (weather, dual attack dr).
    checklist: True for a physical action on the map that players only confirm (no table).
    initial: True if the step is also run in the Initial Scenario's refit (1.5: 1.619-1.622).
    """

    id: str
    label: str
    rule: str
    scope: str = "side"
    fields: tuple[Field, ...] = ()
    run: Callable | None = None
    applies: Callable[[dict, str], bool] = _always
    upcoming: Callable = _no_rolls
    audience: str = "side"
    checklist: bool = False
    initial: bool = False
    help: str = ""
    repeatable: bool = False  # e.g. purchases: many events before the step is declared done
    extra: dict = field(default_factory=dict)
