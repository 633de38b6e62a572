"""What a house rule may override, in words, with the book's value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaigns.systems.base import GameSystem


@dataclass(frozen=True)
class HouseRuleChoice:
    key: str
    label: str
    book: object


def house_rule_choices(system: GameSystem) -> list[HouseRuleChoice]:
    """Every value a house rule may override: the system's constants, then each
    table cell, with the book value."""
    from campaigns.dice.tables import cell_key

    found = [
        HouseRuleChoice(key, f"{c.get('label', key)} ({c.get('rule', '')})", c["value"])
        for key, c in system.constants().items()
    ]
    for table in system.tables.tables.values():
        for row in table.rows:
            for column, value in row.cells.items():
                heading = table.columns.get(column, column)
                found.append(
                    HouseRuleChoice(
                        cell_key(table.id, row.label, column),
                        f"{table.name} ({table.rule}), {row.label}, {heading}",
                        value,
                    )
                )
    return found


_LABELS: dict[str, dict[str, str]] = {}


def house_rule_labels(system: GameSystem) -> dict[str, str]:
    """key -> words of every value a house rule may override (computed once per system)."""
    if system.slug not in _LABELS:
        _LABELS[system.slug] = {c.key: c.label for c in house_rule_choices(system)}
    return _LABELS[system.slug]
