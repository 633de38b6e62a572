"""The printed victory ledger (GameSystem.sheet_context): the ledger turn by turn with the
chart, the locations as they stand, and the units by fate. Built from the sheet audience's
view only, as plain JSON values (the print job stores and hashes them)."""

from __future__ import annotations

from .model import STATUS_WORDS
from .words import location_state_text


def ledger_context(system, view: dict) -> dict:
    game = view.get("game")
    if not game:
        return {"ledger": None}
    pub = game["public"]
    turns = []
    for entry in pub["ledger"]:
        turns.append(
            {
                "turn": entry["turn"],
                "night": entry["kind"] == "night",
                "locations": [f"{c['name']}: {c['text']}" for c in entry["changed"]],
                "units": [u["text"] for u in entry["units"]],
                "extras": [f"{label}: {text}" for label, text in entry["extras"]],
                "score": system.score_text(entry),
                "lines": list(entry["lines"]),
                "checks": [f"{c['text']} ({c['rule']})" for c in entry["checks"]],
                "outcome": entry["outcome"]["text"] if entry.get("outcome") else "",
                "note": entry.get("note", ""),
            }
        )
    units: dict[str, list[str]] = {}
    for unit in pub["setup"]["units"]:
        now = pub["units"].get(unit["id"], {"status": "full", "since": ""})
        units.setdefault(STATUS_WORDS[now["status"]], []).append(
            f"{unit['name']} ({system.book.side_name(unit['side'])}{', ' + now['since'] if now['since'] else ''})"
        )
    return {
        "ledger": {
            "scenario": system.scenario_name_of(pub["scenario"]),
            "phase": pub["phase"],
            "outcome": (pub["outcome"] or {}).get("text", ""),
            "winner": system.book.side_name(pub["outcome"]["winner"])
            if (pub["outcome"] or {}).get("winner")
            else "",
            "chart": pub.get("chart"),
            "turns": turns,
            "locations": [
                {
                    "name": loc["name"],
                    "about": system.location_words(loc),
                    "now": location_state_text(system, pub["locations"][loc["id"]])
                    if loc["id"] in pub["locations"]
                    else "",
                }
                for loc in pub["setup"]["locations"]
                if loc["id"] in pub.get("listed", ())
            ],
            "units": [
                {"status": status, "names": ", ".join(found)} for status, found in units.items()
            ],
            "recorded": f"{pub['next']} of {len(pub['turns'])} turns recorded",
        }
    }


# The blank ledger: as many turn lines as fill one page (A4 and US Letter alike:
# tests/rosters/test_blank_sheets.py holds it to one page), for a scenario kept by hand.
BLANK_TURNS = 23


def blank_ledger() -> dict:
    """The ledger with empty turn lines, for the table before any campaign exists."""
    return {"ledger": {"blank": True, "turns": [{} for _ in range(BLANK_TURNS)]}}
