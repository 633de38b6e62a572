"""1.623 initiative (a sealed choice through the core) and 1.6231 scenario types.

The sequencer runs the system step "1.623": it opens the sealed choice
``initiative:<half-day>`` (options "attack" / "idle") and waits. Each side submits its
choice with the core's ``sealed.submitted`` (the system's clean_sealed_choice calls
``clean_choice`` here: an attack chit costs CPP the side must have). When both are in, the
core reveals them together and ``on_sealed_revealed`` calls ``on_revealed``: the attack chits
are paid, the chit table gives the scenario type, and the set-up / move order follows.
A Dual Attack's set-up dr is rolled here (public); its move-first dr is rolled once, at
1.625 commencement (refit_own_steps.py), because 1.6231 makes it "after set up".
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, open_sealed, roll_on

from .. import common
from ..shapes import APState
from .base import PENDING, Step

OPTIONS = ["attack", "idle"]
TYPE_ROWS = {
    "dual": "dual_attack",
    "german_assault": "german_assault",
    "allied_assault": "allied_assault",
}


def sealed_key(state: APState) -> str:
    return f"initiative:{common.half_day(state)}"


def open_initiative(state: APState, ctx=None) -> str:
    key = sealed_key(state)
    open_sealed(
        common.core_state(state),
        key,
        f"Initiative for {common.half_day(state)} (1.623)",
        list(common.SIDES),
        list(OPTIONS),
    )
    return key


def clean_choice(state: APState, key: str, choice, ctx):
    """Refuse an attack chit the side cannot pay for (the message names only its own CPP)."""
    side = ctx.record.side
    if choice not in OPTIONS:
        raise DomainError("choice", "Choose attack or idle.")
    if choice == "attack" and side in common.SIDES:
        cost = int(ctx.value("initiative.attack_chit_cost"))
        cpp = common.private(state, side)["cpp"]
        if cpp < cost:
            raise DomainError("choice", f"An attack chit costs {cost} CPP (1.623); you have {cpp}.")
    return choice


def on_revealed(state: APState, key: str, choices: dict, ctx) -> dict:
    """Both choices are known: pay the chits, set the scenario type and who sets up / moves first."""
    cost = int(ctx.value("initiative.attack_chit_cost"))
    attack = {side: choices[side] == "attack" for side in common.SIDES}
    public = common.public(state)
    type_ = ctx.table("1.623").value(
        "german_attack" if attack["german"] else "german_idle",
        "allied_attack" if attack["allied"] else "allied_idle",
    )
    sets_up_first = moves_first = None
    if type_ == "dual":
        report = roll_on(
            ctx,
            "1.6231.dual_dr",
            common.roll_key(state, "1.6231", "public", "sets_up_first"),
            (),
            side="",
            label="Dual Attack: which side sets up first",
        )
        sets_up_first = report["result"]["side"]
        report["effect"] = {"sets_up_first": sets_up_first}
        common.record_public_roll(state, report, "1.6231")
    else:
        row = TYPE_ROWS[type_]
        sets_up_first = ctx.table("1.6231").value(row, "sets_up_first")
        moves_first = ctx.table("1.6231").value(row, "moves_first")
    for side in common.SIDES:
        private = common.private(state, side)
        private["attack_chit"] = attack[side]
        if attack[side]:
            private["cpp"] -= cost
    public["attack_chits"] = attack
    public["scenario_type"] = type_
    public["sets_up_first"] = sets_up_first
    public["moves_first"] = moves_first  # None for a Dual Attack until 1.625
    return {"type": type_, "sets_up_first": sets_up_first, "moves_first": moves_first}


on_initiative_revealed = on_revealed  # the name the brief used


def run_open(ctx, state: APState, side, data):
    open_initiative(state, ctx)
    return PENDING


STEPS = [
    Step(
        "1.623",
        "Initiative (sealed attack chits)",
        "1.623",
        scope="system",
        run=run_open,
        extra={"sealed": "initiative"},
        help="Each side secretly chooses an attack chit (1 CPP) or idle; both are revealed together.",
    ),
]
