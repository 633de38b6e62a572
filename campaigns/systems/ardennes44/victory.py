"""Ardennes '44's victory conditions (30, S2.4, S3.4, S4.4, S5.2), checked in the Victory Check
Phase that ends every AM and PM turn (30.1.1; Night turns have none, 25.1).

Control (30.1.2): the German controls a location he holds *and* from which a road-bound supply
path reaches a German supply source; the ledger's "held by German" + "supplied" ticks.
"""

from __future__ import annotations

from typing import Any

from campaigns.game_interface import HeldState
from campaigns.systems.victory_ledger.ledger import public
from campaigns.systems.victory_ledger.model import Check, Evaluation, Outcome
from campaigns.systems.victory_ledger.shapes import LedgerPublic
from campaigns.systems.victory_ledger.words import names

GERMAN, ALLIED = "german", "allied"


def held(pub: LedgerPublic, loc: dict, side: str = GERMAN) -> bool:
    here = pub["locations"][loc["id"]]
    return here["controller"] == side and here["supplied"]


def group(pub: LedgerPublic, name: str) -> list[dict]:
    return [loc for loc in pub["setup"]["locations"] if loc.get("group") == name]


def victory_hexes(pub: LedgerPublic, map_name: str) -> list[dict]:
    return [
        loc
        for loc in pub["setup"]["locations"]
        if loc.get("victory") and loc.get("map") == map_name
    ]


def exits(pub: LedgerPublic) -> tuple[int, list[dict], bool]:
    """Attack factors exited, the exit hexes used, whether one of them traces German supply."""
    setup = pub["setup"]
    gone = [u for u in setup["units"] if pub["units"][u["id"]]["status"] == "exited"]
    used_ids = sorted({pub["units"][u["id"]]["via"] for u in gone})
    used = [loc for loc in setup["locations"] if loc["id"] in used_ids]
    return sum(u.get("attack") or 0 for u in gone), used, any(held(pub, loc) for loc in used)


def _short(locs) -> str:
    return names(loc["name"] for loc in locs)


def _listed(locs) -> str:
    """ " (Givet, Dinant)" after a count, or nothing when there are none."""
    return f" ({_short(locs)})" if locs else ""


def vp_tally(system, state: HeldState) -> tuple[int, list[str]]:
    """S2.4: one VP per East Map victory hex the German controls, one per 4 attack factors
    exited off the East Map's west edge when an exit hex traces supply."""
    pub = public(state)
    hexes = [loc for loc in victory_hexes(pub, "east") if held(pub, loc)]
    af, used, traced = exits(pub)
    per = system.value(state, "victory.af_per_vp")
    exit_vp = af // per if traced else 0
    lines = [f"East Map victory hexes the German controls: {_short(hexes)} = {len(hexes)} VP"]
    if af:
        why = "traces" if traced else "none of them traces"
        lines.append(
            f"Exited {af} attack factors through {_short(used)}; {why} a road-bound supply path: "
            f"{exit_vp} VP ({af} ÷ {per}{', rounded down' if traced else ', not counted'})"
        )
    lines.append(f"German VP: {len(hexes)} + {exit_vp} = {len(hexes) + exit_vp}")
    return len(hexes) + exit_vp, lines


def evaluate(system, state: HeldState, turn: dict) -> Evaluation:
    pub = public(state)
    info = system.book.scenario(pub["scenario"])
    if info["victory"] == "vp":
        return _vp_scenario(system, state, turn, info)
    return _campaign(system, state, turn, info)


