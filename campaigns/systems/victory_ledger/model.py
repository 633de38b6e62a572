"""The ledger's plain values: a game's book data, its turn calendar, the results of a check.

A game's book (``book.yaml`` beside its system) holds what the rulebook text gives:
sides, scenarios (name, rule, calendar, start of play), victory locations and units
where the text has them, and the numbers its rules state (constants, house-rulable).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import yaml

CHANGES = {
    # change: (statuses it may follow, status after, words)
    "eliminated": (("full", "reduced"), "eliminated", "eliminated"),
    "reduced": (("full",), "reduced", "reduced"),
    "restored": (("reduced",), "full", "back to full strength"),
    "rebuilt": (("eliminated",), "reduced", "rebuilt (reduced)"),
    "exited": (("full", "reduced"), "exited", "exited off the map"),
    "withdrawn": (("full", "reduced"), "withdrawn", "withdrawn"),
}
STATUS_WORDS = {
    "full": "full strength",
    "reduced": "reduced",
    "eliminated": "eliminated",
    "exited": "exited",
    "withdrawn": "withdrawn",
}


@dataclass(frozen=True)
class Check:
    """One victory condition looked at, in words: "German 11 VP ≥ 10: operational victory"."""

    rule: str
    name: str
    met: bool
    text: str

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Outcome:
    """How the game ended: a side won (or None: a draw), why, and under which rule."""

    winner: str | None
    text: str
    rule: str

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Evaluation:
    """What a game's rules make of the ledger after one turn."""

    scores: dict = field(default_factory=dict)  # side -> number shown as that side's score
    lines: list = field(default_factory=list)  # how the scores were counted, in words
    checks: list = field(default_factory=list)  # Check
    outcome: Outcome | None = None
    decision: dict | None = None  # a choice a side makes before the outcome stands (PV 16.1E)
    level: dict | None = None  # FAB: {"side": advantaged side or None, "value": VP level}
    chart: dict = field(default_factory=dict)  # series name -> value for this turn
    memo: dict = field(default_factory=dict)  # what a later check needs of this one (A44 30.3)


@dataclass(frozen=True)
class Book:
    slug: str
    sides: tuple[tuple[str, str], ...]
    scenarios: dict
    locations: tuple[dict, ...]
    units: dict  # scenario slug (or "all") -> [unit dicts]
    constants: dict
    terms: dict  # words the pages use: location noun, location groups, unit flags

    def side_name(self, slug: str | None) -> str:
        return dict(self.sides).get(slug, "nobody") if slug else "nobody"

    def other(self, side: str) -> str:
        return next(s for s, _ in self.sides if s != side)

    def scenario(self, slug: str) -> dict:
        return self.scenarios[slug]

    def units_for(self, scenario: str) -> list[dict]:
        return [*self.units.get("all", []), *self.units.get(scenario, [])]


@cache
def load_book(path: Path) -> Book:
    with Path(path).open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    return Book(
        slug=data["slug"],
        sides=tuple((s["slug"], s["name"]) for s in data["sides"]),
        scenarios=data["scenarios"],
        locations=tuple(data.get("locations", [])),
        units=data.get("units", {}),
        constants=data.get("constants", {}),
        terms=data.get("terms", {}),
    )


def day_calendar(
    first: int, last: int, *, lead_night: bool = False, part: int = 0, first_number: int = 1
) -> list:
    """AM and PM turns from day `first` to day `last`, a Night turn between each PM and the next
    AM (Ardennes '44 25.1); `lead_night` starts with the night before `first` AM (S5.1)."""
    turns, number = [], first_number
    for day in range(first, last + 1):
        if day > first or lead_night:
            turns.append(turn(f"Night {day - 1}/{day}", "night", None, part))
        for half in ("AM", "PM"):
            turns.append(turn(f"{day} {half}", "day", number, part))
            number += 1
    return turns


def turn(label: str, kind: str = "day", number: int | None = None, part: int = 0) -> dict:
    """One entry of a game's calendar; `part` is the core scenario it belongs to."""
    return {"label": label, "kind": kind, "number": number, "part": part}
