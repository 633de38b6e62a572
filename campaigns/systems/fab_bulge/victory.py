"""FAB: The Bulge's victory (Determining Victory, 19.1–19.4), checked in the Victory Check Phase
at the end of every turn.

- 19.1 objective areas, only when friendly-controlled *and* supplied: each German symbol is a VP
  for the Allies alone, each white star one for the Germans alone, a yellow star one VP for
  whoever controls the area;
- 19.2 each eliminated enemy unit with three or more steps on its label is a VP, unless it
  came back from the track (the US 1st and 4th Infantry Divisions, 17.23);
- 19.3 the VP level is the difference of the two totals, the higher side the advantaged player;
- 19.4 from turn 4, the advantaged player whose level reaches his value for the turn on the Turn
  Record Chart (entered by the organizer) wins a sudden death victory.
"""

from __future__ import annotations

from campaigns.game_interface import HeldState
from campaigns.systems.victory_ledger.ledger import public
from campaigns.systems.victory_ledger.model import Check, Evaluation, Outcome
from campaigns.systems.victory_ledger.shapes import LedgerPublic
from campaigns.systems.victory_ledger.words import names

GERMAN, ALLIED = "german", "allied"
SCORER = {"german_symbols": ALLIED, "white_stars": GERMAN}  # yellow_star: whoever controls


def scores(system, state: HeldState) -> tuple[dict, list[str]]:
    pub = public(state)
    setup = pub["setup"]
    big = system.value(state, "large_unit.steps")
    per = system.value(state, "vp.large_unit")
    totals, lines = {}, []
    for side in (GERMAN, ALLIED):
        areas = []
        for loc in setup["locations"]:
            here = pub["locations"].get(loc["id"])
            symbol = loc.get("symbol") or "none"
            if symbol == "none" or not loc.get("value") or here is None:
                continue
            scorer = SCORER.get(symbol, here["controller"])
            if scorer == side and here["controller"] == side and here["supplied"]:
                areas.append(loc)
        area_vp = sum(loc["value"] for loc in areas)
        enemy = system.book.other(side)
        killed = [
            u
            for u in setup["units"]
            if u["side"] == enemy
            and (u.get("steps") or 0) >= big
            and pub["units"][u["id"]]["status"] == "eliminated"
        ]
        totals[side] = area_vp + len(killed) * per
        name = system.book.side_name(side)
        area_list = names(f"{loc['name']} {loc['value']}" for loc in areas)
        lines.append(
            f"{name}: objective areas held and supplied {area_list} = {area_vp} VP (19.1); "
            f"enemy large units eliminated {names(u['name'] for u in killed)} = {len(killed) * per} VP "
            f"(19.2); total {totals[side]}"
        )
    return totals, lines


def level(totals: dict) -> tuple[str | None, int]:
    german, allied = totals[GERMAN], totals[ALLIED]
    if german == allied:
        return None, 0
    return (GERMAN, german - allied) if german > allied else (ALLIED, allied - german)


def threshold(pub: LedgerPublic, number: int, side: str) -> int | None:
    row = next(
        (r for r in pub["setup"]["params"].get("thresholds") or [] if r["turn"] == number), None
    )
    return row.get(side) if row else None


def evaluate(system, state: HeldState, turn: dict) -> Evaluation:
    pub = public(state)
    totals, lines = scores(system, state)
    side, value = level(totals)
    book = system.book
    high = side or GERMAN
    low = book.other(high)
    lines.append(
        f"VP level: {book.side_name(high)} {totals[high]} − {book.side_name(low)} {totals[low]} = {value}"
        + (
            f", the {book.side_name(side)} advantaged (19.3)"
            if side
            else ", nobody advantaged (19.3)"
        )
    )
    evaluation = Evaluation(
        scores=dict(totals),
        lines=lines,
        level={"side": side, "value": value},
        chart={"level": value if side == GERMAN else -value},
    )
    number, first = turn["number"], system.value(state, "sudden_death.from")
    if number < first:
        evaluation.checks.append(
            Check(
                "19.4", "Sudden death", False, f"Turn {number}: no sudden death before turn {first}"
            )
        )
    elif side is None:
        evaluation.checks.append(
            Check("19.4", "Sudden death", False, "VP level 0: nobody is advantaged")
        )
    else:
        need = threshold(pub, number, side)
        if need is None:
            text = f"{book.side_name(side)} VP level {value}: no {book.side_name(side)} value entered for turn {number}"
            evaluation.checks.append(Check("19.4", "Sudden death", False, text))
        else:
            met = value >= need
            name = book.side_name(side)
            verdict = f"{name} sudden death victory" if met else "no sudden death"
            text = (
                f"{name} VP level {value} {'≥' if met else '<'} {need} for turn {number}: {verdict}"
            )
            evaluation.checks.append(Check("19.4", "Sudden death", met, text))
            if met:
                evaluation.outcome = Outcome(side, text, "19.4")
    return evaluation
