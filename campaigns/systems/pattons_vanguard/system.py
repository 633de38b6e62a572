"""Patton's Vanguard as a Muster game system: a victory ledger (campaigns/systems/victory_ledger)
with the Advantage, Replacement Points, bids and the Scenario 2 withdrawals of its own."""

from __future__ import annotations

from pathlib import Path

from campaigns.game_interface import Action, DomainError, EventKind, Field, StepStatus
from campaigns.systems.victory_ledger.system import LedgerSystem

from . import advantage, upgrades, victory
from .shapes import public

HERE = Path(__file__).parent
SIDES = (("german", "German"), ("american", "American"))
ADVANTAGE_CHOICES = (("german", "German"), ("american", "American"))


class PattonsVanguard(LedgerSystem):
    slug = "pattons_vanguard"
    name = "Patton's Vanguard"
    event_prefix = "pv"
    book_path = HERE / "book.yaml"
    description = (
        "The Battle of Arracourt, September 1944: two four-turn scenarios scored by the German's VP; "
        "automatic victories, the Advantage, operational victory after turn 4."
    )
    setup_rule = "5.2, 18.2"
    turn_rule = "6.5, 18"
    journal_version = 3
    confirmed_from = 3
    journal_upgrades = upgrades.STEPS
    sheet_template = "pattons_vanguard/sheets/ledger.html"
    unit_changes = ("eliminated", "reduced", "restored", "rebuilt")
    location_sub_fields = (
        Field("value", "int", label="VP", min=0, max=10, required=False, default=0),
        Field(
            "start",
            "choice",
            label="Held at the start",
            choices=("german", "american"),
            labels=SIDES,
            required=False,
            default="american",
        ),
    )
    unit_sub_fields = (
        Field("factors", label="Factors", required=False, default="", max_length=12),
        Field(
            "artillery",
            "bool",
            label="Artillery",
            required=False,
            default=False,
            help="Eliminated artillery is never rebuilt (15.6.5, 19.4.4).",
        ),
        Field(
            "withdraws",
            "bool",
            label="Withdraws (19.6)",
            required=False,
            default=False,
            help="Marked with a white asterisk: leaves the map at the end of Scenario 2's turn 1.",
        ),
    )
    turn_extra_fields = (
        Field(
            "advantage_refit",
            "choice",
            label="Held the Advantage when the Refit Phase began",
            choices=("german", "american"),
            labels=ADVANTAGE_CHOICES,
            required=False,
            default=None,
            help="Pre-filled with who held it at the end of the last turn; if it was used during the Daylight "
            "Phase it went to the other player (16.2).",
        ),
        Field(
            "advantage",
            "choice",
            label="Holds the Advantage in the End Phase",
            choices=("german", "american"),
            labels=ADVANTAGE_CHOICES,
            required=False,
            default=None,
            help="16; after it is spent it goes to the other player (16.2).",
        ),
        Field(
            "advantage_rp",
            "choice",
            label="Spent the Advantage for one more RP in the Refit Phase",
            choices=("german", "american"),
            labels=ADVANTAGE_CHOICES,
            required=False,
            default=None,
            help="16.1D: only the player who held it when the Refit Phase began, never on turn 4; the other "
            "player then holds it in the End Phase (16.2).",
        ),
        Field(
            "supply_through_8",
            "bool",
            label="German supply line through Area 8",
            required=False,
            default=False,
            help="From Area 7 or 25, through Area 8, to the southern or eastern map edge (18.1).",
        ),
    )
    option_fields = (
        Field(
            "bids",
            "bool",
            label="Sides are bid for (20.1)",
            required=False,
            default=False,
            help="Both players want the Germans: each bids in secret the VP the German will need.",
        ),
        Field(
            "map_vp_needs_supply",
            "bool",
            label="18.1 'VP on the map' counts only supplied areas",
            required=False,
            default=False,
            help="Off: every VP area the German controls counts (rules notes PV-4).",
        ),
        Field(
            "both_automatic",
            "choice",
            label="If both automatic victories happen at once (18.1)",
            choices=("play_on", "german", "american"),
            required=False,
            default="play_on",
            labels=(
                ("play_on", "They cancel out; play on"),
                ("german", "The German one stands"),
                ("american", "The American one stands"),
            ),
        ),
    )
    supplied_help = (
        "German areas: a supply line to a German supply source (15.3); VP count only then (18.2)."
    )

    def own_kinds(self):
        return (
            EventKind(
                "pv.advantage",
                "Advantage decision",
                (
                    Field(
                        "use",
                        "choice",
                        label="The Advantage",
                        choices=("spend", "keep"),
                        widget="radios",
                        labels=(
                            ("spend", "Spend it: cancel the automatic victory and play on"),
                            ("keep", "Keep it: the automatic victory stands"),
                        ),
                    ),
                ),
                rule="16.1E",
            ),
        )

    # --- the fold -----------------------------------------------------------------------------
    def start(self, game, ctx):
        advantage.start(self, game, ctx)

    def apply_own(self, state, record, ctx):
        if record.kind == "pv.advantage":
            advantage.decide(self, state, record, ctx)
        else:
            super().apply_own(state, record, ctx)

    def on_sealed_revealed(self, state, key, choices, ctx):
        if key == advantage.BID_KEY:
            advantage.on_bids(self, state, choices)

    def check_setup(self, state, setup, ctx):
        ids = {loc["id"] for loc in setup["locations"]}
        for area in (*victory.AUTO_AREAS, *victory.CONTESTED_AREAS):
            if area not in ids:
                raise DomainError(
                    "locations", f"Area {area} is needed: the victory rules name it (18.1, 18.3)."
                )

    def check_unit_change(self, state, unit, change, row, turn, path, ctx):
        scenario = public(state)["scenario"]
        if (
            change == "rebuilt"
            and unit.get("artillery")
            and (unit["side"] == "american" or scenario == "s2")
        ):
            rule = "15.6.5" if unit["side"] == "american" else "19.4.4"
            raise DomainError(
                f"{path}.change",
                f"{unit['name']} is artillery: once eliminated it is not rebuilt ({rule}).",
            )
        if (
            change == "rebuilt"
            and unit.get("withdraws")
            and scenario == "s2"
            and turn["number"] > 1
        ):
            raise DomainError(
                f"{path}.change",
                f"{unit['name']} was due to withdraw: eliminated, it could only be "
                f"rebuilt in turn 1's Refit Phase and is now eliminated for good "
                f"(19.6).",
            )
        return None

    def apply_turn_extras(self, state, turn, data, events, ctx):
        return advantage.apply_turn(self, state, turn, data, ctx)

    def evaluate(self, state, turn, ctx):
        return victory.evaluate(self, state, turn)

    def waiting_for(self, state):
        if advantage.bids_pending(state):
            return "Both sides bid first (20.1)."
        return super().waiting_for(state)

    def coming(self, state):
        return advantage.coming(self, state)

    # --- reading ------------------------------------------------------------------------------
    def own_actions(self, state, side):
        decision = public(state).get("decision")
        if public(state)["phase"] == "decision" and decision and decision["side"] == side:
            return [
                Action(
                    "pv.advantage",
                    "Spend the Advantage to play on, or accept the automatic victory",
                    side,
                    "16.1E",
                    decision["text"],
                    button="Decide",
                )
            ]
        return []

    def own_steps(self, state):
        steps = []
        if state["options"].get("bids"):
            pending = advantage.bids_pending(state)
            bid = public(state).get("bid")
            steps.append(
                StepStatus(
                    "bids",
                    "Bids for the German side",
                    "20.1",
                    None,
                    "current" if pending else "done",
                    bid["text"] if bid else "",
                )
            )
        decision = public(state)["decision"]
        if public(state)["phase"] == "decision" and decision is not None:
            steps.append(
                StepStatus(
                    "advantage",
                    "Spend the Advantage or accept the automatic victory",
                    "16.1E",
                    decision["side"],
                    "current",
                    decision["text"],
                )
            )
        return steps

    def turn_extra_form_fields(self, pub, turn, fields):
        # The End Phase holder follows from these two (PV-12): it is not asked.
        out = [fields["advantage_refit"].but(default=pub["advantage"], group="The Advantage")]
        if turn["number"] != 4:
            out.append(fields["advantage_rp"].but(group="The Advantage"))
        if turn["number"] in (2, 3, 4):
            out.append(fields["supply_through_8"].but(group="Automatic victory"))
        return out

    def location_words(self, loc):
        if loc["id"] in victory.AUTO_AREAS:
            return "German automatic victory (18.1)"
        words = f"{loc['value']} VP" if loc.get("value") else ""
        if loc["id"] in victory.CONTESTED_AREAS:
            words += ", 1 VP contested (18.3)"
        return words

    def unit_words(self, unit):
        return [
            unit.get("factors") or "",
            "artillery" if unit.get("artillery") else "",
            "withdraws (19.6)" if unit.get("withdraws") else "",
        ]

    def standings(self, state):
        game = state.get("game")
        if game is None or game["public"]["phase"] == "setup":
            return []
        pub, count = game["public"], victory.tally(self, state)
        threshold, _ = victory.operational_threshold(self, state)
        return [
            {
                "side": "german",
                "label": f"VP now (18.2; {threshold} wins after turn 4)",
                "value": count.total,
            },
            {"side": "german", "label": "VP on the map (18.1)", "value": count.map_vp},
            {"side": pub["advantage"], "label": "Holds the Advantage (16)", "value": "yes"},
        ]

    def score_text(self, entry):
        german = entry["scores"].get("german")
        return f"German {german} VP" if german is not None else ""

    def chart_spec(self, state):
        pub = public(state)
        threshold, rule = victory.operational_threshold(self, state)
        turns = [(t["label"], f"T{t['number']}") for t in pub["turns"]]
        marks = [
            (t["label"], self.value(state, f"vp.american_auto.{t['number']}"), "18.1")
            for t in pub["turns"]
            if t["number"] in (1, 2, 3)
        ]
        return {
            "title": "German VP by turn",
            "turns": turns,
            "series": [("vp", "German VP (18.2)"), ("map", "VP on the map (18.1)")],
            "lines": [(threshold, f"{threshold} VP: operational victory ({rule})")],
            "marks": marks,
            "signed": None,
        }

    def demo(self, table):
        from .demo import build_demo

        return build_demo(table)


SYSTEM = PattonsVanguard()
