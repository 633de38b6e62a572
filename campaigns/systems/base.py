"""What a game system provides to the core.

A game system is one package under campaigns/systems/ (or listed in the
MUSTER_EXTRA_SYSTEMS setting) exposing ``SYSTEM``, an instance of a GameSystem
subclass. Its hooks are pure functions of the campaign state (a JSON-able dict);
the core folds the journal through them and never knows a particular game.

The game's own state lives in ``state["game"]`` and follows one convention so
that one visibility function can cut it per viewer:

    {"public": {...}, "sides": {"<side>": {...}}, "referee": {...}}

Everything under "sides.<side>" is private to that side (and the referee).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from campaigns.dice.tables import BoundTable, CellValue, TableSet
from campaigns.journal.progress import Moving, advance
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import GameState, HeldState, StateView
from campaigns.schema.fields import EventKind, Field

if TYPE_CHECKING:  # only named in a signature: the demo's campaign
    from campaigns.models import Campaign

# An event to send with another, in the same request: (kind, data).
EventToSend = tuple[str, dict[str, Any]]


class FoldContext(Protocol):
    """What a hook may use of the fold's context (campaigns.journal.context.Ctx, which the core
    hands in; that module and campaigns.versions name GameSystem, so this one names them by what
    they offer): the event being applied, the state, the tables and constants with the house
    rules applied, the rolls, and the version of the game's journal the event folds under."""

    @property
    def system(self) -> GameSystem: ...

    @property
    def record(self) -> Record: ...

    @property
    def state(self) -> dict[str, Any]: ...

    @property
    def journal_version(self) -> int: ...

    def table(self, table_id: str) -> BoundTable: ...

    def constant(self, key: str) -> CellValue: ...

    def value(self, key: str) -> Any: ...

    def roll(self, key: str, expr: str, side: str = "") -> list[int]: ...


