"""What a journal computed, as kept beside each corpus file: standings, each side's values,
rosters and scenario results, read through the game's own hooks (never the raw state, whose
shape may change). The same code reads the state of the Muster that wrote a file (make_corpus.py
runs it in a worktree of that commit) and today's (test_corpus.py): keep it working on both."""

from __future__ import annotations


def values(state: dict) -> dict:
    from campaigns.systems import get_system

    system = get_system(state["system"])
    game = state.get("game")
    out = {
        "status": state["status"],
        "winner": state["winner"],
        "current": state["current"],
        "scenarios": [
            {
                "label": s["label"],
                "status": s["status"],
                "summary": _plain(system.scenario_summary(state, s["index"]))
                if s["status"] == "played"
                else None,
            }
            for s in state["scenarios"]
        ],
        "standings": _plain(system.standings(state)) if game is not None else [],
        "roster": sorted(
            (
                [e["side"], e["kind"], e["key"], e["name"], e["status"]]
                for e in system.roster(state)
            ),
            key=lambda e: (e[0], e[2]),
        )
        if game is not None
        else [],
    }
    extra = SIDE_VALUES.get(state["system"])
    if extra is not None and game is not None:
        out["sides"] = extra(state)
    return out


def _plain(value):
    """JSON's own types (tuples as lists), so a value read back from a file compares equal."""
    import json

    return json.loads(json.dumps(value, default=str))


def _achtung_panzer(state: dict) -> dict:
    game = state["game"]
    pub = game["public"]
    out = {
        side: {k: game["sides"][side].get(k) for k in ("cpp", "elr", "san", "fpp")}
        for side in ("allied", "german")
    }
    for side in ("allied", "german"):
        out[side]["elr"] = _one_elr(out[side]["elr"])
    out["record"] = pub["record"]
    out["bridges_destroyed"] = pub["bridges_destroyed"]
    out["half_days"] = [
        {k: line.get(k) for k in ("half_day", "type", "winner", "op", "cvp")}
        for line in pub["roster"]
        if line.get("played")
    ]
    out["phase"] = pub["phase"]
    return out


def _one_elr(value):
    """Journals written before ELR by nationality (A!P! v5) kept one ELR per side; folded today they
    keep it for every nationality of the side, so they compare as that one number (R-A25)."""
    if isinstance(value, dict) and len(set(value.values())) == 1:
        return next(iter(value.values()))
    return value


def _rifles(state: dict) -> dict:
    pub = state["game"]["public"]
    squad = pub["squad"]
    return {
        "xp": squad.get("xp"),
        "xp_earned": squad.get("xp_earned"),
        "phase": pub.get("phase"),
        "missions": [(m.get("log") or {}).get("outcome") for m in pub["missions"]],
    }


SIDE_VALUES = {"achtung_panzer": _achtung_panzer, "rifles_ardennes": _rifles}