def _vp_scenario(system, state, turn, info) -> Evaluation:
    pub = public(state)
    vp, lines = vp_tally(system, state)
    evaluation = Evaluation(scores={GERMAN: vp}, lines=lines, chart={"vp": vp})
    if turn["kind"] == "night":
        return evaluation
    if state["options"].get("allied_30_3_short"):
        if _allied_check(system, state, evaluation):
            return evaluation
    if is_last(pub, turn):
        need = system.value(state, info["vp_needed"])
        rule = f"{info['rule']}.4"
        if vp >= need:
            text = f"German {vp} VP ≥ {need} at the end of the scenario: German victory"
            evaluation.outcome = Outcome(GERMAN, text, rule)
        else:
            text = f"German {vp} VP < {need} at the end of the scenario: Allied victory"
            evaluation.outcome = Outcome(ALLIED, text, rule)
        evaluation.checks.append(Check(rule, "Victory points", vp >= need, text))
    return evaluation


def is_last(pub: LedgerPublic, turn: dict) -> bool:
    return pub["turns"][-1]["label"] == turn["label"]


def _campaign(system, state, turn, info) -> Evaluation:
    pub = public(state)
    counts = campaign_counts(system, state)
    evaluation = Evaluation(scores={}, lines=counts["lines"], memo={})
    if turn["kind"] == "night":
        return evaluation
    german = _german_checks(system, state, counts, evaluation)
    allied = _allied_check(system, state, evaluation)
    evaluation.chart = {
        "meuse": sum(held(pub, loc) for loc in counts["meuse"]),
        "liege": sum(held(pub, loc) for loc in counts["liege"]),
        "west": len(counts["west"]),
        "af": counts["af"] if counts["traced"] else 0,
        "allied": evaluation.memo["allied_areas"],
    }
    if allied:
        return evaluation
    if german:
        met = "; ".join(c.text for c in evaluation.checks if c.met and c.rule == "30.2")
        evaluation.outcome = Outcome(
            GERMAN,
            f"German victory at {turn['label']}: {met}; the game ends at once (30.1.1)",
            "30.2",
        )
        return evaluation
    if is_last(pub, turn):
        _end_of_game(system, state, turn, info, counts, evaluation)
    return evaluation


def campaign_counts(system, state: HeldState) -> dict:
    pub = public(state)
    af, used, traced = exits(pub)
    out: dict[str, Any] = {"af": af, "used": used, "traced": traced}
    for name in ("liege", "meuse", "bastogne", "german_start"):
        out[name] = [loc for loc in group(pub, name)]
    out["west"] = [loc for loc in victory_hexes(pub, "west") if held(pub, loc)]
    out["lines"] = [
        f"Exited through F or G entry hexes: {af} attack factors"
        + (f" ({_short(used)})" if used else ""),
        f"Liège hexes the German controls: {sum(held(pub, loc) for loc in out['liege'])} of {len(out['liege'])}",
        f"Meuse victory hexes the German controls: {sum(held(pub, loc) for loc in out['meuse'])} of "
        f"{len(out['meuse'])}",
        f"West Map victory hexes the German controls: {len(out['west'])}",
    ]
    return out


def _german_checks(system, state, counts, evaluation) -> bool:
    pub = public(state)
    v = lambda key: system.value(state, key)  # noqa: E731
    af_ok = counts["traced"] and counts["af"] >= v("victory.exit_af")
    if counts["af"] and not counts["traced"]:
        why = f"but none of the entry hexes used ({_short(counts['used'])}) traces a road-bound supply path"
    else:
        why = f"{'≥' if af_ok else '<'} {v('victory.exit_af')}"
    found = [
        (
            "Exit toward Antwerp",
            af_ok,
            f"German exited {counts['af']} attack factors through F or G entry hexes {why}",
        )
    ]
    liege = [loc for loc in counts["liege"] if held(pub, loc)]
    need = v("victory.liege")
    found.append(
        (
            "Liège",
            len(liege) >= need,
            f"German controls {len(liege)} of the Liège hexes{_listed(liege)}, needs {need}",
        )
    )
    meuse = [loc for loc in counts["meuse"] if held(pub, loc)]
    need = v("victory.meuse")
    found.append(
        (
            "Meuse",
            len(meuse) >= need,
            f"German controls {len(meuse)} of the 6 Meuse victory hexes{_listed(meuse)}, needs {need}",
        )
    )
    need = v("victory.west")
    found.append(
        (
            "West Map",
            len(counts["west"]) >= need,
            f"German controls {len(counts['west'])} West Map victory hexes{_listed(counts['west'])}, "
            f"needs {need}",
        )
    )
    evaluation.checks += [
        Check("30.2", name, met, text + (": German victory" if met else ""))
        for name, met, text in found
    ]
    return any(met for _, met, _ in found)


