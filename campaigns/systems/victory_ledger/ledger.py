"""The fold of a victory ledger: the set-up, each turn recorded (locations, unit changes,
the game's own values), the scores and checks after it, and the end of the game.

Everything here works on ``state["game"]["public"]``; nothing in these games is secret
(Patton's Vanguard's bids are core sealed choices).
"""

from __future__ import annotations

import copy
from typing import Any, cast

from campaigns.game_interface import DomainError, HeldState, advance, finish

from . import chart
from .model import CHANGES, Evaluation, Outcome
from .setup import clean_locations, clean_units, location, unit
from .shapes import LedgerGame, LedgerPublic, Setup, UnitLine
from .words import location_state_text


def public(state: HeldState) -> LedgerPublic:
    """The ledger's part of a state (or of a reader's view of it): the game's own shape."""
    return cast(LedgerGame, state["game"])["public"]


def known_location(setup: Setup, loc_id: str) -> dict[str, Any]:
    """A location of the set-up that the checks before have found there."""
    found = location(setup, loc_id)
    assert found is not None, f"{loc_id} is in the set-up"
    return found


def known_unit(setup: Setup, unit_id: str) -> dict[str, Any]:
    """A unit of the set-up that the checks before have found there."""
    found = unit(setup, unit_id)
    assert found is not None, f"{unit_id} is in the set-up"
    return found


def next_turn(pub: LedgerPublic) -> dict | None:
    turns = pub["turns"]
    return turns[pub["next"]] if pub["next"] < len(turns) else None


# --- set-up ------------------------------------------------------------------------------------


def apply_setup(system, state: HeldState, record, ctx) -> None:
    pub = public(state)
    if pub["phase"] != "setup":
        raise DomainError(
            "locations",
            "The set-up is already confirmed; to change it, propose a correction of it.",
        )
    data = record.data
    setup: Setup = {
        "locations": clean_locations(data.get("locations") or []),
        "units": clean_units(data.get("units") or []),
        "params": {k: v for k, v in data.items() if k not in ("locations", "units")},
        "by": record.actor,
    }
    system.check_setup(state, setup, ctx)
    pub["setup"] = setup
    pub["locations"] = {
        loc["id"]: {"controller": loc["start"], "contested": False, "supplied": True}
        for loc in setup["locations"]
    }
    pub["units"] = {u["id"]: {"status": "full", "since": "", "via": ""} for u in setup["units"]}
    pub["turns"] = system.calendar(state, setup)
    pub["listed"] = [loc["id"] for loc in system.turn_locations(pub)]
    pub["phase"] = "play"
    pub["chart"] = chart.build(system, state)
    pub["coming"] = system.coming(state)


def add_units(system, state: HeldState, record, ctx) -> None:
    pub = public(state)
    if pub["phase"] == "setup":
        raise DomainError("units", "Enter the units with the set-up.")
    added = clean_units(record.data.get("units") or [], pub["setup"]["units"])
    if not added:
        raise DomainError("units", "Name at least one unit.")
    for row in added:
        system.check_unit(state, row, ctx)
        pub["setup"]["units"].append(row)
        pub["units"][row["id"]] = {"status": "full", "since": "", "via": ""}


# --- a turn ------------------------------------------------------------------------------------


def record_turn(system, state: HeldState, record, ctx) -> None:
    pub = public(state)
    data = record.data
    turn = _the_turn(system, state, data["turn"])
    before = copy.deepcopy(pub["locations"])
    pub["locations"] = _locations_after(pub, data.get("locations") or [], system)
    events = [
        *pub.get("pending", []),
        *_unit_changes(system, state, data.get("units") or [], turn, ctx),
    ]
    pub["pending"] = []
    extras = system.apply_turn_extras(state, turn, data, events, ctx)
    evaluation = system.evaluate(state, turn, ctx)
    entry = {
        "turn": turn["label"],
        "kind": turn["kind"],
        "number": turn["number"],
        "index": pub["next"],
        "uid": record.uid,
        "by": record.actor,
        "locations": {
            loc["id"]: [
                pub["locations"][loc["id"]][k] for k in ("controller", "contested", "supplied")
            ]
            for loc in system.turn_locations(pub)
        },
        # In the set-up's order, never the stored state's: PostgreSQL keeps an object's keys in
        # an order of its own (shorter first), and a turn reads alike on every database.
        "changed": [
            {
                "id": loc["id"],
                "name": loc["name"],
                "text": location_state_text(system, pub["locations"][loc["id"]]),
            }
            for loc in pub["setup"]["locations"]
            if loc["id"] in pub["locations"]
            and before.get(loc["id"]) != pub["locations"][loc["id"]]
        ],
        "units": events,
        "extras": extras,
        "note": data.get("note") or "",
        **_evaluated(evaluation),
    }
    entry["summary"] = system.score_text(entry)
    pub["ledger"].append(entry)
    pub["next"] += 1
    conclude(system, state, evaluation, turn, ctx)


def record_changes(system, state: HeldState, record, ctx) -> None:
    """Unit changes recorded as they happen, during the turn about to be recorded: they count
    at once and are listed with that turn when it is recorded (no limit of a form's rows)."""
    pub = public(state)
    turn = _the_turn(system, state, record.data["turn"])
    events = _unit_changes(system, state, record.data.get("units") or [], turn, ctx)
    if not events:
        raise DomainError("units", "Pick at least one unit and what happened to it.")
    pub.setdefault("pending", []).extend(events)


def _evaluated(evaluation: Evaluation) -> dict:
    return {
        "scores": evaluation.scores,
        "lines": list(evaluation.lines),
        "level": evaluation.level,
        "checks": [c.as_dict() for c in evaluation.checks],
        "outcome": evaluation.outcome.as_dict() if evaluation.outcome else None,
        "decision": evaluation.decision,
        "chart": evaluation.chart,
        "memo": evaluation.memo,
    }


