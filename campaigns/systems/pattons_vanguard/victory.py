"""Patton's Vanguard's score and victory conditions (18.1–18.3, 20.1), in words.

The German alone scores (18.2: "The Americans do not receive Victory Points"):
- VP areas he controls that trace a supply line (18.2),
- one VP for contesting, not controlling, Area 9 or Area 12 (18.3),
- one VP per eliminated American unit, ½ per reduced one, the total rounded down (18.2).

"VP on the map" for the American automatic victory (18.1) is the value of the VP areas the
German controls: no unit VP (they are not on the map), no contested credit (he does not
control those areas), and supply only with the campaign option (PV-4).
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.game_interface import HeldState
from campaigns.systems.victory_ledger.model import Check, Evaluation, Outcome
from campaigns.systems.victory_ledger.words import names

from .shapes import PattonsPublic, public

AUTO_AREAS = ("7", "25")  # 18.1
CONTESTED_AREAS = ("9", "12")  # 18.3
GERMAN, AMERICAN = "german", "american"


@dataclass
class Tally:
    areas: int  # supplied German VP areas (18.2)
    map_vp: int  # VP on the map (18.1)
    contested: int
    eliminated: int
    reduced: int
    unit_vp: int
    total: int
    lines: list


def tally(system, state: HeldState) -> Tally:
    pub = public(state)
    setup, here = pub["setup"], pub["locations"]
    vp_areas = [loc for loc in setup["locations"] if loc.get("value")]
    held = [loc for loc in vp_areas if here[loc["id"]]["controller"] == GERMAN]
    supplied = [loc for loc in held if here[loc["id"]]["supplied"]]
    cut_off = [loc for loc in held if not here[loc["id"]]["supplied"]]
    areas = sum(loc["value"] for loc in supplied)
    needs_supply = bool(state["options"].get("map_vp_needs_supply"))
    map_vp = areas if needs_supply else sum(loc["value"] for loc in held)
    contested_areas = [
        setup_loc
        for setup_loc in setup["locations"]
        if setup_loc["id"] in CONTESTED_AREAS
        and here[setup_loc["id"]]["contested"]
        and here[setup_loc["id"]]["controller"] != GERMAN
    ]
    contested = len(contested_areas) * system.value(state, "vp.contested")
    american = [u for u in setup["units"] if u["side"] == AMERICAN]
    eliminated = sum(1 for u in american if pub["units"][u["id"]]["status"] == "eliminated")
    reduced = sum(1 for u in american if pub["units"][u["id"]]["status"] == "reduced")
    per = system.value(state, "vp.reduced_per_vp")
    unit_vp = eliminated * system.value(state, "vp.eliminated") + reduced // per
    total = areas + contested + unit_vp
    counted = names(f"{loc_name(loc)} {loc['value']}" for loc in supplied)
    lines = [
        f"VP areas held and supplied: {counted} = {areas} VP (18.2)",
        *(
            [
                f"Held but not supplied, not counted: {names(loc_name(loc) for loc in cut_off)} (18.2)"
            ]
            if cut_off
            else []
        ),
        f"Contested, not controlled: {names(loc_name(loc) for loc in contested_areas)} = {contested} VP (18.3)",
        f"American units eliminated {eliminated}, reduced {reduced} (½ each, rounded down: {reduced // per}) "
        f"= {unit_vp} VP (18.2)",
        f"German VP: {areas} + {contested} + {unit_vp} = {total}",
    ]
    return Tally(areas, map_vp, contested, eliminated, reduced, unit_vp, total, lines)


def loc_name(loc: dict) -> str:
    return loc["name"].split(" (")[0]


def operational_threshold(system, state: HeldState) -> tuple[int, str]:
    bid = public(state).get("bid")
    if bid:
        return bid["threshold"], "20.1"
    return system.value(state, "vp.operational"), "18.2"


def evaluate(system, state: HeldState, turn: dict) -> Evaluation:
    pub = public(state)
    count = tally(system, state)
    number = turn["number"]
    evaluation = Evaluation(
        scores={GERMAN: count.total},
        lines=count.lines,
        chart={"vp": count.total, "map": count.map_vp},
    )
    american = _american_automatic(system, state, number, count)
    german = _german_automatic(pub, number)
    evaluation.checks += [c for c in (american, german) if c is not None]
    winner = _automatic_winner(state, american, german, evaluation)
    if winner:
        outcome = Outcome(
            winner,
            f"{system.book.side_name(winner)} automatic victory at the end of {turn['label']}",
            "18.1",
        )
        loser = system.book.other(winner)
        if pub["advantage"] == loser:
            evaluation.decision = {
                "side": loser,
                "winner": winner,
                "turn": turn["label"],
                "outcome": outcome.as_dict(),
                "text": f"The {system.book.side_name(loser)} holds the Advantage and may spend it to cancel the "
                f"{system.book.side_name(winner)} automatic victory and play on (16.1E).",
            }
        else:
            evaluation.outcome = outcome
        return evaluation
    if number == 4:
        operational(system, state, count, evaluation)
    return evaluation


def operational(system, state: HeldState, count: Tally, evaluation: Evaluation) -> None:
    threshold, rule = operational_threshold(system, state)
    if count.total >= threshold:
        text = f"German {count.total} VP ≥ {threshold}: German operational victory"
        evaluation.outcome = Outcome(GERMAN, text, rule)
    else:
        text = f"German {count.total} VP < {threshold}: the German loses, American victory"
        evaluation.outcome = Outcome(AMERICAN, text, rule)
    evaluation.checks.append(Check(rule, "Operational victory", count.total >= threshold, text))


def _american_automatic(system, state, number: int, count: Tally) -> Check | None:
    if number not in (1, 2, 3):
        return None
    need = system.value(state, f"vp.american_auto.{number}")
    met = count.map_vp < need
    what = "supplied VP areas" if state["options"].get("map_vp_needs_supply") else "VP areas"
    verdict = "American automatic victory" if met else "no American automatic victory"
    relation = "fewer than" if met else "at least"
    return Check(
        "18.1",
        "American automatic victory",
        met,
        f"German controls {count.map_vp} VP on the map ({what}), {relation} {need}: {verdict}",
    )


def _german_automatic(pub: PattonsPublic, number: int) -> Check | None:
    if number not in (2, 3, 4):
        return None
    held = [a for a in AUTO_AREAS if pub["locations"][a]["controller"] == GERMAN]
    line = pub["turn_values"].get("supply_through_8", False)
    met = bool(held) and line
    if not held:
        text = "German holds neither Area 7 nor Area 25: no German automatic victory"
    elif line:
        text = (
            f"German holds Area {' and Area '.join(held)} with a supply line through Area 8 to the southern or "
            f"eastern map edge: German automatic victory"
        )
    else:
        text = (
            f"German holds Area {' and Area '.join(held)} but has no supply line through Area 8 to the southern "
            f"or eastern map edge: no German automatic victory"
        )
    return Check("18.1", "German automatic victory", met, text)


def _automatic_winner(
    state, american: Check | None, german: Check | None, evaluation
) -> str | None:
    met = [side for side, check in ((AMERICAN, american), (GERMAN, german)) if check and check.met]
    if len(met) < 2:
        return met[0] if met else None
    rule = state["options"].get("both_automatic") or "play_on"
    if rule == "play_on":
        evaluation.checks.append(
            Check(
                "18.1",
                "Both automatic victories",
                False,
                "Both sides meet an automatic victory at once: they cancel out and play goes "
                "on (house rule: both automatic victories)",
            )
        )
        return None
    evaluation.checks.append(
        Check(
            "18.1",
            "Both automatic victories",
            True,
            f"Both sides meet an automatic victory at once: the {rule.capitalize()} one stands "
            f"(house rule: both automatic victories)",
        )
    )
    return rule
