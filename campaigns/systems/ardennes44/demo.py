"""The demo club's Ardennes '44 campaign: the Campaign Game (S1) with the set-up the book gives,
three turns recorded (16 AM, 16 PM and the night after); 17 AM is next."""

from __future__ import annotations

from campaigns.systems.victory_ledger.demo import build, row


def build_demo(table):
    turns = [
        {"turn": "16 AM", "locations": [row("18VG", "german"), row("26VG", "german")]},
        {
            "turn": "16 PM",
            "locations": [row("Bastogne-1", "german", supplied=False)],
            "note": "Clervaux holds out.",
        },
        {"turn": "Night 16/17", "locations": [row("Bastogne-1", "german")]},
    ]
    return build(
        table,
        variant="s1",
        name="The Bulge, all of it (demo)",
        turns=turns,
    )
