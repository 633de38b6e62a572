"""Achtung! Panzer! as a Muster game system: the core hooks wired to the modules beside it."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import yaml

from campaigns.game_interface import (
    DomainError,
    EventKind,
    Field,
    GameSystem,
    HeldState,
    SideDef,
    StepStatus,
    Variant,
    finish,
)

from . import (
    common,
    elr,
    halfday,
    odds,
    pages,
    refit_events,
    refit_losses,
    refit_marks,
    refit_progress,
    refit_steps,
    result_page,
    retained,
    sheets as sheet_defs,
    state as initial,
    upgrades,
    words,
)
from .common import HISTORICAL_TABLE, SIDES, private, public
from .shapes import APState
from .steps import initiative
from .steps.base import PENDING, kind_name  # noqa: F401  (re-exported for step authors)

DATA = Path(__file__).parent
NAMES = {"allied": "Allied", "german": "German"}
_RETAINED_EDITS: dict[str | None, str] = {
    "add": "Retained units added",
    "update": "A retained unit changed",
    "remove": "A retained unit removed",
}


def _variants() -> tuple[Variant, ...]:
    return tuple(
        Variant(
            slug,
            f"CG {['I', 'II', 'III'][i]}: {data['name']}",
            tuple(data["half_days"]),
            description=data["cg_victory_text"],
        )
        for i, (slug, data) in enumerate(initial.cgs().items())
    )


def _step_kinds() -> tuple[EventKind, ...]:
    kinds = []
    for step in refit_steps.STEPS:
        if step.checklist or step.scope == "system":
            continue
        audience = "public" if step.audience == "public" or step.scope == "joint" else "side"
        kinds.append(
            EventKind(
                kind_name(step),
                step.label,
                tuple(step.fields),
                audience=audience,
                rule=step.rule,
                help=step.help,
            )
        )
    return tuple(kinds)


_STEP_FIELD = Field("step", label="Step", max_length=40)
OWN_KINDS = (
    retained.EVENT,
    EventKind(
        "ap.cvp",
        "Units eliminated in the Refit Phase",
        refit_losses.LOSS_FIELDS,
        audience="side",
        rule="1.6067",
        help="Before 1.6067 they count for the half-day's victory; after it only for 1.616/1.617.",
    ),
    EventKind(
        "ap.check",
        "Refit Phase step done",
        (_STEP_FIELD, Field("note", required=False, default="", max_length=500)),
        audience="side",
        rule="1.6",
    ),
    EventKind(
        "ap.joint",
        "Refit Phase steps done by both sides",
        (
            Field("step", label="Step", required=False, default=None, max_length=40),
            Field("through", label="Up to", required=False, default=None, max_length=40),
            Field("note", required=False, default="", max_length=500),
            Field(
                "control",
                "json",
                required=False,
                default=None,
                help="At 1.6066 only: corrected allied_/german_objectives_end and _half_boards.",
            ),
        ),
        audience="public",
        rule="1.6",
    ),
    EventKind(
        "ap.continue",
        "Refit Phase steps with nothing to decide",
        (
            Field(
                "checklists",
                "bool",
                required=False,
                default=False,
                help="Also confirm the map actions done at the table on the way.",
            ),
        ),
        audience="side",
        rule="1.6",
    ),
)


@cache
def _constants() -> dict:
    with (DATA / "constants.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


class AchtungPanzer(GameSystem):
    slug = "achtung_panzer"
    name = "Achtung! Panzer!"
    event_prefix = "ap"
    data_dir = DATA
    description = (
        "ASL campaign games on the Somme, May-June 1940 (v2.11): half-days, Refit Phase, CG Roster."
    )
    sides = (SideDef("allied", "Allied"), SideDef("german", "German"))
    variants = _variants()
    option_fields = (
        Field(
            "balance",
            "choice",
            label="Both players want the same side (1.31)",
            choices=("none", "allied", "german"),
            required=False,
            default="none",
            labels=(
                ("none", "No: nothing changes"),
                ("allied", "Both want the Allies: the German side starts with ELR 4"),
                ("german", "Both want the Germans: the Allied side starts with ELR 4"),
            ),
            help="1.31: that side's opponent starts with ELR 4.",
        ),
    )
    result_fields = halfday.RESULT_FIELDS
    event_kinds = (*_step_kinds(), *OWN_KINDS)
    sheets = tuple(sheet_defs.SHEETS)
    panel_template = "achtung_panzer/panel.html"
    records_template = "achtung_panzer/records.html"
    # v1: before the end-of-scenario record (1.12, a787fca); v2: before the losses step (R-A19,
    # 30f6652); v3: Muster 0.1.0; v4: the CVP of units the club's list does not cover asked on
    # their own (c0d149e). The upgrades are in upgrades.py.
    # v5: ELR by nationality (CG14; elr.py): earlier journals fold with one ELR per side.
    # v6: 1.6112 and 1.6113 take the choice the DR leads to with the DR itself (R-A26).
    journal_version = common.JOURNAL_VERSION
    journal_version_before_versions = 3  # Muster 0.1.0 wrote A!P! v3
    long_forms = ("result.submitted", "result.resolved")  # a row per objective hex of 1.2
    journal_upgrades = upgrades.STEPS

    def constants(self):
        return _constants()

    def journal_sequence(self):
        return refit_steps.signature()

    # --- the fold ---------------------------------------------------------------------------
    def initial_state(self, variant, options, ctx):
        return initial.initial_state(
            variant,
            options,
            ctx.table(HISTORICAL_TABLE),
            int(ctx.value("balance.same_side.opponent_elr")),
            lambda side, value: elr.initial(ctx, side, value),
        )

    def apply(self, state, record, ctx):
        names = words.names_kept(state, record.side) if record.side in SIDES else None
        try:
            self._apply(state, record, ctx)
        except DomainError as error:
            if names is not None:  # units and RGs named as the side names them, never by id
                error.message = words.name_ids(error.message, names())
                error.args = (f"{error.field}: {error.message}",)
            raise

    def _apply(self, state: APState, record, ctx):
        refit_progress.progress(
            state, ctx
        )  # steps that became skippable since (e.g. right after the start)
        if record.kind == "ap.retained":
            refit_events.apply_retained(state, record, ctx)
        elif record.kind == "ap.cvp":
            refit_events.apply_cvp(state, record, ctx)
        elif record.kind == "ap.check":
            refit_events.apply_check(state, record, ctx)
        elif record.kind == "ap.joint":
            refit_events.apply_joint(state, record, ctx)
        elif record.kind == "ap.continue":
            refit_events.apply_continue(state, record, ctx)
        elif record.kind in refit_steps.BY_KIND:
            refit_events.apply_step_event(state, record, ctx)
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
        refit_progress.start_refit(state, index)
        refit_progress.progress(state, ctx)

    def on_calendar_end(self, state, ctx):
        winner, reason = halfday.calendar_end_winner(state)
        public(state)["phase"] = "finished"
        finish(state, winner, reason)

    def on_sealed_revealed(self, state, key, choices, ctx):
        initiative.on_revealed(state, key, choices, ctx)
        refit_progress.complete_pending(state, ctx)

    def clean_sealed_choice(self, state, key, choice, ctx):
        return initiative.clean_choice(state, key, choice, ctx)

    # --- reading ----------------------------------------------------------------------------
    def actions(self, state, side):
        if state["status"] != "active" or state.get("game") is None or side not in SIDES:
            return []
        return pages.actions(self, state, side)

    def form_fields(self, view, side, kind, initial):
        return pages.form_fields(self, view, side, kind, initial)

    def correction_fields(self, view, side, kind, data):
        return pages.correction_fields(self, view, side, kind, data)

    def pick_groups(self, view, side, kind, field):
        return pages.pick_groups(view, side, kind, field)

    def form_data(self, view, side, kind, data):
        return pages.form_data(view, side, kind, data)

    def follow_ups(self, state, record):
        if state.get("game") is None:
            return []
        return refit_events.follow_ups(state, record)

    def submitted_words(self, view, record):
        from . import said

        return said.submitted_words(view, record)

    # A side's record of units, retained and eliminated together over a whole CG (campaigns.journal.holdings):
    # every counter of each purchase is one (squads, leaders, support weapons, vehicles), and
    # `ap.retained` adds up to 40 at once; far more than the largest force a side buys.
    max_units_per_side = 1000

    def units_held(self, state: HeldState) -> dict[str, int]:
        sides = (state["game"] or {}).get("sides", {})
        return {
            side: len(mine.get("retained", [])) + len(mine.get("eliminated", []))
            for side, mine in sides.items()
        }

    def history_text(self, record, view):
        from . import said

        return said.history_words(view, record)

    def roll_label(self, view, key):
        return words.key_words(key, view)

    def describe_roll(self, view, data):
        key = data.get("key", "")
        report = words.find_report(view, key)
        side = key.split("/")[3] if key.count("/") >= 3 else None
        return words.roll_sentence(report, words.names_for(view, side)) if report else None

    def procedure(self, state, sides):
        """The viewer's own steps one by one; of a side the viewer may not read, only where it stands
        between the steps both sides share (its own steps depend on its secrets)."""
        game = state.get("game")
        if (
            game is None
            or public(state)["phase"] not in ("refit", "play")
            or public(state)["phase"] == "play"
        ):
            return []
        lines = []
        for step in refit_progress.active_steps(state):
            if step.scope in ("joint", "system"):
                done = all(refit_marks.status(state, step, s) for s in SIDES)
                cur = not done and refit_progress.reached_by_all(state, step)
                detail = ""
                if cur and step.id in public(state)["pending_steps"]:
                    detail = "Both sides choose in secret; the choices are revealed together."
                elif not done and not cur:
                    detail = "Once both sides have finished the steps before it."
                lines.append(
                    StepStatus(
                        step.id,
                        step.label,
                        step.rule,
                        None,
                        "done" if done else "current" if cur else "waiting",
                        detail,
                    )
                )
                continue
            for side in SIDES:
                if side in sides and not (step.scope == "allied" and side != "allied"):
                    lines.append(
                        StepStatus(
                            f"{step.id}:{side}",
                            step.label,
                            step.rule,
                            side,
                            self._own_status(state, step, side),
                        )
                    )
        return lines

    def _own_status(self, state: APState, step, side):
        if step.id in refit_marks.skipped(state, side):
            return "skipped"
        if refit_marks.status(state, step, side):
            return "done"
        if refit_progress.current(state, side) is step:
            return "waiting" if refit_progress.waiting(state, side) else "current"
        return "waiting"

    def waiting_on(self, state):
        """Whom the campaign waits for, in words anyone in the club may read: from the shared steps'
        public marks and where each side stands between them (never its own steps)."""
        if state["status"] != "active" or state.get("game") is None:
            return []
        pub = public(state)
        if pub["phase"] != "refit":
            return []
        shared = [
            s
            for s in refit_progress.active_steps(state)
            if not refit_marks.is_own(s) and not all(refit_marks.status(state, s, x) for x in SIDES)
        ]
        if not shared:
            return []
        nxt = shared[0]
        reached = pub.get("reached") or {}
        out: list[tuple[str | None, str]] = []
        for side in SIDES:
            if reached.get(side) is None:
                out.append(
                    (side, f"{NAMES[side]}: Refit Phase steps up to {nxt.label} ({nxt.rule})")
                )
        if nxt.scope == "joint" and all(reached.get(s) == nxt.id for s in SIDES):
            out.append((None, f"Both sides: map steps done at the table ({nxt.rule})"))
        return out

    def upcoming_rolls(self, state, side, ctx):
        if state.get("game") is None or public(state)["phase"] != "refit":
            return []
        victory = refit_steps.BY_ID["1.6067"]
        decided = (
            public(state)["refit_initial"] or refit_marks.status(state, victory, side) is not None
        )
        found = []
        steps = refit_progress.active_steps(state)
        for step in steps:
            if step.scope == "system" or refit_marks.status(state, step, side) is not None:
                continue
            if step.scope == "allied" and side != "allied":
                continue
            after_victory = victory in steps and steps.index(step) > steps.index(victory)
            for roll in step.upcoming(state, side, ctx):
                if not decided and after_victory:
                    # Who won the half-day (and the CVP of the RePh) is settled at 1.6067: until then
                    # the modifiers that depend on it may still change.
                    roll = replace(roll, label=f"{roll.label} (provisional until 1.6067)")
                found.append(roll)
        return found

    def side_odds(self, state: APState, side, ctx, rolls):
        """The odds task's hook (campaigns/services/odds.py): exact odds plus value-after summaries."""
        return odds.side_odds(state, side, ctx, rolls)

    roster_from_side_parts = True  # each side's retained units (its private part)

    def roster(self, state):
        game = state.get("game")
        if game is None:
            return []
        entries = []
        for side in SIDES:
            for unit in private(state, side)["retained"]:
                entries.append(
                    {
                        "key": f"{side}:{unit['id']}",
                        "side": side,
                        "audience": "side",
                        "kind": unit["kind"],
                        "name": unit["type"] or unit["kind"],
                        "status": unit["status"],
                        "data": unit,
                    }
                )
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
            score = f"{rec['won']}:{rec['lost']}" + (
                f" ({rec['drawn']} drawn)" if rec["drawn"] else ""
            )
            out += [
                {"side": side, "label": "Win:loss", "value": score},
                {"side": side, "label": "Objective points", "value": totals[side]},
                {"side": side, "label": "CVP sustained", "value": cvp},
            ]
        return out

    trends = True

    def trend_point(self, view):
        from . import trends

        return trends.point(view)

    def trend_charts(self, points, view):
        from . import trends

        return trends.charts(points, view)

    def panel_context(self, view):
        from . import panel

        return panel.context(view)

    def result_words(self, view, index, data, ctx=None):
        if view.get("game") is None or not data:
            return super().result_words(view, index, data, ctx)
        lines = result_page.result_sentences(view, index, data, ctx)
        line = public(view)["roster"][index]
        if line.get("winner"):
            who = "A draw" if line["winner"] == "draw" else f"{NAMES[line['winner']]} won"
            lines.append(f"{who} (1.6067): {(line.get('victory') or {}).get('text', '')}")
        elif ctx is not None:
            try:
                lines.append(result_page.provisional(view, index, data, ctx))
            except DomainError:
                pass
        return lines

    def scenario_summary(self, state, index):
        game = state.get("game")
        if game is None:
            return {}
        line = public(state)["roster"][index]
        return {
            "half_day": line["half_day"],
            "type": line["type"],
            "winner": line["winner"],
            "op": line["op"],
            "cvp": line["cvp"],
            "victory": (line["victory"] or {}).get("text", ""),
        }

    def describe(self, record):
        data = record.data or {}
        if record.kind in ("ap.check", "ap.joint"):
            step_id = data.get("through") or data.get("step")
            step = refit_steps.BY_ID.get(step_id) if step_id else None
            if step is None:
                return "Refit Phase step done"
            if data.get("through"):
                return f"Done at the table, up to {step.label} ({step.rule})"
            return f"Done: {step.label} ({step.rule})"
        if record.kind == "ap.continue":
            return "Steps with nothing to decide done" + (
                " (map actions confirmed)" if data.get("checklists") else ""
            )
        if record.kind == "ap.purchase":
            if data.get("action") == "remove":
                return "A purchase given back (1.619)"
            return (
                f"RG {data.get('rg')} bought"
                + (" (on map)" if data.get("on_map") else "")
                + (" (reserve)" if data.get("reserve") else "")
            )
        if record.kind == "ap.declare":
            return f"The Allied player declares {words.SPECIAL_WORDS.get(data.get('special'), 'the half-day')} (CG13)"
        if record.kind == "ap.fortify":
            return (
                f"Fortification bought: {data.get('item')}"
                if data.get("action") == "buy"
                else "Fortification given back"
            )
        if record.kind == "ap.retained":
            return _RETAINED_EDITS.get(data.get("action"), "Retained units edited")
        if record.kind == "ap.1.618":
            return (
                f"Environmental conditions: {data['ec']} (1.618)"
                if data.get("ec")
                else "Weather rolled (1.618)"
            )
        step = refit_steps.BY_KIND.get(record.kind)
        if step is not None:
            return f"{step.label} ({step.rule})"
        kind = self.event_kind(record.kind)
        return kind.label if kind else words.plain(record.kind)

    def sheet_context(self, sheet, view):
        return sheet_defs.sheet_context(sheet, view)

    def blank_sheet(self, sheet):
        return sheet_defs.blank_context(sheet)

    def demo(self, table):
        from .demo import build_demo

        return build_demo(table)


SYSTEM = AchtungPanzer()
