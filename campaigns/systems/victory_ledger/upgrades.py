"""The upgrade step the three victory ledgers share (docs/journal.md, "Versions and upgrades")."""

from __future__ import annotations

from campaigns.game_interface import Upgrade


class RecordsConfirmed(Upgrade):
    """A side's turn record (and FAB's end-of-game result) waits for the other side's confirmation
    (confirmation.py), so that one side alone cannot write the score. Records written before stay final as they were (a "fold" step: confirmation.needed
    asks ``ctx.journal_version``)."""

    name = "ledger-records-confirmed"
    words = (
        "a side's turn record (and FAB's end-of-game result) waits for the other side's confirmation; "
        "records entered before stay final"
    )
    how = "fold"

    def __init__(self, version: int):
        self.version = version