def _the_turn(system, state: HeldState, label: str) -> dict:
    pub = public(state)
    waiting = system.waiting_for(state)
    if waiting:
        raise DomainError("turn", waiting)
    turns = pub["turns"]
    index = next((i for i, t in enumerate(turns) if t["label"] == label), None)
    if index is None:
        span = f"{turns[0]['label']} – {turns[-1]['label']}" if turns else "no turns"
        raise DomainError(
            "turn", f"{label!r} is not a turn of {system.scenario_name(state)}: it runs {span}."
        )
    if index < pub["next"]:
        raise DomainError(
            "turn", f"{label} is already recorded; to change it, propose a correction of that turn."
        )
    if index > pub["next"]:
        raise DomainError(
            "turn", f"{label} is not next: record {turns[pub['next']]['label']} first."
        )
    return turns[index]


def _locations_after(pub: LedgerPublic, rows: list[dict], system) -> dict:
    after = copy.deepcopy(pub["locations"])
    seen: dict[str, dict] = {}
    for i, row in enumerate(rows):
        loc_id = row["location"]
        loc = location(pub["setup"], loc_id)
        if loc is None:
            raise DomainError(
                f"locations[{i}].location", f"No location {loc_id!r} in this campaign's set-up."
            )
        if loc_id in seen:
            if seen[loc_id]["controller"] != row["controller"]:
                holders = " and by the ".join(
                    system.book.side_name(s)
                    for s in (seen[loc_id]["controller"], row["controller"])
                )
                raise DomainError(
                    f"locations[{i}].controller",
                    f"{loc['name']} is given as held by the {holders}: a location has one controller.",
                )
            raise DomainError(f"locations[{i}].location", f"{loc['name']} is given twice.")
        seen[loc_id] = row
        after[loc_id] = {
            "controller": row["controller"],
            "contested": bool(row.get("contested")),
            "supplied": bool(row.get("supplied")),
        }
    return after


def _unit_changes(system, state: HeldState, rows: list[dict], turn: dict, ctx) -> list[dict]:
    pub = public(state)
    events = []
    for i, row in enumerate(rows):
        unit_id = row.get("unit") or ""
        if not unit_id:
            continue  # a blank row of the form
        found = unit(pub["setup"], unit_id)
        if found is None:
            raise DomainError(
                f"units[{i}].unit",
                f"No unit {unit_id!r} in this campaign's unit list; add it first.",
            )
        change = row.get("change") or ""
        if not change:
            raise DomainError(f"units[{i}].change", f"Say what happened to {found['name']}.")
        now = pub["units"][unit_id]
        allowed, after, words = CHANGES[change]
        if now["status"] not in allowed:
            raise DomainError(f"units[{i}].change", _refusal(found["name"], now, change))
        via = system.check_unit_change(state, found, change, row, turn, f"units[{i}]", ctx) or ""
        pub["units"][unit_id] = {"status": after, "since": turn["label"], "via": via}
        text = f"{found['name']}: {words}"
        if via:
            text += f" through {known_location(pub['setup'], via)['name']}"
        events.append(
            {
                "unit": unit_id,
                "name": found["name"],
                "side": found["side"],
                "change": change,
                "via": via,
                "text": text,
            }
        )
    return events


def _refusal(name: str, now: UnitLine, change: str) -> str:
    status, since = now["status"], now["since"]
    when = f" in {since}" if since else ""
    if status == "eliminated":
        if change == "eliminated":
            return f"{name} was eliminated{when} and has not been rebuilt: it cannot be eliminated again."
        return f"{name} is eliminated (since {since or 'the start'}): it must be rebuilt first."
    if status == "exited":
        return f"{name} exited off the map{when} and may not come back."
    if status == "withdrawn":
        return f"{name} was withdrawn{when}."
    if change == "reduced":
        return f"{name} is already reduced."
    if change == "restored":
        return f"{name} is already at full strength."
    return f"{name} is not eliminated: only an eliminated unit is rebuilt."


# --- the end of a turn, of a part, of the game ----------------------------------------------------


def conclude(system, state: HeldState, evaluation: Evaluation, turn: dict, ctx) -> None:
    pub = public(state)
    if evaluation.decision:
        pub["phase"] = "decision"
        pub["decision"] = evaluation.decision
    elif evaluation.outcome:
        end_game(system, state, evaluation.outcome, ctx)
    elif pub["next"] >= len(pub["turns"]):
        system.after_last_turn(state, ctx)
    elif pub["turns"][pub["next"]]["part"] != turn["part"]:
        _close_part(state, {"result": system.part_summary(state, turn)})
        advance(state, ctx)
    pub["chart"] = chart.build(system, state)
    pub["coming"] = system.coming(state) if pub["phase"] == "play" else []


def end_game(system, state: HeldState, outcome: Outcome, ctx) -> None:
    pub = public(state)
    pub["phase"] = "over"
    pub["decision"] = None
    pub["coming"] = []
    pub["outcome"] = outcome.as_dict()
    winner = system.book.side_name(outcome.winner) if outcome.winner else "Draw"
    _close_part(state, {"result": f"{winner}: {outcome.text} ({outcome.rule})"})
    finish(state, outcome.winner, f"{outcome.text} ({outcome.rule})")
    pub["chart"] = chart.build(system, state)


def _close_part(state: HeldState, result: dict) -> None:
    """The core's scenario (one rulebook scenario, or S1 of S1 + S5) is over."""
    if state["current"] is not None:
        state["scenarios"][state["current"]].update(
            {"status": "played", "result": result, "pending": None}
        )
