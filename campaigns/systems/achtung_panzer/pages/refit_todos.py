"""The Refit Phase's to-dos of one side: the step it has reached, the map steps both sides confirm
at the table, a "Continue" over the steps with nothing to decide, and the buttons that send two
events in one submission (a step's last event with its end; a "Continue" or the map steps with the
decision after them)."""

from __future__ import annotations

from dataclasses import replace

from campaigns.game_interface import Action

from .. import refit_progress
from ..common import private, public
from ..shapes import APState
from ..steps import fortifications, purchases
from ..steps.base import kind_name

# A repeatable step's last event and its end in one submission: the second button sends the step's
# own event, then what finishes the step. With dice entered from the table only where nothing rolls
# after it (_ROLLS_NOTHING_AFTER): the dice the finish rolls (1.620 after "Done buying") are asked
# for on its own form.
_FINISH = {
    "1.619": (("ap.check", {"step": "1.619"}), "Buy and finish buying: roll for my RGs"),
    "1.621": (("ap.check", {"step": "1.621"}), "Buy and finish: forfeit the rest"),
    "1.615": (("ap.1.615", {"items": []}), "Roll and finish"),
    # Weather's EC with the CG13 declaration that follows it, in its usual answer.
    "1.618": (
        ("ap.declare", {"special": "none"}),
        "Record the EC; an ordinary half-day (no Armor or British, CG13)",
    ),
}


# Decisions whose form reads nothing the steps with nothing to decide before them change (1.615
# asks for the side's own fortifications; 1.6131-1.6142 and their checklists touch AFVs and
# weapons): a "Continue" before them is sent with them.
_FOLDED = ("1.6112", "1.6113", "1.6131", "1.6132", "1.615")
# Own steps the joint map steps before them are confirmed with (they read nothing the map steps
# change but units 1.603 may eliminate, which the service then refuses by name).
_FOLDED_AFTER_TABLE = ("1.6063", "1.6066.losses")


def refit_actions(state: APState, side: str) -> list[Action]:
    step = refit_progress.current(state, side)
    if step is None:
        return []
    if step.scope == "joint":
        return _joint_actions(state, side, step)
    if refit_progress.waiting(state, side):
        return []
    steps = refit_progress.runnable(state, side, checklists=True)
    before: tuple = ()
    if steps:
        nxt = refit_progress.decision_after(state, side, steps)
        rolls = any(not s.checklist for s in steps)
        if nxt is None or nxt.id not in _FOLDED or (rolls and not _server_dice(state)):
            # With dice entered from the table, only a "Continue" that rolls nothing is folded:
            # its dice would be asked on a form that is not the one shown.
            return [_continue_action(steps, side)]
        # "Continue" folded into the decision after it: its form does not depend on what the steps
        # before it do, so both are sent in one submission (one button instead of two).
        before, step = (("ap.continue", {"checklists": True}),), nxt
    return [_step_action(state, side, step, steps, before), *_step_extras(state, side, step)]


def _joint_actions(state: APState, side: str, step) -> list[Action]:
    """The map steps both sides do at the table, confirmed by either player for both; folded
    into this side's own next step when that step reads nothing they change."""
    if not refit_progress.reached_by_all(state, step):
        return []
    span = refit_progress.joint_span(state)
    names = "; ".join(f"{s.rule} {s.label}" for s in span)
    joint = Action(
        "ap.joint",
        "Done at the table: " + _span_words(span),
        side,
        span[0].rule,
        f"Both sides have done these on the map: {names}. Either player confirms them for both.",
        {"through": span[-1].id},
        button="Done at the table",
        joint=True,
    )
    nxt = refit_progress.own_after_table(state, side)
    if nxt is None or nxt.id not in _FOLDED_AFTER_TABLE:
        return [joint]
    # The map steps up to this side's own next step are confirmed with it, in one submission:
    # its escape (1.6063) after 1.601-1.606, its losses after 1.6064-1.6066.
    before_it = [s for s in span if refit_progress.before(s, nxt)]
    if not before_it or not refit_progress.confirmable(state, before_it[-1]):
        return [joint]
    names = "; ".join(f"{s.rule} {s.label}" for s in before_it)
    folded = Action(
        kind_name(nxt),
        nxt.label,
        side,
        nxt.rule,
        f"Sending it also confirms, for both sides, what was done on the map: {names}. {nxt.help}",
        button=_button(nxt),
        before=(("ap.joint", {"through": before_it[-1].id}),),
    )
    # The confirmation on its own stays, after it: for control the Refit Phase changed
    # (1.6066), and for the referee, who confirms the map steps once for both sides.
    return [
        folded,
        replace(
            joint,
            help=f"{joint.help} On its own only to give the final control, if the "
            f"Refit Phase changed it; otherwise sending {nxt.short or nxt.label} confirms them.",
        ),
    ]


