"""Dice expressions and secure rolling.

A roll is always recorded as the faces of the physical dice, so a roll entered by a
player at the table and one made by the server are stored alike. The expression
says how the faces add up: "2d6" (DR), "1d6" (dr), "1d3" (one d6 halved, rounding
up: Rifles in the Ardennes 1.2), "1d10" (FAB; a 0 is entered as 10).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from campaigns.errors import DomainError

_EXPR = re.compile(r"^(\d+)d(3|6|10)$")


@dataclass(frozen=True)
class DiceExpr:
    count: int
    sides: int  # the sides of the value: 3 for "1d3"

    @property
    def text(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def die_faces(self) -> int:
        """Faces of the physical die thrown: a d3 is a halved d6."""
        return 6 if self.sides == 3 else self.sides

    def value_of_face(self, face: int) -> int:
        return (face + 1) // 2 if self.sides == 3 else face

    def total(self, faces: list[int]) -> int:
        return sum(self.value_of_face(f) for f in faces)

    def check_faces(self, faces: object, field: str = "dice") -> list[int]:
        if not isinstance(faces, (list, tuple)) or len(faces) != self.count:
            raise DomainError(field, f"{self.text} needs {self.count} die value(s).")
        clean = []
        for face in faces:
            if (
                isinstance(face, bool)
                or not isinstance(face, int)
                or not 1 <= face <= self.die_faces
            ):
                raise DomainError(
                    field, f"Each die of {self.text} is a whole number from 1 to {self.die_faces}."
                )
            clean.append(face)
        return clean

    def roll(self) -> list[int]:
        return [secrets.randbelow(self.die_faces) + 1 for _ in range(self.count)]

    def outcomes(self) -> Iterator[tuple[int, ...]]:
        """Every equally likely throw, as lists of faces."""
        return product(range(1, self.die_faces + 1), repeat=self.count)


@lru_cache(maxsize=64)  # a handful of expressions, parsed for every die a pool reads
def parse(expr: str | None) -> DiceExpr:
    match = _EXPR.match(expr or "")
    if not match:
        raise DomainError("expr", f"Unknown dice expression {expr!r}.")
    count = int(match.group(1))
    if not 1 <= count <= 3:
        raise DomainError("expr", f"Unknown dice expression {expr!r}.")
    return DiceExpr(count, int(match.group(2)))
