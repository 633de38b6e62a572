"""Achtung! Panzer! as a Muster game system: the core hooks wired to the modules beside it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from campaigns.core_events import finish
from campaigns.errors import DomainError
from campaigns.schema import EventKind, Field
from campaigns.systems.base import Action, GameSystem, SideDef, StepStatus, Variant

from . import halfday, odds, retained, sequence, sheets as sheet_defs, state as initial
from .steps import initiative
from .common import SIDES, private, public
from .steps.base import PENDING, kind_name  # noqa: F401  (re-exported for step authors)

DATA = Path(__file__).parent
NAMES = {"allied": "Allied", "german": "German"}


def _variants() -> tuple[Variant, ...]:
    return tuple(
        Variant(slug, f"CG {['I', 'II', 'III'][i]}: {data['name']}", tuple(data["half_days"]),
                description=data["cg_victory_text"])
        for i, (slug, data) in enumerate(initial.cgs().items())
    )


def _step_kinds() -> tuple[EventKind, ...]:
    kinds = []
    for step in sequence.STEPS:
        if step.checklist or step.scope == "system":
            continue
        audience = "public" if step.audience == "public" or step.scope == "joint" else "side"
        kinds.append(EventKind(kind_name(step), step.label, tuple(step.fields), audience=audience, rule=step.rule,
                               help=step.help))
    return tuple(kinds)


_STEP_FIELD = Field("step", label="Step", max_length=40)
OWN_KINDS = (
    retained.EVENT,
    EventKind("ap.cvp", "CVP of units eliminated in the Refit Phase", (
        Field("cvp", "int", label="CVP sustained", min=1, max=1000),
        Field("note", required=False, default="", max_length=300),
    ), audience="side", rule="1.6067",
        help="Before 1.6067 they count for the half-day's victory; after it only for 1.616/1.617."),
    EventKind("ap.check", "Refit Phase step done", (_STEP_FIELD, Field("note", required=False, default="",
                                                                         max_length=500)),
              audience="side", rule="1.6"),
    EventKind("ap.joint", "Refit Phase step done by both sides", (
        _STEP_FIELD, Field("note", required=False, default="", max_length=500),
        Field("control", "json", required=False, default=None,
              help="At 1.6066 only: corrected allied_/german_objectives_end and _half_boards."),
    ), audience="public", rule="1.6"),
)

@lru_cache(maxsize=None)
def _constants() -> dict:
    with (DATA / "constants.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


class AchtungPanzer(GameSystem):
    slug = "achtung_panzer"
    name = "Achtung! Panzer!"
    event_prefix = "ap"
    data_dir = DATA
    description = "ASL campaign games on the Somme, May-June 1940 (v2.11): half-days, Refit Phase, CG Roster."
    sides = (SideDef("allied", "Allied"), SideDef("german", "German"))
    variants = _variants()
    option_fields = (
        Field("balance", "choice", label="1.31 balance", choices=("none", "allied", "german"), required=False,
              default="none", help="If both players want to play the same side: that side's opponent starts "
                                   "with ELR 4 (1.31)."),
    )
    result_fields = halfday.RESULT_FIELDS
    event_kinds = (*_step_kinds(), *OWN_KINDS)
    sheets = tuple(sheet_defs.SHEETS)

    def constants(self):
        return _constants()

    # --- the fold ---------------------------------------------------------------------------
    def initial_state(self, variant, options, ctx):
        return initial.initial_state(variant, options, ctx.table("1.6161"),
                                     int(ctx.value("balance.same_side.opponent_elr")))

    def apply(self, state, record, ctx):
        sequence.progress(state, ctx)  # steps that became skippable since (e.g. right after the start)
        if record.kind == "ap.retained":
            sequence.apply_retained(state, record, ctx)
        elif record.kind == "ap.cvp":
            sequence.apply_cvp(state, record, ctx)
        elif record.kind == "ap.check":
            sequence.apply_check(state, record, ctx)
        elif record.kind == "ap.joint":
            sequence.apply_joint(state, record, ctx)
        elif record.kind in sequence.BY_KIND:
            sequence.apply_step_event(state, record, ctx)
        else:
            raise DomainError("kind", f"Unknown event kind {record.kind!r}.")

    def clean_result(self, state, index, data, ctx):
        return halfday.clean_result(state, data, ctx)

    def result_open(self, state, index):
        game = state.get("game")
        if game is None:
            return "The campaign has not started."
        phase = game["public"]["phase"]
        if phase == "refit":
            return "The Refit Phase is not finished yet."
        if phase != "play":
            return "The campaign is over."
        return None

    def on_result(self, state, index, result, ctx):
        halfday.log_result(state, index, result)
        sequence.start_refit(state, index)
        sequence.progress(state, ctx)

    def on_calendar_end(self, state, ctx):
        winner, reason = halfday.calendar_end_winner(state)
        public(state)["phase"] = "finished"
        finish(state, winner, reason)

    def on_sealed_revealed(self, state, key, choices, ctx):
        initiative.on_revealed(state, key, choices, ctx)
        sequence.complete_pending(state, ctx)

    def clean_sealed_choice(self, state, key, choice, ctx):
        return initiative.clean_choice(state, key, choice, ctx)

    # --- reading ----------------------------------------------------------------------------
    def actions(self, state, side):
        if state["status"] != "active" or state.get("game") is None or side not in SIDES:
            return []
        found = []
        step = sequence.current(state, side)
        if step is not None and not sequence.waiting(state, side):
            found.extend(self._step_actions(step, side, state))
        found.append(Action("ap.retained", "Edit retained units", side, "1.607"))
        if public(state)["phase"] == "refit" and not public(state)["refit_initial"]:
            found.append(Action("ap.cvp", "Enter CVP of units eliminated in the Refit Phase", side, "1.6067"))
        return found

    def _step_actions(self, step, side, state):
        title = f"{step.id} {step.label}"
        asked = private(state, side).get("pending", {}).get(step.id)
        if asked and asked.get("half_day", public(state)["half_day"]) == public(state)["half_day"]:
            title += ": your choice after the roll"
        if step.checklist:
            kind = "ap.joint" if step.scope == "joint" else "ap.check"
            return [Action(kind, f"Done: {title}", side, step.rule, step.help, {"step": step.id})]
        actions = [Action(kind_name(step), title, side, step.rule, step.help)]
        if step.repeatable:
            actions.append(Action("ap.check", f"Finish {title}", side, step.rule, "", {"step": step.id}))
        return actions

    def procedure(self, state, sides):
        game = state.get("game")
        if game is None or public(state)["phase"] not in ("refit", "play"):
            return []
        lines = []
        for step in sequence.active_steps(state):
            if step.scope in ("joint", "system"):
                done = all(sequence.status(state, step, s) for s in SIDES)
                cur = not done and sequence.reached_by_all(state, step) and public(state)["phase"] == "refit"
                detail = "" if done or cur else "Once both sides have finished the steps before it."
                if cur and step.id in public(state)["pending_steps"]:
                    detail = "Both sides choose in secret; the choices are revealed together."
                lines.append(StepStatus(step.id, step.label, step.rule, None,
                                        "done" if done else "current" if cur else "waiting", detail))
                continue
            for side in SIDES:
                if step.scope == "allied" and side != "allied":
                    continue  # the Germans have no part in it
                if side in sides:
                    lines.append(StepStatus(f"{step.id}:{side}", step.label, step.rule, side,
                                            self._own_status(state, step, side)))
                else:
                    done = sequence.status(state, step, side) is not None
                    lines.append(StepStatus(f"{step.id}:{side}", f"{NAMES[side]}: {step.label}", step.rule, None,
                                            "done" if done else "waiting"))
        return lines

    def _own_status(self, state, step, side):
        if step.id in sequence.skipped(state, side):
            return "skipped"
        if sequence.status(state, step, side):
            return "done"
        if sequence.current(state, side) is step:
            return "waiting" if sequence.waiting(state, side) else "current"
        return "waiting"

    def upcoming_rolls(self, state, side, ctx):
        if state.get("game") is None or public(state)["phase"] != "refit":
            return []
        found = []
        for step in sequence.active_steps(state):
            if step.scope == "system" or sequence.status(state, step, side) is not None:
                continue
            if step.scope == "allied" and side != "allied":
                continue
            found.extend(step.upcoming(state, side, ctx))
        return found

    def side_odds(self, state, side, ctx, rolls):
        """The odds task's hook (campaigns/services/odds.py): exact odds plus value-after summaries."""
        return odds.side_odds(state, side, ctx, rolls)

    def roster(self, state):
        game = state.get("game")
        if game is None:
            return []
        entries = []
        for side in SIDES:
            for unit in private(state, side)["retained"]:
                entries.append({"key": f"{side}:{unit['id']}", "side": side, "audience": "side", "kind": unit["kind"],
                                "name": unit["type"] or unit["kind"], "status": unit["status"], "data": unit})
        return entries

    def standings(self, state):
        if state.get("game") is None:
            return []
        pub = public(state)
        totals = halfday.total_op(state)
        out = []
        for side in SIDES:
            rec = pub["record"][side]
            cvp = sum(line["cvp"][side] for line in pub["roster"] if line["played"])
            score = f"{rec['won']}:{rec['lost']}" + (f" ({rec['drawn']} drawn)" if rec["drawn"] else "")
            out += [{"side": side, "label": "Win:loss", "value": score},
                    {"side": side, "label": "Objective points", "value": totals[side]},
                    {"side": side, "label": "CVP sustained", "value": cvp}]
        return out

    def scenario_summary(self, state, index):
        game = state.get("game")
        if game is None:
            return {}
        line = public(state)["roster"][index]
        return {"half_day": line["half_day"], "type": line["type"], "winner": line["winner"],
                "op": line["op"], "cvp": line["cvp"], "victory": (line["victory"] or {}).get("text", "")}

    def describe(self, record):
        if record.kind in ("ap.check", "ap.joint"):
            step = sequence.BY_ID.get((record.data or {}).get("step"))
            return f"Done: {step.id} {step.label}" if step else "Refit Phase step done"
        kind = self.event_kind(record.kind)
        return kind.label if kind else record.kind

    def sheet_context(self, sheet, view):
        return sheet_defs.sheet_context(sheet, view)

    def demo(self, club, users):
        from .demo import build_demo

        return build_demo(club, users)


SYSTEM = AchtungPanzer()
