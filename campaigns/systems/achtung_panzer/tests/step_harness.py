"""A small harness for the A!P! table steps: a state per docs/achtung-panzer.md, a Ctx whose
dice are given by key, and helpers to run a step (with its field validation) or check that
it refuses bad input and changes nothing. No Django, no database."""

from __future__ import annotations

import copy
import json
from functools import cached_property
from pathlib import Path

import pytest
import yaml

from campaigns.dice import expressions as dicelib
from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.dice.tables import TableSet
from campaigns.errors import DomainError
from campaigns.journal.context import Ctx
from campaigns.journal.records import Record
from campaigns.schema.fields import clean_fields

SYSTEM_DIR = Path(__file__).resolve().parents[1]


class FakeSystem:
    """The A!P! tables and constants, without the rest of the system."""

    slug = "achtung_panzer"
    # Today's version (the newest recorded): the rules the steps fold under.
    journal_version = max(
        map(int, json.loads((SYSTEM_DIR / "journal_versions.json").read_text())["versions"])
    )

    @cached_property
    def tables(self) -> TableSet:
        return TableSet.load(SYSTEM_DIR / "tables")

    @cached_property
    def _constants(self) -> dict:
        with (SYSTEM_DIR / "constants.yaml").open(encoding="utf-8") as handle:
            return yaml.safe_load(handle)

    def constants(self) -> dict:
        return self._constants


SYSTEM = FakeSystem()


class GivenDice(RefuseMissingDice):
    """Serves the dice a test gives by key and remembers each roll's audience."""

    def __init__(self, dice: dict):
        self.dice = dict(dice)
        self.sides: dict[str, str] = {}
        self.used: list[str] = []

    def provide(self, key, expr, side, record):
        if key not in self.dice:
            raise AssertionError(f"test gave no dice for {key} ({expr})")
        faces = dicelib.parse(expr).check_faces(list(self.dice[key]))
        self.sides[key] = side
        self.used.append(key)
        return faces


def make_ctx(state: dict, dice: dict | None = None, side: str = "") -> Ctx:
    return Ctx(
        SYSTEM, state, Record(1, "ap.test", {}, "tester", side), DicePool(), GivenDice(dice or {})
    )


def roster_line(
    half_day: str, winner: str | None = None, cvp=(0, 0), after=(0, 0), air=(False, False)
) -> dict:
    return {
        "half_day": half_day,
        "winner": winner,
        "cvp": {"allied": cvp[0], "german": cvp[1]},
        "cvp_after_victory": {"allied": after[0], "german": after[1]},
        "air_support": {"allied": air[0], "german": air[1]},
    }


def side_state(**values) -> dict:
    side = {
        "cpp": 0,
        "fpp": 0,
        "elr": 3,
        "san": 2,
        "rolls": [],
        "purchases": [],
        "fortifications": [],
        "retained": [],
        "eliminated": [],
        "next_id": 100,
        "attack_chit": None,
        "recon": {},
        "pending": {},
    }
    side.update(values)
    return side


def make_state(
    half_day: str = "5/29P",
    roster=None,
    record=None,
    allied=None,
    german=None,
    house_rules=None,
    **public,
) -> dict:
    roster = roster if roster is not None else [roster_line("5/29A", "allied")]
    if record is None:
        record = {"allied": {"won": 0, "lost": 0}, "german": {"won": 0, "lost": 0}}
        for line in roster:
            if line.get("winner"):
                loser = "german" if line["winner"] == "allied" else "allied"
                record[line["winner"]]["won"] += 1
                record[loser]["lost"] += 1
    pub = {
        "cg": "cg1",
        "half_day": half_day,
        "phase": "refit",
        "initial": False,
        "roster": roster,
        "record": record,
        "rolls": [],
        "initiative": {},
        "weather": None,
        "ec": None,
        "steps": {},
    }
    pub.update(public)
    return {
        "house_rules": house_rules or {},
        "sealed": {},
        "current": 1,
        "game": {
            "public": pub,
            "sides": {
                "allied": side_state(**(allied or {})),
                "german": side_state(**(german or {})),
            },
            "referee": {},
        },
    }


def unit(uid: str, kind: str = "squad", **values) -> dict:
    data = {
        "id": uid,
        "kind": kind,
        "type": "467",
        "nationality": "german",
        "status": "ok",
        "isolated": False,
        "captured": False,
        "vehicular": False,
        "note": "",
    }
    data.update(values)
    return data


def run(
    step, state: dict, side: str | None, data: dict | None = None, dice: dict | None = None
) -> Ctx:
    ctx = make_ctx(state, dice)
    cleaned = clean_fields(step.fields, data or {})
    step.run(ctx, state, side, cleaned)
    return ctx


def rejects(
    step, state: dict, side: str | None, data: dict, field: str, dice: dict | None = None
) -> DomainError:
    """The step refuses `data` naming `field`, and the state is exactly as before."""
    before = copy.deepcopy(state)
    with pytest.raises(DomainError) as caught:
        run(step, state, side, data, dice)
    assert caught.value.field == field, caught.value
    assert state == before
    return caught.value


def mods_of(report: dict) -> dict:
    """{rule-and-label: value} of a roll report, for asserting modifiers with their rule."""
    return {(m["rule"], m["label"]): m["value"] for m in report["modifiers"]}


def mod_values(report: dict) -> list[tuple[str, int]]:
    return [(m["rule"], m["value"]) for m in report["modifiers"]]


def last_roll(state: dict, side: str) -> dict:
    return state["game"]["sides"][side]["rolls"][-1]


def step_by_id(steps, step_id: str):
    for step in steps:
        if step.id == step_id:
            return step
    raise KeyError(step_id)
