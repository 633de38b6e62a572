"""Patton's Vanguard journals of earlier versions, carried to today's (docs/journal.md, "Versions and
upgrades"; its journals/ folder replays journals of each version on every CI).

- v1 → v2 (docs/rules-notes.md, PV-12): only the player who held the Advantage when the Refit Phase
  began may spend it for one more RP (16.1D, 16.2). A v1 turn record could name either side as
  spending it; such records keep their v1 reading (a "fold" step: advantage.apply_turn asks
  ``ctx.journal_version``). v1 let the side that did not hold it spend it, against the rules.
- v2 → v3 (docs/rules-notes.md, VL-5): a side's turn record waits for the other side's confirmation, so that one side alone
  cannot write the score; records entered before stay final (a "fold" step).
"""

from __future__ import annotations

from campaigns.game_interface import Upgrade
from campaigns.systems.victory_ledger.upgrades import RecordsConfirmed


class HolderSpendsTheAdvantage(Upgrade):
    version = 1
    name = "pv-holder-spends-the-advantage"
    words = (
        "only the player who held the Advantage when the Refit Phase began may spend it for one more RP "
        "(16.1D, 16.2); turns recorded before keep their reading"
    )
    how = "fold"


STEPS = (HolderSpendsTheAdvantage(), RecordsConfirmed(2))