def _step_action(state: APState, side: str, step, steps, before) -> Action:
    """The to-do of the step the side has reached (after its roll, when it rolls first)."""
    asked = private(state, side).get("pending", {}).get(step.id)
    after_roll = bool(asked and asked.get("half_day", pub_half_day(state)) == pub_half_day(state))
    label = f"{step.label}: your choice after the roll" if after_roll else step.label
    help_ = f"{_continue_words(steps)} {step.help}" if before else step.help
    return Action(
        kind_name(step),
        label,
        side,
        step.rule,
        help_,
        button=_button(step),
        before=before,
        **_and_finish(state, step),
    )


def _step_extras(state: APState, side: str, step) -> list[Action]:
    """The to-dos beside a repeatable step's own: its end, and giving back what it bought."""
    if step.id == "1.619":
        return _buying_extras(state, side, step)
    if step.id == "1.621":
        return _fortifying_extras(state, side, step)
    if step.id == "1.6063":
        return [
            Action(
                "ap.check",
                "Done with escape: the others stay in their pockets",
                side,
                step.rule,
                "Isolated MMC may stay in their pocket (1.606); a lone SMC must attempt escape.",
                {"step": step.id},
                button="Done",
            )
        ]
    return []  # 1.615: an empty submission finishes it


def _buying_extras(state: APState, side: str, step) -> list[Action]:
    found = [
        Action(
            "ap.check",
            "Done buying",
            side,
            step.rule,
            "Then the strength, weapons and leaders of your RGs are rolled (1.620).",
            {"step": step.id},
            button="Done buying: roll for my RGs",
        )
    ]
    if purchases.this_half_day(state, side):
        found.append(
            Action(
                "ap.purchase",
                "Give back a purchase of this step",
                side,
                step.rule,
                "Its CPP (and any FPP or SAN it gave) come back.",
                {"action": "remove"},
                optional=True,
                button="Give back",
            )
        )
    return found


def _fortifying_extras(state: APState, side: str, step) -> list[Action]:
    found = [
        Action(
            "ap.check",
            "Done with fortifications",
            side,
            step.rule,
            "Unspent FPP are forfeit (1.621).",
            {"step": step.id},
            button="Done: forfeit the rest",
        )
    ]
    if fortifications.bought_now(state, side):
        found.append(
            Action(
                "ap.fortify",
                "Give back a fortification of this step",
                side,
                step.rule,
                "Its FPP come back.",
                {"action": "remove"},
                optional=True,
                button="Give back",
            )
        )
    return found


def _server_dice(state: APState) -> bool:
    return state["options"].get("dice_mode", "server") == "server"


# Finishes after which the steps that follow on their own roll nothing before the next decision:
# offered with dice entered from the table too (no die to ask for on a form that is not shown).
_ROLLS_NOTHING_AFTER = ("1.621", "1.618")


def _and_finish(state: APState, step) -> dict:
    if step.id not in _FINISH or not (_server_dice(state) or step.id in _ROLLS_NOTHING_AFTER):
        return {}
    then, words = _FINISH[step.id]
    return {"then": (then,), "then_button": words}


def pub_half_day(state: APState) -> str:
    return public(state)["half_day"]


def _continue_words(steps) -> str:
    table = [s for s in steps if s.checklist]
    rolls = [s for s in steps if not s.checklist]
    parts = []
    if table:
        parts.append("done at the table: " + "; ".join(f"{s.label} ({s.rule})" for s in table))
    if rolls:
        parts.append("rolled now: " + "; ".join(f"{s.short or s.label} ({s.rule})" for s in rolls))
    return ". ".join(p[0].upper() + p[1:] for p in parts) + "."


def _continue_action(steps, side) -> Action:
    rolls = [s for s in steps if not s.checklist]
    label = "Continue: " + _span_words(steps)
    return Action(
        "ap.continue",
        label,
        side,
        steps[0].rule,
        "Nothing to decide here. " + _continue_words(steps),
        {"checklists": True},
        button="Roll" if rolls and len(rolls) == len(steps) else "Done, continue",
    )


def _span_words(steps) -> str:
    if len(steps) == 1:
        return f"{steps[0].short or steps[0].label} ({steps[0].rule})"
    return f"{steps[0].rule}–{steps[-1].rule}"


def _button(step) -> str:
    return {
        "1.600": "Record",
        "1.6063": "Roll for escape",
        "1.6112": "Battle harden",
        "1.615": "Roll (or nothing to remove)",
        "1.618": "Record the EC",
        "1.6066.losses": "Record (or none)",
        "1.619.declare": "Declare",
        "1.619": "Buy",
        "1.621": "Buy",
        "1.622": "Done",
    }.get(step.id, "Submit")
