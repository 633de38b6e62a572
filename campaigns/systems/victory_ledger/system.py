"""``LedgerSystem``: the core's GameSystem hooks for a game scored by a victory ledger.

A game subclasses it, points ``book_path`` at its ``book.yaml`` and implements the few
things that are its own (``evaluate`` above all: its scores and victory conditions after
a turn). Event kinds, for a game whose prefix is ``p``:

- ``p.setup``: the campaign's set-up (locations, units, the game's own values), once.
- ``p.units``: units added to the list later.
- ``p.changes``: unit changes recorded as they happen during the next turn (listed with it).
- ``p.turn``: one turn recorded: each location's controller / contested / supplied, the
  unit changes of the turn, the game's own values of the turn (the Advantage, replacements).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from campaigns.game_interface import (
    Action,
    DomainError,
    EventKind,
    Field,
    GameSystem,
    HeldState,
    SheetDef,
    SideDef,
    StepStatus,
    Variant,
    finish,
)

from . import confirmation, forms, ledger, sheets
from .ledger import public
from .model import CHANGES, STATUS_WORDS, Evaluation, load_book
from .setup import book_setup, locations_field, units_field

NOTE = Field(
    "note",
    label="Note",
    required=False,
    default="",
    max_length=500,
    help="Anything the table wants to remember about this turn.",
)


class LedgerSystem(GameSystem):
    book_path: Path
    setup_rule = ""  # the rules the set-up comes from
    turn_rule = ""  # the rule of the victory check after a turn
    unit_changes: tuple[str, ...] = ("eliminated", "reduced", "restored", "rebuilt")
    location_sub_fields: tuple = ()  # the set-up's per-location values beyond code and name
    unit_sub_fields: tuple = ()  # the set-up's per-unit values beyond code, name and side
    param_fields: tuple = ()  # the set-up's own values (FAB: game length, thresholds)
    turn_extra_fields: tuple = ()  # values of a turn beyond locations and units
    # Records a side enters that the other side confirms (confirmation.py), from this journal
    # version on: journals written before keep their records final as entered.
    confirmed_kinds: tuple[str, ...] = ("turn",)
    confirmed_from: int = 1
    uses_contested = True
    sheet_template = ""
    panel_template = "victory_ledger/panel.html"  # the same ledger panel for every ledger game
    records_template = "victory_ledger/records.html"  # every turn (the panel: the last few)

    def __init__(self):
        self.book = load_book(self.book_path)
        self.sides = tuple(SideDef(slug, name) for slug, name in self.book.sides)
        self.variants = tuple(
            Variant(
                slug, info["name"], tuple(info["parts"]), description=info.get("description", "")
            )
            for slug, info in self.book.scenarios.items()
        )
        self.event_kinds = (*self._ledger_kinds(), *self.own_kinds())
        self.sheets = (SheetDef("ledger", "Victory ledger", "public", self.sheet_template),)
        super().__init__()

    # --- declarations --------------------------------------------------------------------------
    def _ledger_kinds(self) -> tuple[EventKind, ...]:
        p, sides = self.event_prefix, tuple(self.side_slugs())
        row, change = self._location_row(sides), self._unit_change_row()
        return (
            self._setup_kind(sides),
            EventKind(
                f"{p}.units",
                "Units added",
                (units_field(sides, self.unit_sub_fields, side_names=self.book.sides),),
                actor="member",
                help="Units missing from the list; added units start at full strength.",
            ),
            EventKind(
                f"{p}.changes",
                "Unit changes recorded",
                (
                    Field("turn", label="Turn", max_length=40),
                    Field("units", "list", label="Unit changes", max=120, item=change),
                ),
                rule=self.turn_rule,
                help="As they happen: they count at once and are listed with the turn.",
            ),
            EventKind(
                f"{p}.turn",
                "Turn recorded",
                (
                    Field("turn", label="Turn", max_length=40),
                    Field(
                        "locations",
                        "list",
                        label="Locations",
                        required=False,
                        default=[],
                        max=200,
                        item=row,
                        help="Each location at the end of the turn; one not listed keeps its last state.",
                    ),
                    Field(
                        "units",
                        "list",
                        label="Unit changes",
                        required=False,
                        default=[],
                        max=120,
                        item=change,
                    ),
                    *self.turn_extra_fields,
                    NOTE,
                ),
                rule=self.turn_rule,
            ),
        )

    def _location_row(self, sides: tuple[str, ...]) -> Field:
        """One location at the end of a turn: who holds it, contested, supplied."""
        return Field(
            "row",
            "object",
            fields=(
                Field("location", label="Location", max_length=40),
                Field(
                    "controller", "choice", label="Held by", choices=sides, labels=self.book.sides
                ),
                Field("contested", "bool", label="Contested", required=False, default=False),
                Field("supplied", "bool", label="Supplied", required=False, default=False),
            ),
        )

    def _unit_change_row(self) -> Field:
        """One unit change: the unit, what happened to it, and the game's own values."""
        return Field(
            "row",
            "object",
            fields=(
                Field("unit", "str", label="Unit", required=False, default="", max_length=40),
                Field(
                    "change",
                    "choice",
                    label="What happened",
                    choices=self.unit_changes,
                    required=False,
                    default="",
                    labels=tuple((c, CHANGES[c][2].capitalize()) for c in self.unit_changes),
                ),
                *self.unit_change_sub_fields(),
            ),
        )

    def _setup_kind(self, sides: tuple[str, ...]) -> EventKind:
        """The set-up confirmed: the locations, the units and the game's own values."""
        p = self.event_prefix
        setup_units = units_field(
            sides,
            self.unit_sub_fields,
            help="Every unit whose fate the ledger follows.",
            side_names=self.book.sides,
        )
        return EventKind(
            f"{p}.setup",
            "Set-up confirmed",
            (
                locations_field(self.location_sub_fields),
                setup_units,
                *self.param_fields,
                Field(
                    "copied_from",
                    label="Copied from the club's campaign",
                    required=False,
                    default="",
                    max_length=120,
                    help="When the set-up repeats the club's last one for this game.",
                ),
            ),
            actor="member",
            rule=self.setup_rule,
            help="Check the locations and units against your map and counters, complete what the rulebook "
            "text lacks, and confirm. Later changes are corrections the other side agrees to.",
        )

    def own_kinds(self) -> tuple[EventKind, ...]:
        return ()

    def unit_change_sub_fields(self) -> tuple:
        return ()

    def constants(self) -> dict:
        return self.book.constants

    def value(self, state: HeldState, key: str):
        """A number of the rules as this campaign plays it: its house rule, else the book's."""
        rule = state.get("house_rules", {}).get(key)
        return rule["value"] if rule else self.book.constants[key]["value"]

    # --- the fold ----------------------------------------------------------------------------
    def initial_state(self, variant, options, ctx):
        pub = {
            "scenario": variant,
            "phase": "setup",
            "setup": book_setup(self.book, variant),
            "turns": [],
            "next": 0,
            "locations": {},
            "units": {},
            "ledger": [],
            "outcome": None,
            "decision": None,
            "chart": None,
            "pending": [],
        }
        state = {"public": pub, "sides": {s.slug: {} for s in self.sides}, "referee": {}}
        self.start(state, ctx)
        return state

    def start(self, game: dict, ctx) -> None:
        """The game's own start of play (Patton's Vanguard: the Advantage, the bids)."""

    def apply(self, state, record, ctx):
        kind = record.kind.removeprefix(f"{self.event_prefix}.")
        waiting = confirmation.waiting_text(self, state)  # None when no record waits
        if kind in self.confirmed_kinds and waiting is not None:
            raise DomainError(next(iter(record.data or {"turn": None})), waiting)
        if kind in self.confirmed_kinds and confirmation.needed(self, state, record, ctx):
            # held in the ledger, applied once the other side confirms it
            confirmation.hold(self, state, record, ctx)
        else:
            self.apply_record(state, record, ctx)

    def apply_record(self, state, record, ctx):
        kind = record.kind.removeprefix(f"{self.event_prefix}.")
        if kind == "setup":
            ledger.apply_setup(self, state, record, ctx)
        elif kind == "units":
            ledger.add_units(self, state, record, ctx)
        elif kind in ("turn", "changes"):
            if public(state)["phase"] == "setup":
                raise DomainError("turn", "Confirm the set-up first.")
            (ledger.record_turn if kind == "turn" else ledger.record_changes)(
                self, state, record, ctx
            )
        else:
            self.apply_own(state, record, ctx)

    def apply_own(self, state, record, ctx) -> None:
        raise DomainError("kind", f"Unknown event kind {record.kind!r}.")

    def result_open(self, state, index):
        return "Record the game turn by turn; the ledger gives the result."

    # --- records the other side confirms (confirmation.py) -------------------------------------
    def clean_result(self, state, index, data, ctx):
        """A record as an arbiter settles it: the data of the kind of record waiting."""
        waiting = confirmation.held(state)
        if waiting is None:
            raise DomainError("scenario", "No record waits for confirmation.")
        kind = self.event_kind(waiting["kind"])
        assert kind is not None, "only the ledger's own kinds are held"
        return kind.clean(data if isinstance(data, dict) else {})

    def on_result(self, state, index, result, ctx):
        confirmation.confirmed(self, state, index, result, ctx)

    def result_words(self, view, index, data, ctx=None):
        found = confirmation.words(self, view, index, data)
        return found if found is not None else super().result_words(view, index, data, ctx)

    def pending_words(self, state, index):
        return confirmation.what(self, state) or super().pending_words(state, index)

    def submitted_words(self, view, record):
        """A turn just recorded: that it waits for the other side, or what it gave; a record just
        confirmed or settled: what it gave."""
        game = (view or {}).get("game")
        if not game:
            return None
        pub, book = game["public"], self.book
        if record.kind == f"{self.event_prefix}.turn":
            waiting = confirmation.held(view)
            if waiting and waiting["uid"] == record.uid:
                return (
                    f"{record.data.get('turn')} recorded. It counts once the "
                    f"{book.side_name(book.other(record.side))} confirms it (or the referee)."
                )
        elif record.kind not in ("result.confirmed", "result.resolved"):
            return None
        entry = pub["ledger"][-1] if pub["ledger"] else None
        if entry is None or (
            record.kind == f"{self.event_prefix}.turn" and entry["uid"] != record.uid
        ):
            return None
        done = (
            "recorded"
            if record.kind == f"{self.event_prefix}.turn"
            else ("confirmed" if record.kind == "result.confirmed" else "settled")
        )
        said = f"{entry['turn']} {done}" + (f": {entry['summary']}" if entry.get("summary") else "")
        outcome = entry.get("outcome")
        if outcome:
            said += f". {outcome['text']} ({outcome['rule']})"
        return said + "."

    def history_text(self, record, view):
        return {
            "result.confirmed": "Record confirmed",
            "result.withdrawn": "Record withdrawn",
            "result.resolved": "Disputed record settled",
            "result.disputed": f"Record disputed: “{(record.data or {}).get('reason', '')}”",
        }.get(record.kind)

    def on_calendar_end(self, state, ctx):
        outcome = (state.get("game") or {}).get("public", {}).get("outcome")
        if outcome:
            finish(state, outcome["winner"], outcome["text"])

    # --- what a game implements --------------------------------------------------------------
    def check_setup(self, state, setup: dict, ctx) -> None:
        """Refuse a set-up the game's checks cannot work with (DomainError naming the field)."""

    def units_held(self, state: HeldState) -> dict[str, int]:
        game = state["game"]
        units = game.get("public", {}).get("setup", {}).get("units", []) if game else []
        return dict(Counter(u.get("side") for u in units))

    def check_unit(self, state, row: dict, ctx) -> None:
        """Refuse a unit added during play that the game cannot use."""

    def calendar(self, state, setup: dict) -> list[dict]:
        return [dict(t) for t in self.book.scenario(public(state)["scenario"])["turns"]]

    def check_unit_change(self, state, unit, change, row, turn, path, ctx) -> str | None:
        """Refuse a change the game's rules forbid; return the exit location of an exit."""
        return None

    def apply_turn_extras(self, state, turn, data, events, ctx) -> list:
        """The game's own values of a turn (after its unit changes, `events`): checked, applied,
        returned as [label, text] pairs."""
        return []

    def evaluate(self, state, turn, ctx) -> Evaluation:
        raise NotImplementedError

    def after_last_turn(self, state, ctx) -> None:
        ledger.end_game(self, state, self.no_outcome(), ctx)

    def no_outcome(self):
        from .model import Outcome

        return Outcome(None, "The last turn has been played without a decision.", "")

    def waiting_for(self, state) -> str | None:
        """Why no turn may be recorded now (a record waiting for confirmation, a decision, a
        sealed bid), or None."""
        waiting = confirmation.waiting_text(self, state)
        if waiting:
            return waiting
        pub = public(state)
        decision = pub["decision"]
        if pub["phase"] == "decision" and decision is not None:
            return "The game waits for a decision first: " + decision["text"]
        if pub["phase"] == "over":
            return "The game is over."
        return None

    def coming(self, state) -> list:
        """What the next turn brings, as [label, text] pairs shown before it is played (its RP,
        its sudden-death values …)."""
        return []

    def part_summary(self, state, turn) -> str:
        return f"Played to {turn['label']} without a decision; the game goes on."

    def chart_spec(self, state) -> dict | None:
        return None

    def scenario_name(self, state) -> str:
        return self.scenario_name_of(public(state)["scenario"])

    # --- reading -------------------------------------------------------------------------------
    def actions(self, state, side):
        game = state.get("game")
        if state["status"] != "active" or game is None or side not in self.side_slugs():
            return []
        pub, p = game["public"], self.event_prefix
        if pub["phase"] == "setup":
            return [
                Action(
                    f"{p}.setup",
                    "Check and confirm the set-up",
                    side,
                    self.setup_rule,
                    "Pre-filled from the rulebook; complete what the text lacks.",
                    button="Confirm the set-up",
                )
            ]
        found = list(self.own_actions(state, side))
        turn = ledger.next_turn(pub)
        if pub["phase"] == "play" and turn and not self.waiting_for(state):
            found.append(
                Action(
                    f"{p}.turn",
                    f"Record {turn['label']}",
                    side,
                    self.turn_rule,
                    "Tick what changed; the rest is carried over from the last turn.",
                    {"turn": turn["label"]},
                    button=f"Record {turn['label']}",
                )
            )
            found.append(
                Action(
                    f"{p}.changes",
                    f"Unit changes during {turn['label']}",
                    side,
                    self.turn_rule,
                    "Record eliminations, step losses, rebuilds … as they happen; they are listed with "
                    "the turn.",
                    {"turn": turn["label"]},
                    optional=True,
                    button="Record these changes",
                )
            )
        if pub["phase"] != "over":
            found.append(
                Action(
                    f"{p}.units",
                    "Add units to the list",
                    side,
                    optional=True,
                    button="Add the units",
                )
            )
        return found

    def own_actions(self, state, side) -> list[Action]:
        return []

    def form_fields(self, view, side, kind, initial):
        return forms.form_fields(self, view, side, kind, initial or {})

    def correction_fields(self, view, side, kind, data):
        return forms.correction_fields(self, view, kind, data)

    def form_data(self, view, side, kind, data):
        if (
            kind == "result.resolved" and "data" not in data
        ):  # the settle form shows the record's own fields
            data = dict(data)
            return {"scenario": data.pop("scenario"), "data": data}
        return data

    def suggested_data(self, kind, earlier):
        """A club enters a game's set-up once: its last confirmed set-up pre-fills the next one."""
        if kind != f"{self.event_prefix}.setup":
            return {}
        from .club import suggested_setup

        return suggested_setup(earlier)

    def procedure(self, state, sides):
        game = state.get("game")
        if game is None:
            return []
        pub = game["public"]
        steps = [
            StepStatus(
                "setup",
                "Set-up checked and confirmed",
                self.setup_rule,
                None,
                "current" if pub["phase"] == "setup" else "done",
            )
        ]
        steps += self.own_steps(state)
        turn = ledger.next_turn(pub)
        recorded = f"{pub['next']} of {len(pub['turns'])} turns recorded" if pub["turns"] else ""
        if pub["phase"] == "play" and turn:
            status = "waiting" if self.waiting_for(state) else "current"
            detail = (
                confirmation.waiting_text(self, state) or recorded
            )  # whose confirmation it waits for
            steps.append(
                StepStatus("turn", f"Record {turn['label']}", self.turn_rule, None, status, detail)
            )
        elif pub["phase"] == "over":
            steps.append(
                StepStatus(
                    "turn",
                    "Game over",
                    self.turn_rule,
                    None,
                    "done",
                    (pub["outcome"] or {}).get("text", ""),
                )
            )
        return steps

    def own_steps(self, state) -> list[StepStatus]:
        return []

    def roster(self, state):
        pub = public(state)
        return [
            {
                "key": u["id"],
                "side": u["side"],
                "audience": "public",
                "kind": "unit",
                "name": u["name"][:200],
                "status": STATUS_WORDS[pub["units"][u["id"]]["status"]],
                "data": {"since": pub["units"][u["id"]]["since"]},
            }
            for u in pub["setup"]["units"]
            if u["id"] in pub["units"]
        ]

    def scenario_summary(self, state, index):
        result = state["scenarios"][index].get("result") or {}
        return {"result": result.get("result", "")} if result else {}

    def describe(self, record):
        data, p = record.data or {}, self.event_prefix
        if record.kind == f"{p}.turn":
            return f"{data.get('turn', 'A turn')} recorded"
        if record.kind == f"{p}.units":
            names = ", ".join(str(u.get("name") or u.get("id")) for u in data.get("units") or [])
            return f"Units added: {names}"[:200]
        if record.kind == f"{p}.changes":
            changes = ", ".join(
                f"{u.get('unit')} {u.get('change')}"
                for u in data.get("units") or []
                if u.get("unit")
            )
            return f"Unit changes during {data.get('turn', 'the turn')}: {changes}"[:200]
        kind = self.event_kind(record.kind)
        return kind.label if kind else record.kind

    def sheet_context(self, sheet, view):
        return sheets.ledger_context(self, view)

    def blank_sheet(self, sheet):
        return sheets.blank_ledger() if sheet == "ledger" else None

    # --- forms and words (forms.py, sheets.py, the panel) ---------------------------------------
    supplied_label = "Supplied"
    supplied_help = "The side holding it traces a supply path from it."

    def turn_locations(self, pub: dict) -> list[dict]:
        """The locations a turn form lists (every location of the set-up by default)."""
        return [loc for loc in pub["setup"]["locations"] if loc["id"] in pub["locations"]]

    def location_words(self, loc: dict) -> str:
        """What a location is worth, in words ("2 VP, German scores it")."""
        return ""

    def unit_words(self, unit: dict) -> list[str]:
        return []

    def changes_for(self, pub: dict, turn: dict) -> tuple[str, ...]:
        return self.unit_changes

    def unit_change_form_fields(self, pub: dict, turn: dict, sub: dict) -> list:
        return []

    def turn_extra_form_fields(self, pub: dict, turn: dict, fields: dict) -> list:
        return [f for f in self.turn_extra_fields]

    def own_form_fields(self, view, side, kind, initial, declared):
        return None

    def param_form_field(self, field, setup: dict):
        if field.name == "copied_from":
            return field.but(default=setup["params"].get("copied_from", ""), widget="hidden")
        return field.but(default=setup["params"].get(field.name, field.default))

    def score_text(self, entry: dict) -> str:
        return "; ".join(
            f"{self.book.side_name(side)} {value}" for side, value in entry["scores"].items()
        )

    def scenario_name_of(self, slug: str) -> str:
        info = self.book.scenario(slug)
        return f"{info['name']} ({info['rule']})" if info.get("rule") else info["name"]

    def change_words(self, change: str) -> str:
        return CHANGES[change][2]
