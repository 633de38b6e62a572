"""The demo club's Patton's Vanguard campaign: Scenario 2 (its start of play is in the text,
19.2), set-up as the book gives it, two turns recorded; turn 3 is next."""

from __future__ import annotations

from campaigns.systems.victory_ledger.demo import build, row


def build_demo(table):
    turns = [
        {
            "turn": "Turn 1 (25 Sep)",
            "locations": [row("13", "german"), row("9", "american", contested=True)],
            "units": [
                {"unit": "602/D", "change": "reduced"},
                {"unit": "2/2113B", "change": "eliminated"},
            ],
            "advantage": "american",
            "note": "Fog until impulse 5.",
        },
        {
            "turn": "Turn 2 (26 Sep)",
            "locations": [row("14", "german", supplied=False)],
            "units": [
                {"unit": "602/D", "change": "eliminated"},
                {"unit": "53/A", "change": "reduced"},
                {"unit": "2/2113B", "change": "rebuilt"},
            ],
            "advantage": "german",
            "advantage_rp": "american",
        },
    ]
    return build(
        table,
        variant="s2",
        name="Arracourt, second round (demo)",
        turns=turns,
    )
