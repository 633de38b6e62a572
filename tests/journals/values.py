"""What a journal computed, as kept beside each corpus file: standings, each side's values,
rosters and scenario results, read through the game's own hooks (never the raw state, whose
shape may change), and what the game's corpus player adds (its `side_values`: A!P!'s CPP, ELR …,
Rifles' XP). The same code reads the state of the Muster that wrote a file (make_corpus.py runs it
in a worktree of that commit) and today's (test_corpus.py): keep it working on both."""

from __future__ import annotations

import importlib
from pathlib import Path


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
    extra = getattr(corpus_modules().get(state["system"]), "side_values", None)
    if extra is not None and game is not None:
        out["sides"] = extra(state)
    return out


def corpus_modules() -> dict:
    """Each game's corpus player by its slug: the copies beside this file (games/<slug>.py, in a
    worktree of an earlier commit, whose games had none), else each game's own
    <game folder>/tests/corpus.py, found through the game registry (its app)."""
    copies = Path(__file__).resolve().parent / "games"
    if copies.is_dir():
        return {
            path.stem: importlib.import_module(f"{__package__}.games.{path.stem}")
            for path in sorted(copies.glob("*.py"))
            if path.stem != "__init__"
        }
    from django.apps import apps

    found = {}
    for config in apps.get_app_configs():
        system = getattr(config, "system", None)
        if system is not None and (Path(config.path) / "tests" / "corpus.py").exists():
            found[system.slug] = importlib.import_module(f"{config.name}.tests.corpus")
    return found


def _plain(value):
    """JSON's own types (tuples as lists), so a value read back from a file compares equal."""
    import json

    return json.loads(json.dumps(value, default=str))
