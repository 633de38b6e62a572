"""FAB: The Bulge as a Muster game system: a victory ledger (campaigns/systems/victory_ledger)
whose game length, sudden-death values and end-of-game result the organizer enters."""

from __future__ import annotations

from pathlib import Path

from campaigns.game_interface import Action, DomainError, EventKind, Field, StepStatus
from campaigns.systems.victory_ledger import confirmation, ledger
from campaigns.systems.victory_ledger.ledger import public
from campaigns.systems.victory_ledger.model import Outcome, turn
from campaigns.systems.victory_ledger.system import LedgerSystem

from . import upgrades, victory

HERE = Path(__file__).parent
SIDES = (("german", "German"), ("allied", "Allied"))
SYMBOLS = (
    ("none", "No VP symbol"),
    ("white_stars", "White stars: German VP"),
    ("german_symbols", "German symbols: Allied VP"),
    ("yellow_star", "Yellow star: VP to whoever holds it"),
)
END_RULES = (
    ("entered", "Entered when the last turn is played"),
    ("advantaged", "The advantaged player wins (level 0: a draw)"),
)
MAX_TURNS = 40


class FabBulge(LedgerSystem):
    slug = "fab_bulge"
    name = "FAB: The Bulge"
    event_prefix = "fab"
    book_path = HERE / "book.yaml"
    description = (
        "Fast Action Battles: The Bulge: objective areas and eliminated large units, the VP level and "
        "sudden death from turn 4 against the values of the Turn Record Chart."
    )
    setup_rule = "19"
    turn_rule = "19.3, 19.4"
    journal_version = 2
    journal_upgrades = upgrades.STEPS
    confirmed_kinds = ("turn", "final")
    confirmed_from = 2
    sheet_template = "fab_bulge/sheets/ledger.html"
    location_sub_fields = (
        Field(
            "symbol",
            "choice",
            label="VP symbols",
            choices=tuple(s for s, _ in SYMBOLS),
            labels=SYMBOLS,
            required=False,
            default="none",
        ),
        Field(
            "value",
            "int",
            label="VP",
            min=0,
            max=9,
            required=False,
            default=0,
            help="How many symbols are printed (a yellow star: 1).",
        ),
        Field(
            "start",
            "choice",
            label="Held at the start",
            choices=("german", "allied"),
            labels=SIDES,
            required=False,
            default="allied",
        ),
    )
    unit_sub_fields = (
        Field(
            "steps",
            "int",
            label="Steps",
            min=0,
            max=9,
            required=False,
            default=0,
            help="Steps on the unit label; three or more make a large unit (19.2).",
        ),
        Field(
            "may_return",
            "bool",
            label="May come back from the track (17.23)",
            required=False,
            default=False,
            help="The US 1st and 4th Infantry Divisions' arriving regiments.",
        ),
    )
    param_fields = (
        Field(
            "first_turn", "int", label="First turn", min=1, max=MAX_TURNS, required=False, default=1
        ),
        Field(
            "last_turn",
            "int",
            label="Last turn",
            min=1,
            max=MAX_TURNS,
            help="The scenario's length is not in the play book's text: as your scenario card says.",
        ),
        Field(
            "end_rule",
            "choice",
            label="If no sudden death by the last turn",
            choices=tuple(e for e, _ in END_RULES),
            labels=END_RULES,
            required=False,
            default="entered",
        ),
        Field(
            "thresholds",
            "list",
            label="Sudden death: net VP on the Turn Record Chart",
            required=False,
            default=[],
            max=MAX_TURNS,
            item=Field(
                "row",
                "object",
                fields=(
                    Field("turn", "int", label="Turn", min=1, max=MAX_TURNS),
                    Field(
                        "german", "int", label="German", min=1, max=99, required=False, default=None
                    ),
                    Field(
                        "allied", "int", label="Allied", min=1, max=99, required=False, default=None
                    ),
                ),
            ),
            help="Each side's net VP for a sudden death victory in that turn (19.4); blank: none.",
        ),
    )
    supplied_help = (
        "A valid supply path (9.1): VP count only for a controlled and supplied area (19.1)."
    )

    def own_kinds(self):
        return (
            EventKind(
                "fab.final",
                "End-of-game result entered",
                (
                    Field(
                        "winner",
                        "choice",
                        label="Result",
                        choices=("german", "allied", "draw"),
                        labels=(
                            ("german", "German victory"),
                            ("allied", "Allied victory"),
                            ("draw", "A draw"),
                        ),
                    ),
                    Field("reason", label="As your scenario's rules have it", max_length=300),
                ),
                rule="24",
            ),
        )

    # --- the fold -----------------------------------------------------------------------------
    def calendar(self, state, setup):
        params = setup["params"]
        return [
            turn(f"Turn {n}", "day", n)
            for n in range(params["first_turn"], params["last_turn"] + 1)
        ]

    def check_setup(self, state, setup, ctx):
        params = setup["params"]
        first, last = params["first_turn"], params["last_turn"]
        if last < first:
            raise DomainError("last_turn", f"The last turn comes before the first ({first}).")
        seen = set()
        for i, row in enumerate(params.get("thresholds") or []):
            if row["turn"] in seen:
                raise DomainError(f"thresholds[{i}].turn", f"Turn {row['turn']} is given twice.")
            seen.add(row["turn"])
            if not first <= row["turn"] <= last:
                raise DomainError(
                    f"thresholds[{i}].turn",
                    f"Turn {row['turn']} is not played (turns {first}–{last}).",
                )
        params["thresholds"] = [
            r for r in params.get("thresholds") or [] if r["german"] or r["allied"]
        ]

    def check_unit_change(self, state, unit, change, row, turn, path, ctx):
        big = self.value(state, "large_unit.steps")
        if change == "rebuilt" and (unit.get("steps") or 0) >= big and not unit.get("may_return"):
            raise DomainError(
                f"{path}.change",
                f"{unit['name']} is a large unit: only the US 1st and 4th Infantry "
                f"Divisions come back from the Eliminated Large Units Track (17.23).",
            )
        return None

    def evaluate(self, state, turn, ctx):
        return victory.evaluate(self, state, turn)

    def after_last_turn(self, state, ctx):
        pub = public(state)
        if pub["setup"]["params"].get("end_rule") == "advantaged":
            side, value = victory.level(pub["ledger"][-1]["scores"])
            text = (
                f"The last turn ends with the {self.book.side_name(side)} advantaged at VP level {value}"
                if side
                else "The last turn ends at VP level 0: a draw"
            )
            ledger.end_game(self, state, Outcome(side, text, "set-up: end of game"), ctx)
        else:
            pub["phase"] = "final"

    def apply_own(self, state, record, ctx):
        if record.kind != "fab.final":
            return super().apply_own(state, record, ctx)
        pub = public(state)
        if pub["phase"] != "final":
            raise DomainError(
                "winner",
                "The result is entered once the last turn has been played without a "
                "sudden death victory.",
            )
        winner = None if record.data["winner"] == "draw" else record.data["winner"]
        ledger.end_game(
            self, state, Outcome(winner, record.data["reason"], "end of game, entered"), ctx
        )

    def waiting_for(self, state):
        if public(state)["phase"] == "final" and not confirmation.held(state):
            return "The last turn has been played: enter the end-of-game result."
        return super().waiting_for(state)

    def coming(self, state):
        pub = public(state)
        turn = ledger.next_turn(pub)
        if turn is None:
            return []
        if turn["number"] < self.value(state, "sudden_death.from"):
            return [
                ["Sudden death", f"not before turn {self.value(state, 'sudden_death.from')} (19.4)"]
            ]
        values = [
            f"{self.book.side_name(s)} {victory.threshold(pub, turn['number'], s)}"
            for s in self.side_slugs()
            if victory.threshold(pub, turn["number"], s)
        ]
        return [
            [
                "Sudden death",
                f"in {turn['label']} at a VP level of {', '.join(values)} (19.4)"
                if values
                else f"no value entered for {turn['label']} (19.4)",
            ]
        ]

    # --- reading ------------------------------------------------------------------------------
    def own_actions(self, state, side):
        if public(state)["phase"] == "final" and not confirmation.held(state):
            return [
                Action(
                    "fab.final",
                    "Enter the end-of-game result",
                    side,
                    "24",
                    "No sudden death happened; the result follows your scenario's rules.",
                    button="Enter the result",
                )
            ]
        return []

    def own_steps(self, state):
        if public(state)["phase"] == "final":
            return [StepStatus("final", "Enter the end-of-game result", "24", None, "current")]
        return []

    def own_form_fields(self, view, side, kind, initial, declared):
        if kind == "fab.final":
            return (declared[0].but(widget="radios"), declared[1])
        return None

    def param_form_field(self, field, setup):
        if field.name != "thresholds":
            return super().param_form_field(field, setup)
        rows = list(setup["params"].get("thresholds") or [])
        given = {r["turn"] for r in rows}
        rows += [
            {"turn": n, "german": None, "allied": None} for n in range(4, 10) if n not in given
        ]
        return field.but(
            rows=tuple(sorted(rows, key=lambda r: r["turn"])), widget="rows", group="Sudden death"
        )

    def turn_locations(self, pub):
        return [
            loc
            for loc in pub["setup"]["locations"]
            if loc.get("symbol") not in (None, "none")
            and loc.get("value")
            and loc["id"] in pub["locations"]
        ]

    def location_words(self, loc):
        symbol = dict(SYMBOLS).get(loc.get("symbol") or "none", "")  # a choice of the set-up's form
        if not loc.get("value") or loc.get("symbol") in (None, "none"):
            return ""
        return f"{loc['value']} VP, {symbol.split(':')[0].lower()}"

    def unit_words(self, unit):
        steps = unit.get("steps") or 0
        return [
            f"{steps} steps" if steps else "steps not entered",
            "may come back (17.23)" if unit.get("may_return") else "",
        ]

    def standings(self, state):
        game = state.get("game")
        if game is None or game["public"]["phase"] == "setup":
            return []
        totals, _ = victory.scores(self, state)
        side, value = victory.level(totals)
        out = [{"side": s, "label": "VP (19.3)", "value": totals[s]} for s in ("german", "allied")]
        if side:
            out.append({"side": side, "label": "Advantaged: VP level", "value": value})
        return out

    def score_text(self, entry):
        level = entry.get("level") or {}
        scores = entry["scores"]
        text = f"German {scores.get('german')}, Allied {scores.get('allied')}"
        if level.get("side"):
            text += f"; level {level['value']} {self.book.side_name(level['side'])}"
        return text

    def chart_spec(self, state):
        pub = public(state)
        turns = [(t["label"], f"T{t['number']}") for t in pub["turns"]]
        marks = []
        for row in pub["setup"]["params"].get("thresholds") or []:
            label = f"Turn {row['turn']}"
            if row.get("german"):
                marks.append((label, row["german"], "German sudden death"))
            if row.get("allied"):
                marks.append((label, -row["allied"], "Allied sudden death"))
        return {
            "title": "VP level by turn",
            "turns": turns,
            "series": [("level", "VP level")],
            "lines": [],
            "marks": marks,
            "signed": {"up": "German", "down": "Allied"},
        }

    def demo(self, table):
        from .demo import build_demo

        return build_demo(table)


SYSTEM = FabBulge()
