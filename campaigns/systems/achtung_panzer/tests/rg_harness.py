"""A small harness for the 1.619-1.621 step tests: a state of the documented shape
(docs/achtung-panzer.md) and a Ctx whose dice are given by the test.

No Django and no database: the steps are pure functions of (ctx, state, side, data).
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from campaigns.dice.pool import DicePool, LiveProvider
from campaigns.dice.tables import TableSet
from campaigns.journal.context import Ctx
from campaigns.journal.records import Record
from campaigns.systems.achtung_panzer import common

SYSTEM_DIR = Path(__file__).resolve().parents[1]


class _System:
    """What a Ctx reads from a game system: its tables, its constants, and which journal (and
    today's version of it) the rules read to pick the rule of the event's version."""

    slug = "achtung_panzer"
    journal_version = common.JOURNAL_VERSION

    def __init__(self):
        self.tables = TableSet.load(SYSTEM_DIR / "tables")
        with (SYSTEM_DIR / "constants.yaml").open(encoding="utf-8") as handle:
            self._constants = yaml.safe_load(handle)

    def constants(self):
        return self._constants


SYSTEM = _System()


def cgs() -> dict:
    with (SYSTEM_DIR / "cgs.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def side_state(cpp=20, fpp=0, san=2, elr=3) -> dict:
    return {
        "cpp": cpp,
        "fpp": fpp,
        "elr": elr,
        "san": san,
        "rolls": [],
        "purchases": [],
        "fortifications": [],
        "retained": [],
        "eliminated": [],
        "next_id": 1,
        "attack_chit": None,
        "recon": {},
        "pending": {},
    }


def make_state(
    cg="cg1",
    half_day="5/29A",
    allied=None,
    german=None,
    record=None,
    roster=None,
    house_rules=None,
    special=None,
    declared=True,
) -> dict:
    public = {
        "cg": cg,
        "half_day": half_day,
        "phase": "refit",
        "initial": False,
        "roster": roster or [],
        "record": record or {"allied": {"won": 0, "lost": 0}, "german": {"won": 0, "lost": 0}},
        "elr": {},
        "san": {},
        "weather": None,
        "ec": None,
        "special_half_day": special,
        "british_half_days": 0,
        "steps": {},
        "rolls": [],
    }
    if declared:
        public["special_declared"] = half_day
    return {
        "house_rules": {k: {"value": v} for k, v in (house_rules or {}).items()},
        "game": {
            "public": public,
            "sides": {"allied": allied or side_state(), "german": german or side_state()},
            "referee": {},
        },
    }


class Run:
    """Runs one step function with a Ctx; dice by key, every one of them must be used."""

    def __init__(self, state: dict, dice: dict | None = None, pool: DicePool | None = None):
        self.state = state
        self.provider = LiveProvider("entered", dict(dice or {}))
        self.pool = pool or DicePool()

    def ctx(self, side: str = "", data: dict | None = None) -> Ctx:
        record = Record(
            seq=1, kind="ap.test", data=data or {}, actor="tester", side=side, audience="side"
        )
        return Ctx(SYSTEM, self.state, record, self.pool, self.provider)

    def __call__(self, func, side: str, data: dict | None = None):
        result = func(self.ctx(side, data), self.state, side, data or {})
        self.provider.finish()  # every die given was used, none is missing
        return result


def run(func, state, side, data=None, dice=None):
    return Run(state, dice)(func, side, data)


def snapshot(state: dict) -> dict:
    return copy.deepcopy(state)
