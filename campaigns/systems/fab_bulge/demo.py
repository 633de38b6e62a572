"""The demo club's FAB: The Bulge campaign. The play book's text gives neither the scenario's
length, nor the map's VP symbols, nor the Turn Record Chart: this demo's organizer entered
values of their own (the campaign's name says so); three turns are recorded."""

from __future__ import annotations

from campaigns.systems.victory_ledger.demo import build, row

SYMBOLS = {
    "23": ("yellow_star", 1),
    "47": ("yellow_star", 1),
    "33": ("white_stars", 1),
    "75": ("white_stars", 1),
    "3": ("german_symbols", 1),
}
STEPS = {"US 106 ID": 3, "US 7 AD": 4, "US 1 ID": 4, "18 VG": 3, "2 Pz": 4}


def _setup(book):
    locations = [
        dict(
            loc,
            symbol=SYMBOLS.get(loc["id"], ("none", 0))[0],
            value=SYMBOLS.get(loc["id"], ("none", 0))[1],
            start="german" if loc["id"] == "3" else loc["start"],
        )
        for loc in book["locations"]
    ]
    units = [dict(u, steps=STEPS.get(u["id"], 0)) for u in book["units"]]
    return {
        "locations": locations,
        "units": units,
        "first_turn": 1,
        "last_turn": 9,
        "end_rule": "entered",
        "thresholds": [{"turn": n, "german": 6, "allied": 6} for n in range(4, 10)],
    }


def build_demo(table):
    turns = [
        {"turn": "Turn 1", "locations": [row("23", "allied")]},
        {"turn": "Turn 2", "units": [{"unit": "US 106 ID", "change": "eliminated"}]},
        {"turn": "Turn 3", "locations": [row("23", "german"), row("47", "german", contested=True)]},
    ]
    return build(
        table,
        variant="campaign",
        name="The Bulge in fast action (demo, organizer-entered values)",
        setup=_setup,
        turns=turns,
    )
