"""What a game system's hooks may use while one event is applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.dice.tables import BoundTable, CellValue
from campaigns.errors import DomainError
from campaigns.journal.records import EventsBySeq, Record
from campaigns.journal.state_shapes import HeldState, plain

if TYPE_CHECKING:  # a game's declarations import the context's helpers, not the other way
    from campaigns.systems.base import GameSystem


class Ctx:
    def __init__(
        self,
        system: GameSystem,
        state: HeldState,
        record: Record,
        pool: DicePool,
        provider: RefuseMissingDice,
        journal: EventsBySeq | None = None,
    ):
        self.system = system
        self.journal: EventsBySeq = (
            journal or {}
        )  # seq -> Record, for proposals naming earlier events
        self.state = plain(state)  # as the game's hooks read it
        self.record = record
        self.pool = pool
        self.provider = provider

    @classmethod
    def reading(cls, system: GameSystem, state: HeldState) -> Ctx:
        """A context for reading tables and constants (house rules applied); it rolls nothing."""
        return cls(system, state, Record(0, "read", {}, ""), DicePool(), RefuseMissingDice())

    @property
    def journal_version(self) -> int:
        """The version of this game's journal the event being applied folds under: today's, or an
        earlier one for events written before a "fold" upgrade (campaigns.versions). A game that
        changed a rule that way keeps the old rule while this is below the version that changed it."""
        version: int = self.state.get("journals", {}).get(
            self.system.slug, self.system.journal_version
        )
        return version

    @property
    def overrides(self) -> dict[str, Any]:
        return {key: rule["value"] for key, rule in self.state.get("house_rules", {}).items()}

    def table(self, table_id: str) -> BoundTable:
        return self.system.tables.bound(table_id, self.overrides)

    def constant(self, key: str) -> CellValue:
        book = self.system.constants()[key]["value"]
        rule = self.state.get("house_rules", {}).get(key)
        return CellValue(rule["value"] if rule else book, book)

    def value(self, key: str) -> Any:  # a constant of the rules: a number, text, a list …
        return self.constant(key).value

    def roll(self, key: str, expr: str, side: str = "") -> list[int]:
        """The dice for `key`: recorded ones if any, else new ones from the provider.

        `side` is the roll's audience: "" for a public roll, a side's slug for
        that side's secret roll.
        """
        self.pool.read().requested.setdefault(key, side)
        if key in self.pool.faces:
            if self.pool.exprs[key] != expr:
                raise DomainError(
                    f"event {self.record.seq}",
                    f"The roll {key} was recorded as {self.pool.exprs[key]}, not {expr}.",
                )
            return list(self.pool.faces[key])
        faces = self.provider.provide(key, expr, side, self.record)
        self.pool.add(key, expr, faces, side)
        return list(faces)