class DemoTable(Protocol):
    """The table a game's demo plays at (campaigns.services.demo.DemoTable, through the services,
    so that a game imports none): see GameSystem.demo."""

    campaign: Campaign | None

    def create(
        self, *, variant: str, name: str, options: dict[str, Any] | None = None
    ) -> Campaign: ...

    def seat(self, side: str, role: str) -> None: ...

    def referee(self, role: str) -> None: ...

    def submit(
        self, role: str, kind: str, data: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def state(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class SideDef:
    slug: str
    name: str


@dataclass(frozen=True)
class Variant:
    slug: str
    name: str
    calendar: tuple[str, ...]  # labels of the campaign's rounds, in order
    description: str = ""


@dataclass(frozen=True)
class Action:
    """Something a side (or the referee) can do now: an event kind to submit. The game's
    (GameSystem.actions) and the core's to-dos are the same class: selectors.todos.actions_for
    gives each the side it is offered for and the label the viewer reads."""

    kind: str
    label: str
    side: str | None = None
    rule: str = ""
    help: str = ""
    initial: dict[str, Any] = field(default_factory=dict)  # suggested data for the form
    optional: bool = False  # offered, but nothing waits for it (not a to-do on the dashboard)
    button: str = ""  # the words on the form's button ("Roll", "Done buying")
    # A field picked first, on its own (the unit to change): the page asks for it alone, then
    # opens the form with it in `initial` so that form_fields can fill the rest from it
    # (its current values). Works without JavaScript: the pick is a plain GET form.
    choose: str = ""
    choose_button: str = ""  # the words on the pick's button ("Open this unit")
    links: tuple[
        tuple[str, str], ...
    ] = ()  # ((words, href relative to the campaign page), ...) shown with the help
    # The referee acts for each side: the words he reads ("End of 5/29A: what happened to the
    # Allied units"); by default "<Side>: <label>".
    referee_label: str = ""
    joint: bool = False  # either side does it for both: the referee is offered it once
    # Events sent after this one by a second button, in the same request and transaction ("Buy and
    # finish buying" is the purchase then "Done buying"): ((kind, data), ...).
    then: tuple[EventToSend, ...] = ()
    then_button: str = ""
    # Events sent before this one by either button, in the same transaction: a "Continue" (steps
    # with nothing to decide) folded into the decision that follows it.
    before: tuple[EventToSend, ...] = ()
    # A long form (the end of a scenario, one row per unit) is a page of its own: the campaign page
    # links to it (``?do=<id>``) and never sends its markup, which keeps the campaign page light.
    own_page: bool = False
    # That page first asks, on its own (a plain GET form), which rows of this list field to fill
    # in, grouped (GameSystem.pick_groups); the others keep the common answer. The game's words for
    # that screen: its help, its button, and what it says when there is nothing to pick.
    pick: str = ""
    pick_help: str = ""
    pick_button: str = ""
    pick_empty: str = ""


@dataclass(frozen=True)
class StepStatus:
    """One line of the between-game procedure, for a side's checklist."""

    id: str
    label: str
    rule: str
    side: str | None  # None: a step for both sides / the public
    status: str  # done | current | waiting | skipped
    detail: str = ""


@dataclass(frozen=True)
class UpcomingRoll:
    """A roll a side will make, for the odds panel: table + modifiers now."""

    key: str
    label: str
    table: str
    modifiers: tuple[tuple[str, str, int], ...]  # (label, rule, value)
    column: str | None = None


@dataclass(frozen=True)
class SheetDef:
    slug: str
    name: str
    audience: str  # public | side | referee
    template: str
    landscape: bool = False


@dataclass(frozen=True)
class RosterKind:
    slug: str
    name: str
    fields: tuple[str, ...] = ()


class GameSystem:
    slug: str = ""
    name: str = ""
    event_prefix: str = ""  # every event kind of the system starts with "<prefix>."
    sides: tuple[SideDef, ...] = ()
    variants: tuple[Variant, ...] = ()
    event_kinds: tuple[EventKind, ...] = ()
    option_fields: tuple[
        Field, ...
    ] = ()  # schema.Field list of campaign options chosen at creation
    result_fields: tuple[Field, ...] = ()  # schema.Field list of a scenario result
    roster_kinds: tuple[RosterKind, ...] = ()
    sheets: tuple[SheetDef, ...] = ()
    # The game's own templates, named "<game folder>/<file>" and kept in <game folder>/templates/
    # (campaigns/systems/template_loader.py): the campaign page's panel (none: the generic state)
    # and a records page linked from it (none: no such page).
    panel_template: str = ""
    records_template: str = ""
    data_dir: Path | None = None
    description: str = ""
    # Core event kinds whose form this game makes long (A!P!'s result: a row per objective hex):
    # drawn on a page of their own, as Action.own_page.
    long_forms: tuple[str, ...] = ()
    # False: house rules are fixed when the campaign starts (no late house-rule proposals),
    # e.g. so that a club's campaigns of a solitaire game stay comparable.
    late_house_rules: bool = True
    comparison_columns: tuple[str, ...] = ()  # headings of comparison_row's values (club page)
    # The version of this game's journal (docs/journal.md, "Versions and upgrades"): bumped when its
    # kinds, its sequence or what its rules accept change, with an upgrade step (campaigns.versions.
    # Upgrade) from the version before in journal_upgrades, and the new signature recorded in the
    # game's journal_versions.json (python manage.py journal_versions --record).
    journal_version: int = 1
    journal_upgrades: tuple[Any, ...] = ()  # campaigns.versions.Upgrade steps, oldest first
    # The newest version a journal written before journals said their versions (Muster 0.1.0 and
    # earlier) can be: such a file is never read as a later version whose rules it happens to fit.
    journal_version_before_versions: int = 1

    def __init__(self) -> None:
        self._tables = TableSet.load(self.data_dir / "tables") if self.data_dir else TableSet({})
        self._kinds = {k.name: k for k in self.event_kinds}

    # --- declarations --------------------------------------------------------------
    @property
    def tables(self) -> TableSet:
        return self._tables

    def variant(self, slug: str) -> Variant:
        for variant in self.variants:
            if variant.slug == slug:
                return variant
        raise KeyError(slug)

    def side_slugs(self) -> list[str]:
        return [s.slug for s in self.sides]

    def event_kind(self, name: str) -> EventKind | None:
        return self._kinds.get(name)

    def constants(self) -> dict[str, dict[str, Any]]:
        """key -> {"value", "rule", "label"}: numbers the rules state outside tables."""
        return {}

    def clean_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check the campaign's options against each other (each one is already clean on its own);
        raise DomainError naming the option ("options.enemy"). Called when the campaign is created
        and whenever its journal is folded."""
        return options

    def journal_sequence(self) -> tuple[str, ...]:
        """The game's step sequence as the journal depends on it (one line per step: its id, scope,
        kind …), for the journal signature (campaigns.versions.signatures): a step added, removed or moved
        changes which events a journal holds and where. Games without a sequence of their own: ()."""
        return ()

    def check_house_rule(self, key: str, value: Any) -> None:
        """Refuse a house-rule value the system could not use (DomainError on "value"). The core
        has already checked that `key` names a table cell or constant and that `value` has the
        book value's type."""

    # --- the fold ------------------------------------------------------------------
    def initial_state(self, variant: str, options: dict[str, Any], ctx: FoldContext) -> GameState:
        return {"public": {}, "sides": {s.slug: {} for s in self.sides}, "referee": {}}

    def apply(self, state: HeldState, record: Record, ctx: FoldContext) -> None:
        """Apply one of the system's own events to ``state`` in place, or raise DomainError."""
        raise NotImplementedError

    def clean_result(
        self, state: HeldState, index: int, data: dict[str, Any], ctx: FoldContext
    ) -> dict[str, Any]:
        """Validate a scenario result; return the cleaned data."""
        from campaigns.schema.fields import clean_fields

        return clean_fields(self.result_fields, data)

    def result_open(self, state: HeldState, index: int) -> str | None:
        """None if a result may be entered for scenario `index` now, else why not."""
        return None

    def on_result(
        self, state: HeldState, index: int, result: dict[str, Any], ctx: FoldContext
    ) -> None:
        """A scenario result was confirmed: update the game state. By default the
        next scenario starts at once; systems with a between-game procedure call
        advance themselves when it is done."""
        advance(state, ctx)

    def on_calendar_end(self, state: HeldState, ctx: Moving) -> None:
        """The last scenario is done and no victory condition ended the campaign:
        decide the winner (finish) or leave it to the core (no winner)."""

    def follow_ups(self, state: HeldState, record: Record) -> list[EventToSend]:
        """Events to append after a person's own event `record`, in the same submission and as
        that person: [(kind, data)], each folded like any event (so a journal file holds them
        too). E.g. the steps with nothing to decide that follow the one just done."""
        return []

    def on_sealed_revealed(
        self, state: HeldState, key: str, choices: dict[str, Any], ctx: FoldContext
    ) -> None:
        """All sides submitted a sealed choice; `choices` maps side -> choice."""

    def clean_sealed_choice(self, state: HeldState, key: str, choice: Any, ctx: FoldContext) -> Any:
        return choice

    # --- reading -------------------------------------------------------------------
    def actions(self, state: HeldState, side: str | None) -> list[Action]:
        return []

    def form_fields(
        self, view: StateView, side: str | None, kind: str, initial: dict[str, Any]
    ) -> tuple[Field, ...] | None:
        """The fields a person fills in to submit `kind` for `side` now, as a page shows them:
        the kind's declared fields made concrete from the campaign (``Field.but``): choices
        drawn from the side's own units, locations … with ``labels`` in words, ``rows``
        pre-filled with one row per candidate, defaults the rules compute. ``view`` is the
        state as the person asking may read it (visibility.view_state). None: the kind's
        declared fields as they are. Never a ``json`` field: a person never types JSON."""
        return None

    def correction_fields(
        self, view: StateView, side: str | None, kind: str, data: dict[str, Any]
    ) -> tuple[Field, ...] | None:
        """The fields of a correction of an earlier `kind` event whose data was `data` (the
        history page): the kind's declared fields with what they name (units, locations …) picked
        in words from anything the campaign knows, not only what today's form would offer. None:
        the declared fields as they are."""
        return None

    def procedure(self, state: HeldState, sides: frozenset[str]) -> list[StepStatus]:
        return []

    def upcoming_rolls(self, state: HeldState, side: str, ctx: FoldContext) -> list[UpcomingRoll]:
        return []

    def roster(self, state: HeldState) -> list[dict[str, Any]]:
        """Every unit/soldier of the campaign as roster entries:
        {"key", "side", "audience" ("public"|"side"), "kind", "name", "status", "data"}."""
        return []

    # True: `roster` reads nothing but the sides' private parts of the game (state["game"]["sides"]),
    # so an append that changes none of them leaves the roster as it was, and its rows are not
    # compared again (services.projections).
    roster_from_side_parts: bool = False

    def standings(self, state: HeldState) -> list[dict[str, Any]]:
        """Public standing per side: [{"side", "label", "value"}...]."""
        return []

    def pick_groups(
        self, view: StateView, side: str | None, kind: str, field: str
    ) -> list[dict[str, Any]]:
        """The rows a long form's list `field` offers (``Action.pick``), grouped for the page
        that picks them first: [{"title", "rows": [{"value", "label", "on"}]}]."""
        return []

    # True: the game charts its campaign over time (trend_point, trend_charts); the core folds the
    # journal once per audience position to collect the points (campaigns/selectors/trends.py).
    trends: bool = False

    def trend_point(self, view: StateView) -> tuple[str, dict[str, Any]] | None:
        """Where the campaign stands (its half-day, its turn …) and the numbers `view` (one
        audience's cut of the state after one event) shows there, as plain values copied out of
        it; the last point of each place is the one charted. None: nothing to chart yet."""
        return None

    def trend_charts(
        self, points: list[tuple[str, dict[str, Any]]], view: StateView
    ) -> list[dict[str, Any]]:
        """The charts (campaigns.charts.Chart) of `points` (trend_point's, in journal order) and
        `view`, the same audience's cut of the state now."""
        return []

    def panel_context(self, view: StateView) -> dict[str, Any]:
        """What the system's panel template (`panel_template`) shows, worked out
        from `view` (the viewer's cut) only: passed to it as `panel`."""
        return {}

    def waiting_on(self, state: HeldState) -> list[tuple[str | None, str]]:
        """Whom the game waits for beyond the core's waits (results, sealed choices, proposals):
        [(side or None, words)], readable by anyone in the club (never a side's secret)."""
        return []

    def pending_words(self, state: HeldState, index: int) -> str:
        """What waits for confirmation in scenario `index`, as the to-dos and waits name it
        ("the result of Scenario 1"; a victory ledger: "the German's record of Turn 2")."""
        return f"the result of {state['scenarios'][index]['label']}"

    def result_words(
        self,
        view: StateView,
        index: int,
        data: dict[str, Any] | None,
        ctx: FoldContext | None = None,
    ) -> list[str]:
        """A scenario result (pending or confirmed) in sentences for the timeline."""
        labels = {f.name: f.title for f in self.result_fields}
        return [
            f"{labels.get(k, k.replace('_', ' ').capitalize())}: {v}"
            for k, v in (data or {}).items()
            if v not in (None, "", [], False)
        ]

    def scenario_summary(self, state: HeldState, index: int) -> dict[str, Any]:
        """The public summary of one scenario (shown on timelines and sheets)."""
        scenario = state["scenarios"][index]
        return dict(scenario["result"] or {})

    def describe(self, record: Record) -> str:
        """One line for the campaign history: a sentence, never a key."""
        kind = self.event_kind(record.kind)
        return kind.label if kind else record.kind

    def suggested_data(self, kind: str, earlier: Iterable[tuple[str, HeldState]]) -> dict[str, Any]:
        """Values a page form of `kind` should start from beyond the campaign's own state (e.g. the
        set-up this club entered for its last campaign of the game); passed to form_fields as
        `initial`. `earlier`: (name, folded state) of the club's other campaigns of this game,
        newest first, each read when iterated (campaigns.services.suggested); a page shows the
        result to any member of the campaign's club."""
        return {}

    def form_data(
        self, view: StateView, side: str | None, kind: str, data: dict[str, Any]
    ) -> dict[str, Any]:
        """The data of an event from what its page form (``form_fields``) posted, when the page
        shows it differently from the journal's shape (e.g. one row per objective hex for two
        lists of hexes). By default the same."""
        return data

    def roll_label(self, view: StateView, key: str) -> str:
        """A roll's key in words for a person ("RG p1, French 1st Line Coy: strength DR"),
        from what ``view`` (the reader's cut of the state) holds."""
        return key

    def describe_roll(self, view: StateView, data: dict[str, Any]) -> str | None:
        """A recorded roll (the data of a dice.rolled event) as a sentence with its result
        ("RG p1, French 1st Line Coy: DR 7 → full strength"), or None for the core's words."""
        return None

    def submitted_words(self, view: StateView, record: Record) -> str | None:
        """What the person just did, as a sentence for the message shown right after it ("Bought
        RG I2 (1st Line Coy) for 5 CPP; 10 CPP left."), read from ``view``, the state after it as
        they may read it. None: "Done: <the to-do's words>."."""
        return None

    # The most units a side's record may hold (campaigns.journal.holdings; docs/architecture.md).
    max_units_per_side: int = 200

    def units_held(self, state: HeldState) -> dict[str, int]:
        """How many units each side's record holds ({side: count}), for the bound on what a
        campaign holds (`max_units_per_side`); {} for a game whose rules bound them already
        (Rifles' squad)."""
        return {}

    def history_text(self, record: Record, view: StateView) -> str | None:
        """A sentence for one journal entry of any kind but a die (``describe_roll``): a result,
        the system's own events, read from ``view`` (the reader's cut of the state after the
        whole journal); None for the default text (``describe``)."""
        return None

    def comparison_row(self, view: StateView) -> tuple[Any, ...] | None:
        """One campaign's values for ``comparison_columns``, for the club page's comparison of
        the club's campaigns of this system. ``view`` is the state as any club member may read
        it (visibility.view_state for a member playing no side). None: not shown."""
        return None

    def sheet_context(self, sheet: str, view: StateView) -> dict[str, Any]:
        """What a sheet prints, from `view` only: the state as the sheet's audience may read it
        (the full state is never handed over, so a sheet cannot print another side's secrets)."""
        return {}

    def blank_sheet(self, sheet: str) -> dict[str, Any] | None:
        """What `sheet` prints blank, to be filled in by hand at the table before any campaign
        exists: the keys `sheet_context` gives, with empty rows (as many as the game says where
        it does). None: this sheet has no blank (rosters.sheets.blank_sheets_of)."""
        return None

    # --- the demo (python manage.py load_demo) ---------------------------------------
    def demo(self, table: DemoTable) -> Campaign | None:
        """Play this system's demo campaign, in progress, in the demo club, at `table`
        (campaigns.services.demo.DemoTable): ``table.create(variant=, name=, options=)``,
        ``table.seat(side, role)``, ``table.referee(role)``, ``table.submit(role, kind, data)``
        (the state after it) and ``table.state()``, roles being "organizer", "alice", "bob" and
        "referee"; return the campaign (``table.campaign``). The table goes through the services,
        so a game imports none. Called only while the demo club has no campaign of this system."""
        return None
