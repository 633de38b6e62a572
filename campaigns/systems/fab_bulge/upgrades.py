"""FAB: The Bulge journals of earlier versions, carried to today's (docs/journal.md, "Versions and
upgrades"; its journals/ folder replays journals of each version on every CI).

- v1 → v2 (docs/rules-notes.md, VL-5): a side's turn record and end-of-game result wait for the other side's confirmation, so
  that one side alone cannot write the score; those entered before stay final (a "fold" step).
"""

from __future__ import annotations

from campaigns.systems.victory_ledger.upgrades import RecordsConfirmed

STEPS = (RecordsConfirmed(1),)
