"""Ardennes '44 journals of earlier versions, carried to today's (docs/journal.md, "Versions and
upgrades"; its journals/ folder replays journals of each version on every CI).

- v1 → v2 (docs/rules-notes.md, A44-11): Night-turn replacements go by the unit's type (25.2.1) and
  never to the units 25.2.5 lists; the set-up records each unit's type and flags. A v1 journal's
  units have no type: its replacements keep their v1 reading (a "fold" step: the checks ask
  ``ctx.journal_version``); replacements recorded after the upgrade need the unit's type.
- v2 → v3 (docs/rules-notes.md, VL-5): a side's turn record waits for the other side's confirmation, so that one side alone
  cannot write the score; records entered before stay final (a "fold" step).
"""

from __future__ import annotations

from campaigns.game_interface import Upgrade
from campaigns.systems.victory_ledger.upgrades import RecordsConfirmed


class ReplacementsByType(Upgrade):
    version = 1
    name = "a44-replacements-by-type"
    words = (
        "Night-turn replacements go by unit type (25.2.1) and never to the units 25.2.5 lists; "
        "replacements recorded before keep their reading"
    )
    how = "fold"


STEPS = (ReplacementsByType(), RecordsConfirmed(2))
