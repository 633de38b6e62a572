"""Dice in the journal: a pool keyed by step and subject, and who provides missing dice.

Every roll has a key ("5/30A/1.616/german"). The pool holds every die ever
recorded in the campaign, including rolls a corrected history no longer needs,
so recomputing the campaign re-uses the same dice and nobody re-rolls until they
like the result. When a key is missing, a provider decides what happens: the
server rolls it, the player is asked for it, or (replaying a file) it is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from campaigns.dice import expressions as dicelib
from campaigns.errors import DiceNeeded, DomainError
from campaigns.journal.records import Record


@dataclass
class DicePool:
    faces: dict[str, list[int]] = field(default_factory=dict)
    exprs: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)
    # key -> the side the rules roll it for ("" public), as asked during folds: a journal
    # file's dice are held to it (campaigns.services.journal_files).
    requested: dict[str, str] = field(default_factory=dict)
    # The journal's dice not read yet (``later``): read when a roll is first looked up or added.
    unread: Callable[[], Iterable[Record]] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> DicePool:
        pool = cls()
        pool._read(records)
        return pool

    @classmethod
    def later(cls, records: Callable[[], Iterable[Record]]) -> DicePool:
        """A pool of the dice `records()` gives, read only when a roll is first looked up or
        added: most appends roll nothing, and a long campaign's journal holds hundreds of dice."""
        return cls(unread=records)

    def read(self) -> DicePool:
        """The pool with every die of the journal in it (read now if it was not yet)."""
        if self.unread is not None:
            records, self.unread = self.unread, None  # so that ``add`` reads nothing again
            try:
                self._read(records())
            except BaseException:  # a damaged journal: nothing half read stays in the pool
                self.faces, self.exprs, self.sides = {}, {}, {}
                self.unread = records
                raise
        return self

    def _read(self, records: Iterable[Record]) -> None:
        pool = self
        for record in records:
            if record.kind == "dice.rolled":
                # The event's data as stored (JSON): its kind's fields say key and expr are text.
                key = cast(str, record.data.get("key"))
                if key in pool.faces:
                    raise DomainError(
                        f"event {record.seq}.key", f"The roll {key!r} is recorded twice."
                    )
                pool.add(
                    key,
                    cast(str, record.data.get("expr")),
                    record.data.get("dice"),
                    record.side,
                    record.seq,
                )

    def add(
        self, key: str, expr: str, faces: object, side: str = "", seq: int | None = None
    ) -> None:
        self.read()
        where = f"event {seq}." if seq is not None else ""
        parsed = dicelib.parse(expr)
        self.faces[key] = parsed.check_faces(faces, f"{where}dice")
        self.exprs[key] = expr
        self.sides[key] = side


class RefuseMissingDice:
    """Where the dice come from when none may be rolled now: replaying stored events, every die
    must already be in the journal, and a missing one is refused. The base of every provider
    (LiveProvider rolls or asks instead)."""

    def provide(self, key: str, expr: str, side: str, record: Record) -> list[int]:
        raise DomainError(
            f"event {record.seq}", f"The dice for {key} ({expr}) are missing from the journal."
        )

    def finish(self, unused_ok: bool = False) -> None:
        pass


@dataclass
class NewRoll:
    key: str
    expr: str
    dice: list[int]
    side: str
    source: str  # server | entered


class LiveProvider(RefuseMissingDice):
    """Submitting: the server rolls, or players enter dice (per campaign).

    `entered` holds dice the submitter typed in, by key. In "entered" mode a
    missing key the submitter may see is asked for (all of them at once, via
    DiceNeeded); one the submitter may not see (the other side's secret roll,
    newly needed after a correction) is rolled by the server rather than
    revealed.
    """

    def __init__(
        self,
        mode: str,
        entered: dict[str, Any] | None = None,
        may_see: Callable[[str], bool] = lambda side: True,
    ):
        self.mode = mode
        self.entered = dict(entered or {})
        self.may_see = may_see
        self.new: list[NewRoll] = []
        self.missing: list[dict[str, str]] = []

    def provide(self, key: str, expr: str, side: str, record: Record) -> list[int]:
        parsed = dicelib.parse(expr)
        if key in self.entered:
            faces = parsed.check_faces(self.entered.pop(key), f"dice.{key}")
            self.new.append(NewRoll(key, expr, faces, side, "entered"))
            return faces
        if self.mode == "entered" and self.may_see(side):
            self.missing.append({"key": key, "expr": expr})
            return [1] * parsed.count  # placeholder so every missing roll is found in one pass
        faces = parsed.roll()
        self.new.append(NewRoll(key, expr, faces, side, "server"))
        return faces

    def finish(self, unused_ok: bool = False) -> None:
        """`unused_ok`: entered dice may still be waiting for a follow-up event (a sealed reveal)."""
        if self.missing:
            raise DiceNeeded(self.missing)
        if self.entered and not unused_ok:
            raise DomainError("dice", f"No roll is due for: {', '.join(sorted(self.entered))}.")
