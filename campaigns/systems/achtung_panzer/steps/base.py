"""What one Refit Phase step is: the contract between the sequencer and the step modules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from campaigns.game_interface import Field

from ..shapes import APState

PENDING = "pending"
DONE = "done"  # a repeatable step's run() saying the step is finished (nothing more to do in it)


# The step's functions, as the sequencer calls them (ctx is the core's Ctx; side None for a
# system or joint step).
Run = Callable[[Any, APState, Any, dict], Any]  # run(ctx, state, side, data)
Applies = Callable[[APState, str], bool]  # applies(state, side)
Upcoming = Callable[[APState, str, Any], list]  # upcoming(state, side, ctx)
Auto = Callable[[APState, str], dict | None]  # auto(state, side)
Form = Callable[[Any, APState, str], tuple | None]  # form(ctx, view, side)
Confirm = Callable[[Any, APState, Any], Any]  # confirm(ctx, state, side)


def kind_name(step: Step) -> str:
    return step.extra.get("kind") or f"ap.{step.id}"


def _always(state: APState, side: str) -> bool:
    return True


def _no_rolls(state: APState, side: str, ctx) -> list:
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
    fields:  the event's input fields (campaigns.schema.fields.Field), validated before run()
    run(ctx, state, side, data): apply the step to state["game"] in place; raise DomainError on bad input.
             Secret rolls use side=<side> in ctx.roll / rolls.roll_on; reports go to
             state["game"]["sides"][side]["rolls"] (side-private) via common.record_roll.
    applies(state, side): False → the step is skipped for that side (shown as skipped).
    upcoming(state, side, ctx): UpcomingRoll list for the odds panel before the step is done.
    audience: "side" (private; default for side steps) or "public" (weather, dual attack dr).
    checklist: True for a physical action on the map that players only confirm (no table).
    initial: True if the step is also run in the Initial Scenario's refit (1.5: 1.619-1.622).

    How the sequencer (refit_progress.py, refit_events.py) runs a step:
    - event kind: extra["kind"] if given, else kind_name(step) = "ap.<id>" ("ap.1.616"); checklist steps
      have no kind of their own: a side step is confirmed with "ap.check" {"step": id} (side-private),
      a joint one with "ap.joint" {"step": id} (public).
    - run's return value: None -> the step is done for that side. PENDING -> it stays current: a side
      step waits for another event of its kind (a choice asked after the roll, e.g. 1.6113); a system
      step waits for something else (the sealed initiative choice: the sequencer marks it done after
      on_sealed_revealed has called steps/initiative.py's on_revealed(state, key, choices, ctx)).
    - repeatable=True: each event runs run() and the step stays current until the side sends
      "ap.check" {"step": id}; then extra["finish"](ctx, state, side) is called if given (e.g. 1.621
      forfeits unspent FPP) and the step is done.
    - applies(state, side) is asked when the step becomes current; False -> skipped (only the side
      itself sees "skipped"; the other side sees "done").
    - scope "allied": the German side skips it. "joint"/"system" steps become current once both
      sides have finished every earlier step (sync points).
    """

    id: str
    label: str
    rule: str
    scope: str = "side"
    fields: tuple[Field, ...] = ()
    run: Run | None = None
    applies: Applies = _always
    upcoming: Upcoming = _no_rolls
    audience: str = "side"
    checklist: bool = False
    initial: bool = False
    help: str = ""
    repeatable: bool = False  # e.g. purchases: many events before the step is declared done
    extra: dict = field(default_factory=dict)
    # auto(state, side) -> the data to run the step with when the side has nothing to decide
    # in it now (a roll and nothing else), or None when a decision is needed. Steps without
    # fields need none. Such steps are done together ("Continue") and right after the side's
    # own previous step (refit_events.follow_ups).
    auto: Auto | None = None
    # form(ctx, view, side) -> the step's fields made concrete for the page now (choices from
    # the side's own units, rows per candidate), or None for the declared fields.
    form: Form | None = None
    # confirm(ctx, state, side) for a checklist step: what the rules do on their own when the
    # players confirm it (1.603 eliminates disrupted French infantry); side None for a joint one.
    confirm: Confirm | None = None
    short: str = ""  # a few words for lists ("AFV", "Purchases")
    # True when whether the step applies and which dice it rolls never depend on the dice of the
    # steps run before it in the same submission (1.6202-1.6206 after 1.6201): with dice entered
    # from the table its dice are asked in the same form as theirs, not one round later. A die of
    # the step that does depend on them (a depleted HW platoon's lost weapon) waits while
    # `rg_records.discovering`.
    independent_dice: bool = False
