"""Drill: a benchmark-only game system (joined through MUSTER_EXTRA_SYSTEMS by
benchmarks.settings, never by the product).

It has the shape the benchmarks need and no rules to get right: a long calendar
(40 rounds), units enlisted per side (some known to the club, some hidden), and
results that mark units lost, so every result changes the roster projection the
way a real game's refit does. Numbers here are load, not rules.
"""

from campaigns.game_interface import (
    Action,
    DomainError,
    EventKind,
    Field,
    GameSystem,
    RosterKind,
    SheetDef,
    SideDef,
    Variant,
    advance,
)

LONG = tuple(f"Day {day} {half}" for day in range(1, 21) for half in ("AM", "PM"))


class Drill(GameSystem):
    slug = "drill"
    name = "Drill (benchmark system)"
    event_prefix = "drill"
    sides = (SideDef("red", "Red"), SideDef("blue", "Blue"))
    variants = (
        Variant("long", "Forty rounds", LONG),
        Variant("short", "Three rounds", ("Round 1", "Round 2", "Round 3")),
    )
    result_fields = (
        Field("red", "int", min=0),
        Field("blue", "int", min=0),
        Field("losses", "int", min=0, max=50, required=False, default=0),
    )
    event_kinds = (
        EventKind(
            "drill.enlist",
            "Enlist units",
            (
                Field("count", "int", min=1, max=1000),
                Field("hidden", "int", min=0, max=1000, required=False, default=0),
            ),
            audience="side",
        ),
        # A side's step of the write benchmark: one unit trains (its experience goes up).
        EventKind(
            "drill.train",
            "Train a unit",
            (Field("unit", "int", min=0, max=100000),),
            audience="side",
        ),
    )
    roster_kinds = (RosterKind("unit", "Unit", ("experience",)),)
    # A side's roster, drawn by the print pipeline's generic table sheet.
    sheets = (SheetDef("roster", "Roster", "side", "sheets/table.html"),)

    def initial_state(self, variant, options, ctx):
        return {
            "public": {"wins": {"red": 0, "blue": 0}},
            "sides": {s: {"units": []} for s in ("red", "blue")},
            "referee": {},
        }

    def apply(self, state, record, ctx):
        if record.kind not in ("drill.enlist", "drill.train"):
            raise DomainError("kind", f"Unknown event kind {record.kind!r}.")
        if not record.side:
            raise DomainError("side", "Act for a side.")
        data = self.event_kind(record.kind).clean(record.data)
        if record.kind == "drill.train":
            units = state["game"]["sides"][record.side]["units"]
            if not units:
                raise DomainError("unit", "No unit to train.")
            units[data["unit"] % len(units)]["experience"] += 1
            return
        if data["hidden"] > data["count"]:
            raise DomainError("hidden", "At most as many hidden units as units.")
        units = state["game"]["sides"][record.side]["units"]
        start = len(units)
        for n in range(start, start + data["count"]):
            units.append(
                {
                    "n": n,
                    "hidden": n - start < data["hidden"],
                    "status": "ready",
                    "experience": n % 5,
                }
            )

    def on_result(self, state, index, result, ctx):
        public = state["game"]["public"]
        if result["red"] != result["blue"]:
            winner = "red" if result["red"] > result["blue"] else "blue"
            public["wins"][winner] += 1
            loser = "blue" if winner == "red" else "red"
            ready = [u for u in state["game"]["sides"][loser]["units"] if u["status"] == "ready"]
            for unit in ready[: result["losses"]]:
                unit["status"] = "lost"
        advance(state, ctx)

    def on_calendar_end(self, state, ctx):
        from campaigns.game_interface import finish

        wins = state["game"]["public"]["wins"]
        winner = None if wins["red"] == wins["blue"] else max(wins, key=wins.get)
        finish(state, winner, "All rounds played.")

    def actions(self, state, side):
        if state["status"] != "active" or side is None:
            return []
        return [Action("drill.enlist", "Enlist units", side)]

    def roster(self, state):
        entries = []
        for side, private in state["game"]["sides"].items():
            for unit in private["units"]:
                entries.append(
                    {
                        "key": f"{side}-{unit['n']}",
                        "side": side,
                        "audience": "side" if unit["hidden"] else "public",
                        "kind": "unit",
                        "name": f"{side.title()} unit {unit['n'] + 1}",
                        "status": unit["status"],
                        "data": {"experience": unit["experience"]},
                    }
                )
        return entries

    def sheet_context(self, sheet, view):
        if sheet != "roster" or view.get("game") is None:
            return {}
        tables = []
        for side, private in view["game"]["sides"].items():
            rows = [
                [
                    u["n"] + 1,
                    f"{side.title()} unit {u['n'] + 1}",
                    u["status"],
                    u["experience"],
                    "hidden" if u["hidden"] else "known",
                ]
                for u in private["units"]
            ]
            tables.append(
                {
                    "title": f"{view['sides'][side]['name']} units",
                    "rows": rows,
                    "columns": ["#", "Unit", "Status", "Experience", "Known to the other side"],
                }
            )
        return {"tables": tables}

    def standings(self, state):
        if state["game"] is None:
            return []
        return [
            {"side": s, "label": "Wins", "value": n}
            for s, n in state["game"]["public"]["wins"].items()
        ]


SYSTEM = Drill()
