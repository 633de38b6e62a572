"""Drill: a tiny game whose journal went through three versions, to test upgrades (campaigns.versions).

Two sides give orders each round (secretly: troops join their side), then a result is entered.
- v1: orders are {"units": n} (1-10).
- v2: orders are {"troops": n}; before a result each side musters (``drill.muster``, the troops it
  has, a side's own event). Upgrade v1→v2 (rewrite): orders reshaped, a muster inserted for each
  side before each result, from the state as it stood.
- v3: at most 5 troops per order. Upgrade v2→v3 (fold): earlier orders keep the limit of 10.

Each version is a module (v1, v2, v3) exposing SYSTEM and its app (App), named in MUSTER_EXTRA_SYSTEMS
by the test.
"""

from campaigns.game_interface import (
    DomainError,
    EventKind,
    Field,
    GameSystem,
    Insert,
    SideDef,
    Upgrade,
    Variant,
    advance,
)

SIDES = ("red", "blue")


class DrillV1(GameSystem):
    slug = "drill"
    name = "Drill"
    event_prefix = "drill"
    sides = (SideDef("red", "Red"), SideDef("blue", "Blue"))
    variants = (Variant("two", "Two rounds", ("Round 1", "Round 2")),)
    result_fields = (Field("winner", "choice", choices=SIDES),)
    event_kinds = (
        EventKind(
            "drill.orders", "Orders", (Field("units", "int", min=1, max=10),), audience="side"
        ),
    )

    def initial_state(self, variant, options, ctx):
        return {
            "public": {"mustered": {}},
            "sides": {s: {"troops": 0} for s in SIDES},
            "referee": {},
        }

    def troops(self, record) -> int:
        return record.data["units"]

    def apply(self, state, record, ctx):
        if record.kind == "drill.orders":
            state["game"]["sides"][record.side]["troops"] += self.troops(record)
            return
        raise DomainError("kind", f"Unknown event kind {record.kind!r}.")

    def standings(self, state):
        return (
            [
                {"side": s, "label": "Troops", "value": state["game"]["sides"][s]["troops"]}
                for s in SIDES
            ]
            if state.get("game")
            else []
        )


class MusterBeforeResults(Upgrade):
    version = 1
    name = "drill-muster-before-results"
    words = "orders count troops; each side musters before a result"

    def data(self, kind, data):
        if (
            kind == "drill.orders" and "units" in data
        ):  # every other field kept: what v1 refused stays refused
            return {"troops": data["units"], **{k: v for k, v in data.items() if k != "units"}}
        return data

    def before(self, state, record, journal):
        if record.kind != "result.submitted" or state["status"] != "active":
            return []
        mustered = state["game"]["public"]["mustered"].get(str(state["current"]), [])
        return [
            Insert("drill.muster", {"troops": state["game"]["sides"][side]["troops"]}, side=side)
            for side in SIDES
            if side not in mustered
        ]


class DrillV2(DrillV1):
    journal_version = 2
    journal_upgrades = (MusterBeforeResults(),)
    event_kinds = (
        EventKind(
            "drill.orders", "Orders", (Field("troops", "int", min=1, max=10),), audience="side"
        ),
        EventKind(
            "drill.muster", "Muster", (Field("troops", "int", min=0, max=1000),), audience="side"
        ),
    )

    def troops(self, record) -> int:
        return record.data["troops"]

    def apply(self, state, record, ctx):
        if record.kind == "drill.muster":
            mine = state["game"]["sides"][record.side]
            if record.data["troops"] != mine["troops"]:
                raise DomainError("troops", f"Your side has {mine['troops']} troops.")
            state["game"]["public"]["mustered"].setdefault(str(state["current"]), []).append(
                record.side
            )
            return
        super().apply(state, record, ctx)

    def result_open(self, state, index):
        mustered = (
            state["game"]["public"]["mustered"].get(str(index), []) if state.get("game") else []
        )
        waiting = [s for s in SIDES if s not in mustered]
        return f"Muster first: {', '.join(waiting)}." if waiting else None

    def on_result(self, state, index, result, ctx):
        advance(state, ctx)


class FiveAtMost(Upgrade):
    version = 2
    name = "drill-five-troops-per-order"
    words = "at most 5 troops per order"
    how = "fold"


class DrillV3(DrillV2):
    journal_version = 3
    journal_upgrades = (MusterBeforeResults(), FiveAtMost())

    def apply(self, state, record, ctx):
        # The declared bound stays 10 (orders written under v2 are read as they were); from v3 on
        # the fold holds new orders to 5.
        if record.kind == "drill.orders" and ctx.journal_version >= 3 and record.data["troops"] > 5:
            raise DomainError("troops", "At most 5 troops per order.")
        super().apply(state, record, ctx)