def _allied_check(system, state, evaluation) -> bool:
    """30.3: three German at-start divisional areas occupied by supplied Allied units at two
    consecutive Victory Check Phases (Night turns have none, 25.1); it supersedes a German victory."""
    pub = public(state)
    areas = [loc for loc in group(pub, "german_start") if held(pub, loc, ALLIED)]
    need, times = (
        system.value(state, "victory.allied_areas"),
        system.value(state, "victory.allied_checks"),
    )
    earlier = [e["memo"].get("allied_areas", 0) for e in pub["ledger"] if e["kind"] == "day"]
    streak = [*earlier, len(areas)][-times:]
    met = len(streak) == times and all(n >= need for n in streak)
    evaluation.memo["allied_areas"] = len(areas)
    before = ", ".join(str(n) for n in streak[:-1]) or "none"
    text = (
        f"Supplied Allied units occupy {len(areas)} German at-start divisional areas{_listed(areas)}; "
        f"at the previous check: {before}; {need} are needed at {times} consecutive checks"
    )
    if met:
        text += ": Allied victory, which supersedes any German victory"
        evaluation.outcome = Outcome(
            ALLIED,
            "Supplied Allied units held "
            f"{need} German at-start divisional areas for {times} consecutive Victory Check "
            "Phases",
            "30.3",
        )
    evaluation.checks.append(Check("30.3", "Allied counterattack", met, text))
    return met


def _end_of_game(system, state, turn, info, counts, evaluation) -> None:
    pub = public(state)
    bastogne = counts["bastogne"]
    allied_supply = [loc for loc in bastogne if held(pub, loc, ALLIED)]
    if info.get("extended"):
        german_both = bool(bastogne) and all(held(pub, loc) for loc in bastogne)
        cut = not allied_supply
        need = system.value(state, "victory.s5_west")
        west = len(counts["west"])
        bastogne_ok = german_both or cut
        met = bastogne_ok and west >= need
        how = (
            "controls both Bastogne hexes"
            if german_both
            else "cuts every Bastogne hex from Allied supply"
            if cut
            else "neither controls both Bastogne hexes nor cuts them from Allied supply"
        )
        text = f"At the end of the game the German {how} and controls {west} West Map victory hexes (needs {need})"
        evaluation.checks.append(Check("S5.2", "End of the extended game", met, text))
        if met:
            evaluation.outcome = Outcome(GERMAN, text + ": German victory", "S5.2")
            return
        evaluation.outcome = Outcome(
            ALLIED, "The German did not achieve a victory by the end of the game", "30.3"
        )
        return
    if info.get("bastogne_draw") and not allied_supply:
        text = (
            "At the end of the game no Bastogne town hex traces a road-bound supply path to an Allied supply "
            "source: a draw"
        )
        evaluation.checks.append(Check("S4.4", "Bastogne", True, text))
        evaluation.outcome = Outcome(None, text, "S4.4")
        return
    if info.get("bastogne_draw"):
        evaluation.checks.append(
            Check(
                "S4.4",
                "Bastogne",
                False,
                f"Bastogne traces Allied supply ({_short(allied_supply)}): no draw",
            )
        )
    text = "The German did not achieve a victory by the end of the game: Allied victory"
    evaluation.checks.append(Check("30.3", "End of the game", True, text))
    evaluation.outcome = Outcome(ALLIED, text, "30.3")
