"""Skirmish: a tiny game that exists only to exercise the core interface.

Two sides play a few rounds. Before each round each side makes a secret supply
roll (table "supply", -1 if it lost the previous round), may buy reinforcements
with supply points (at most 2 per round: a limit to enforce), and both choose a
stance as a sealed choice. A round's result is the score of each side.
"""

from pathlib import Path

from campaigns.game_interface import (
    Action,
    DomainError,
    EventKind,
    Field,
    GameSystem,
    Mod,
    SheetDef,
    SideDef,
    StepStatus,
    UpcomingRoll,
    Variant,
    advance,
    open_sealed,
    roll_on,
)


class Skirmish(GameSystem):
    slug = "skirmish"
    name = "Skirmish (test system)"
    event_prefix = "skirmish"
    data_dir = Path(__file__).parent
    sides = (SideDef("red", "Red"), SideDef("blue", "Blue"))
    variants = (
        Variant("short", "Short campaign", ("Round 1", "Round 2", "Round 3")),
        Variant("duel", "One round", ("Only round",)),
    )
    option_fields = (Field("starting_supply", "int", min=0, max=10, required=False, default=2),)
    result_fields = (Field("red", "int", min=0), Field("blue", "int", min=0))
    event_kinds = (
        EventKind("skirmish.supply", "Supply roll", audience="side", rule="T.2"),
        EventKind(
            "skirmish.buy",
            "Buy reinforcements",
            (Field("count", "int", min=1),),
            audience="side",
            rule="T.3",
        ),
    )
    comparison_columns = ("Red wins", "Blue wins")
    sheets = (
        SheetDef("summary", "Campaign summary", "public", "sheets/summary.html"),
        SheetDef("supply", "Supply record", "side", "sheets/table.html"),
        SheetDef("umpire", "Referee notes", "referee", "sheets/table.html"),
    )

    def constants(self):
        return {
            "buy.max_per_round": {"value": 2, "rule": "T.3", "label": "Reinforcements per round"}
        }

    def initial_state(self, variant, options, ctx):
        supply = options.get("starting_supply", 2)
        return {
            "public": {"wins": {"red": 0, "blue": 0}, "lost_last": {}, "stances": []},
            "sides": {
                s: {"supply": supply, "bought": 0, "rolls": [], "done": []} for s in ("red", "blue")
            },
            "referee": {},
        }

    def _round(self, state):
        return state["current"]

    def apply(self, state, record, ctx):
        side = record.side
        if not side:
            raise DomainError("side", "Act for a side.")
        private = state["game"]["sides"][side]
        rnd = self._round(state)
        if rnd is None:
            raise DomainError("kind", "No round is being prepared.")
        if record.kind == "skirmish.supply":
            if f"supply:{rnd}" in private["done"]:
                raise DomainError("kind", "Supply has already been rolled for this round.")
            report = roll_on(
                ctx, "supply", f"{rnd}/supply/{side}", self._supply_mods(state, side), side=side
            )
            private["supply"] += report["result"]["points"]
            private["rolls"].append(report)
            private["done"].append(f"supply:{rnd}")
            if all(f"supply:{rnd}" in state["game"]["sides"][s]["done"] for s in ("red", "blue")):
                open_sealed(state, f"stance:{rnd}", "Stance", ["red", "blue"], ["attack", "hold"])
        elif record.kind == "skirmish.buy":
            count = record.data["count"]
            limit = ctx.value("buy.max_per_round")
            if private["bought"] + count > limit:
                raise DomainError("count", f"At most {limit} reinforcements per round (T.3).")
            if count > private["supply"]:
                raise DomainError("count", "Not enough supply points.")
            private["supply"] -= count
            private["bought"] += count

    def _supply_mods(self, state, side):
        return (
            [Mod("Lost the previous round", "T.2", -1)]
            if state["game"]["public"]["lost_last"].get(side)
            else []
        )

    def on_sealed_revealed(self, state, key, choices, ctx):
        state["game"]["public"]["stances"].append({"round": state["current"], **choices})

    def result_open(self, state, index):
        if (
            f"stance:{index}" not in state["sealed"]
            or not state["sealed"][f"stance:{index}"]["revealed"]
        ):
            return "Both sides roll supply and choose a stance first."
        return None

    def on_result(self, state, index, result, ctx):
        public = state["game"]["public"]
        if result["red"] != result["blue"]:
            winner = "red" if result["red"] > result["blue"] else "blue"
            loser = "blue" if winner == "red" else "red"
            public["wins"][winner] += 1
            public["lost_last"] = {loser: True}
        else:
            public["lost_last"] = {}
        for private in state["game"]["sides"].values():
            private["bought"] = 0
        advance(state, ctx)

    def on_calendar_end(self, state, ctx):
        from campaigns.game_interface import finish

        wins = state["game"]["public"]["wins"]
        winner = None if wins["red"] == wins["blue"] else max(wins, key=wins.get)
        finish(state, winner, "All rounds played.")

    def actions(self, state, side):
        rnd = state["current"]
        if state["status"] != "active" or rnd is None or side is None:
            return []
        done = state["game"]["sides"][side]["done"]
        if f"supply:{rnd}" not in done:
            return [Action("skirmish.supply", "Roll for supply", side, "T.2")]
        return [Action("skirmish.buy", "Buy reinforcements", side, "T.3")]

    def procedure(self, state, sides):
        rnd = state["current"]
        if rnd is None or state["game"] is None:
            return []
        steps = []
        for side in ("red", "blue"):
            done = f"supply:{rnd}" in state["game"]["sides"][side]["done"]
            steps.append(
                StepStatus(
                    f"supply:{side}", "Supply roll", "T.2", side, "done" if done else "current"
                )
            )
        return steps

    def upcoming_rolls(self, state, side, ctx):
        rnd = state["current"]
        if rnd is None or f"supply:{rnd}" in state["game"]["sides"][side]["done"]:
            return []
        mods = tuple((m.label, m.rule, m.value) for m in self._supply_mods(state, side))
        return [UpcomingRoll(f"{rnd}/supply/{side}", "Supply roll", "supply", mods, "points")]

    def roll_label(self, view, key):
        side = key.rsplit("/", 1)[-1]
        return f"Supply roll of {view['sides'].get(side, {}).get('name', side)}"

    def describe_roll(self, view, data):
        for private in ((view.get("game") or {}).get("sides") or {}).values():
            for report in private["rolls"]:
                if report["key"] == data.get("key"):
                    points = report["result"]["points"]
                    return f"{self.roll_label(view, data['key'])}: {report['final']} → {points} supply points"
        return None

    def sheet_context(self, sheet, view):
        """Sheets print from `view` (the audience's cut): a side's supply, the referee's notes."""
        game = view["game"] or {"sides": {}}
        if sheet == "supply":
            rows = [
                [side, private["supply"], private["bought"], len(private["rolls"])]
                for side, private in sorted(game["sides"].items())
            ]
            return {
                "tables": [
                    {
                        "title": "Supply",
                        "columns": ["Side", "Supply points", "Bought this round", "Supply rolls"],
                        "rows": rows,
                    }
                ]
            }
        if sheet == "umpire":
            rows = [[side, private["supply"]] for side, private in sorted(game["sides"].items())]
            return {
                "tables": [
                    {
                        "title": "Every side's supply",
                        "columns": ["Side", "Supply points"],
                        "rows": rows,
                    }
                ]
            }
        return {}

    def comparison_row(self, view):
        """The club page compares the club's Skirmish campaigns by their public wins."""
        if view["game"] is None:
            return None
        wins = view["game"]["public"]["wins"]
        return (wins["red"], wins["blue"])

    def standings(self, state):
        if state["game"] is None:
            return []
        return [
            {"side": s, "label": "Wins", "value": n}
            for s, n in state["game"]["public"]["wins"].items()
        ]


SYSTEM = Skirmish()
