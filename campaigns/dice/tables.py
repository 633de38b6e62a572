"""Rule tables as data, looked up against their own rows.

A table file (YAML) beside a game system:

    id: "1.616"                 # unique within the system, usually the rule number
    name: CPP Replenishment
    rule: "1.616"
    dice: 2d6                   # rolled tables only; lookup tables omit it
    columns: {cpp: CPP}         # result columns: key -> printed heading
    rows:
      - {range: "≤2", cpp: 15}  # rolled tables: the printed range
      - {range: "3-4", cpp: 14}
      - {range: ">12", cpp: 8}  # open-ended rows are kept as printed
    modifiers:                  # the printed DRM list (the system decides which apply)
      - {key: won_previous, label: "Won Previous Half-Day", value: "+1"}
    notes: {a: "..."}           # footnotes, verbatim

Lookup tables give each row a `key:` instead of a `range:` (e.g. an RG ID).

A final roll is read against the table's own rows and is never clamped to the
dice's range. House rules override single cells (``"<table>:<row>:<column>"``);
the book value stays available beside the house value wherever it is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from campaigns.dice import expressions as dicelib
from campaigns.errors import DomainError

Bounds = tuple[int | None, int | None]
_RANGE_PATTERNS: list[tuple[re.Pattern[str], Callable[[int], Bounds]]] = [
    (re.compile(r"^(?:≤|<=)\s*(-?\d+)$"), lambda a: (None, a)),
    (re.compile(r"^<\s*(-?\d+)$"), lambda a: (None, a - 1)),
    (re.compile(r"^(?:≥|>=)\s*(-?\d+)$"), lambda a: (a, None)),
    (re.compile(r"^>\s*(-?\d+)$"), lambda a: (a + 1, None)),
    (re.compile(r"^(-?\d+)$"), lambda a: (a, a)),
]
_SPAN = re.compile(r"^(-?\d+)\s*[-–]\s*(-?\d+)$")


def parse_range(text: str) -> Bounds:
    """'≤2' -> (None, 2); '3-4' -> (3, 4); '>12' -> (13, None); '≤-1' -> (None, -1)."""
    cleaned = str(text).strip().replace("−", "-")
    span = _SPAN.match(cleaned)
    if span:
        lo, hi = int(span.group(1)), int(span.group(2))
        if lo > hi:
            raise ValueError(f"Range {text!r} runs backwards")
        return lo, hi
    for pattern, make in _RANGE_PATTERNS:
        match = pattern.match(cleaned)
        if match:
            return make(int(match.group(1)))
    raise ValueError(f"Unreadable range {text!r}")


@dataclass(frozen=True)
class Row:
    label: str  # the printed range, or the row key
    lo: int | None
    hi: int | None
    cells: dict[str, Any]

    def covers(self, value: int) -> bool:
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)


@dataclass(frozen=True)
class Table:
    id: str
    name: str
    rule: str
    dice: str | None
    columns: dict[str, str]
    rows: tuple[Row, ...]
    modifiers: tuple[dict[str, Any], ...] = ()
    notes: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        rows = []
        for raw in data.get("rows", []):
            cells = {k: v for k, v in raw.items() if k not in ("range", "key")}
            if "range" in raw:
                lo, hi = parse_range(raw["range"])
                rows.append(Row(str(raw["range"]), lo, hi, cells))
            else:
                rows.append(Row(str(raw["key"]), None, None, cells))
        if data.get("dice"):
            dicelib.parse(data["dice"])
        return cls(
            id=str(data["id"]),
            name=data["name"],
            rule=str(data.get("rule", data["id"])),
            dice=data.get("dice"),
            columns=dict(data.get("columns") or {}),
            rows=tuple(rows),
            modifiers=tuple(data.get("modifiers") or ()),
            notes=dict(data.get("notes") or {}),
        )

    @property
    def rolled(self) -> bool:
        return self.dice is not None

    def row(self, key: str) -> Row:
        for row in self.rows:
            if row.label == str(key):
                return row
        raise KeyError(f"{self.id}: no row {key!r}")

    def lookup(self, final: int) -> Row:
        for row in self.rows:
            if row.covers(final):
                return row
        raise DomainError("roll", f"Table {self.id} has no row for a final roll of {final}.")


@dataclass(frozen=True)
class CellValue:
    value: object
    book: object

    @property
    def house_ruled(self) -> bool:
        return self.value != self.book

    def as_dict(self) -> dict[str, object]:
        data = {"value": self.value}
        if self.house_ruled:
            data["book"] = self.book
        return data


class BoundTable:
    """A table seen through one campaign's house rules."""

    def __init__(self, table: Table, overrides: dict[str, Any]):
        self.table = table
        self._overrides = overrides

    def __getattr__(self, name: str) -> Any:  # the table's own attributes (id, dice, rows …)
        return getattr(self.table, name)

    def cell(self, row: Row | str, column: str) -> CellValue:
        row = row if isinstance(row, Row) else self.table.row(row)
        book = row.cells.get(column)
        key = cell_key(self.table.id, row.label, column)
        return CellValue(self._overrides.get(key, book), book)

    def value(self, row: Row | str, column: str) -> Any:  # a cell as the YAML holds it
        return self.cell(row, column).value

    def distribution(self, modifier: int, column: str | None = None) -> list[tuple[str, Fraction]]:
        """Exact probability of each row (or of each value of `column`) for the
        table's dice plus a fixed modifier, by enumerating every throw."""
        expr = dicelib.parse(self.table.dice)
        counts: dict[str, int] = {}
        order: list[str] = []
        total = 0
        for faces in expr.outcomes():
            row = self.table.lookup(expr.total(list(faces)) + modifier)
            label = row.label if column is None else str(self.value(row, column))
            if label not in counts:
                counts[label] = 0
                order.append(label)
            counts[label] += 1
            total += 1
        return [(label, Fraction(counts[label], total)) for label in order]


def cell_key(table_id: str, row_label: str, column: str) -> str:
    return f"{table_id}:{row_label}:{column}"


class TableSet:
    """All tables of one game system, loaded once from its data folder."""

    def __init__(self, tables: dict[str, Table]):
        self.tables = tables

    @classmethod
    def load(cls, folder: Path) -> TableSet:
        tables: dict[str, Table] = {}
        for path in sorted(Path(folder).glob("*.yaml")):
            with path.open(encoding="utf-8") as handle:
                documents = [d for d in yaml.safe_load_all(handle) if d]
            for data in documents:
                table = Table.from_dict(data)
                if table.id in tables:
                    raise ValueError(f"Duplicate table id {table.id} in {path}")
                tables[table.id] = table
        return cls(tables)

    def __contains__(self, table_id: str) -> bool:
        return table_id in self.tables

    def bound(self, table_id: str, overrides: dict[str, Any] | None = None) -> BoundTable:
        return BoundTable(self.tables[table_id], overrides or {})

    def book_value(self, key: str) -> Any:
        """The book value of a cell key, or KeyError if it names no cell."""
        table_id, row_label, column = split_cell_key(key)
        table = self.tables[table_id]
        row = table.row(row_label)
        if column not in row.cells:
            raise KeyError(key)
        return row.cells[column]


def split_cell_key(key: str) -> tuple[str, str, str]:
    """Table ids and column keys hold no colon; a row key may ("german:first_line")."""
    table_id, sep, rest = key.partition(":")
    row_label, sep2, column = rest.rpartition(":")
    if not (sep and sep2 and table_id and row_label and column):
        raise KeyError(key)
    return table_id, row_label, column
