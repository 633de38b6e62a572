"""Rifles in the Ardennes (solitaire) as a Muster game system: the core hooks wired to the
modules beside it. One player, one squad, a chain of missions (section 8)."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, GameSystem, SideDef, Variant, finish

from . import briefing, forms, missions, procedure, records, sheets, squad, state as st, upgrades
from .data import DATA, armies, army_name, constants
from .kinds import KINDS

ARMY_LABELS = tuple((slug, data["name"]) for slug, data in armies().items())
LENGTHS = (("three", 3), ("five", 5), ("eight", 8))


def _variants() -> tuple[Variant, ...]:
    return tuple(
        Variant(
            slug,
            f"{count} missions" + (" (every mission of the booklet)" if count == 8 else ""),
            tuple(f"Mission {n}" for n in range(1, count + 1)),
            description="One squad from mission to mission; the campaign ends after the last mission's "
            "briefing, or when the squad is wiped out.",
        )
        for slug, count in LENGTHS
    )


class RiflesArdennes(GameSystem):
    slug = "rifles_ardennes"
    name = "Rifles in the Ardennes"
    event_prefix = "rifles"
    data_dir = DATA
    description = (
        "Solitaire (Theatres of War): one squad across a campaign of missions; experience, skills, "
        "wounds and reinforcements from HQ (section 8)."
    )
    sides = (SideDef(st.SIDE, "Squad"),)
    variants = _variants()
    option_fields = (
        Field(
            "army",
            "choice",
            label="Your Army",
            choices=tuple(k for k, _ in ARMY_LABELS),
            labels=ARMY_LABELS,
            required=False,
            default="german",
            help="2.2, 8.1",
        ),
        Field(
            "enemy",
            "choice",
            label="Enemy Army",
            choices=tuple(k for k, _ in ARMY_LABELS),
            labels=ARMY_LABELS,
            help="2.2: the Germans face the Russians or the USA; the Russians and the USA face Germany.",
        ),
        Field(
            "ap_budget",
            "int",
            label="Your Army's maximum AP (Army Sheet)",
            required=False,
            min=1,
            max=60,
            help="Printed under the Army's name on its Army Sheet; the rulebook gives only the German 10 AP "
            "(2.2), so leave it empty for the Germans.",
        ),
    )
    result_fields = missions.RESULT_FIELDS
    event_kinds = KINDS
    sheets = sheets.SHEETS
    panel_template = "rifles_ardennes/panel.html"
    late_house_rules = False  # fixed when the campaign starts: the club's squads stay comparable
    # v1: Muster 0.1.0 and the versions after it until the leadership rule changed; v2: a Leader
    # who may not lead is named only after 8.2, and only until the next mission ends (6; rules notes
    # RA-9); v3: such a temporary Leader gives up the command when the mission is logged, before the
    # briefing (6, 7, 8.4.1; RA-9). The upgrades are in upgrades.py.
    journal_version = 3
    journal_upgrades = upgrades.STEPS
    comparison_columns = records.COMPARISON_COLUMNS

    def constants(self):
        return constants()

    @property
    def skills_table(self) -> list[dict]:
        """The Skills Table (8.4.1) for the pages, in words."""
        return [
            {
                "name": row.cells["name"],
                "description": row.cells["description"],
                "leader_only": row.cells["leader_only"],
            }
            for row in self.tables.tables["8.4.1"].rows
        ]

    def clean_options(self, options):
        options = dict(options)
        army, enemy = options.get("army") or "german", options.get("enemy")
        allowed = armies()[army]["enemies"]
        if enemy not in allowed:
            raise DomainError(
                "options.enemy",
                f"The {army_name(army)} face "
                f"{' or '.join(armies()[e]['army'] for e in allowed)} (2.2).",
            )
        book = constants().get(f"budget.{army}")
        if book is not None and options.get("ap_budget") not in (None, book["value"]):
            raise DomainError(
                "options.ap_budget",
                f"The maximum AP of the {army_name(army)} is in the rulebook "
                f"({book['value']} AP, 2.2); a house rule may change it.",
            )
        if book is None and options.get("ap_budget") is None:
            raise DomainError(
                "options.ap_budget",
                f"Enter the maximum AP of the {army_name(army)} from its Army "
                "Sheet: the rulebook text does not give it.",
            )
        options["army"] = army
        return options

    def check_house_rule(self, key, value):
        records.check_house_rule(key, value)

    # --- the fold -------------------------------------------------------------------------------
    def initial_state(self, variant, options, ctx):
        options = self.clean_options(options)
        book = constants().get(f"budget.{options['army']}")
        budget = int(ctx.value(f"budget.{options['army']}")) if book else options["ap_budget"]
        return st.initial_state(options, self.variant(variant).calendar, budget)

    def apply(self, state, record, ctx):
        handler = {
            "rifles.catalog": lambda: squad.apply_catalog(state, record.data, ctx),
            "rifles.mission": lambda: squad.apply_mission_plan(state, record.data, ctx),
            "rifles.squad": lambda: squad.apply_create(state, record.data, ctx),
            "rifles.recruit": lambda: squad.apply_recruit(state, record.data, ctx),
            "rifles.roster": lambda: squad.apply_roster(state, record.data, ctx),
            "rifles.leader": lambda: squad.apply_leader(state, record.data, ctx),
            "rifles.xp": lambda: briefing.apply_xp(state, record, ctx),
            "rifles.spend_xp": lambda: briefing.apply_spend(state, record.data, ctx),
            "rifles.casualties": lambda: briefing.apply_casualties(state, record, ctx),
            "rifles.reinforce": lambda: briefing.apply_reinforce(state, record, ctx),
            "rifles.next_mission": lambda: briefing.apply_next(state, record, ctx),
        }.get(record.kind)
        if handler is None:
            raise DomainError("kind", f"Unknown event kind {record.kind!r}.")
        handler()

    def clean_result(self, state, index, data, ctx):
        return missions.clean_result(state, index, data, ctx)

    def result_open(self, state, index):
        return missions.result_open(state)

    def on_result(self, state, index, result, ctx):
        missions.on_result(state, index, result, ctx)

    def on_calendar_end(self, state, ctx):
        st.public(state)["phase"] = "finished"
        count = len(st.public(state)["missions"])
        finish(state, None, f"All {count} missions have been played.")

    # --- reading --------------------------------------------------------------------------------
    def actions(self, state, side):
        return procedure.actions(state, side)

    def form_fields(self, view, side, kind, initial):
        return forms.form_fields(view, side, kind, initial, self.tables)

    def procedure(self, state, sides):
        return procedure.steps(state)

    def upcoming_rolls(self, state, side, ctx):
        return procedure.upcoming_rolls(state, ctx)

    def side_odds(self, state, side, ctx, rolls):
        return procedure.side_odds(state, ctx, rolls)

    def panel_context(self, view):
        return st.panel_words(view) if view.get("game") else {}

    def waiting_on(self, state):
        if state["status"] != "active" or state.get("game") is None:
            return []
        return st.waiting_on(state)

    def roster(self, state):
        return records.roster(state)

    def standings(self, state):
        return records.standings(state)

    def scenario_summary(self, state, index):
        return records.scenario_summary(state, index)

    def result_words(self, view, index, data, ctx=None):
        return records.result_words(view, index, data)

    def describe(self, record):
        kind = self.event_kind(record.kind)
        return kind.label if kind else record.kind

    def history_text(self, record, view):
        return records.history_text(record, view)

    def roll_label(self, view, key):
        return records.roll_label(view, key)

    def describe_roll(self, view, data):
        return records.describe_roll(view, data)

    def comparison_row(self, view):
        return records.comparison_row(view)

    def sheet_context(self, sheet, view):
        return sheets.sheet_context(sheet, view)

    def blank_sheet(self, sheet):
        return sheets.blank_context(sheet)

    def demo(self, table):
        from .demo import build_demo

        return build_demo(table)


SYSTEM = RiflesArdennes()
