"""The system's data files beside it: armies, the seed catalog, constants, table words."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

DATA = Path(__file__).parent

OUTCOME_LABELS = (("accomplished", "Accomplished"), ("lost", "Lost"), ("aborted", "Aborted"))
DESIGNATIONS = ("Leader", "Assistant Leader", "Gunner", "Rifleman")
LEADER = "Leader"
LETTERS = tuple(chr(c) for c in range(ord("A"), ord("Z") + 1))
CASUALTY_RESULTS = ("dead", "wounded", "lightly wounded")

# The book's example squad (2.2), offered to a German player as the starting rows.
BOOK_SQUAD = (
    ("A", "smg", "Leader", "Grenade"),
    ("B", "rifle", "Assistant Leader", "Grenade"),
    ("J", "lmg", "Gunner", ""),
    ("D", "rifle", "Rifleman", "Grenade"),
    ("G", "rifle", "Rifleman", "Grenade"),
    ("H", "rifle", "Rifleman", "Grenade"),
    ("I", "rifle", "Rifleman", ""),
)


def _load(name: str):
    with (DATA / name).open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@cache
def armies() -> dict:
    return _load("armies.yaml")


@cache
def seed_catalog() -> dict:
    return _load("catalog.yaml")


@cache
def constants() -> dict:
    return _load("constants.yaml")


def army_name(slug: str) -> str:
    return armies().get(slug, {}).get("name", slug)
