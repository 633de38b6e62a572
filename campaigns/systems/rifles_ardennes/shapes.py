"""The shape of a Rifles in the Ardennes campaign's state, for readers.

Rifles is solitaire: everything is public (`state["game"]["public"]`) and the one side's
entry stays empty. Written by `state.initial_state` and the appliers of squad.py and
briefing.py; `state.py`'s reads (`public`, `squad`, `soldiers` …) return these parts.
"""

# No `from __future__ import annotations`: TypedDict needs NotRequired evaluated (3.11).
from typing import Any, Literal, NotRequired, TypedDict

RiflesPhase = Literal["setup", "mission", "briefing", "finished"]
SoldierStatus = Literal["active", "wounded", "dead", "returned"]


class CatalogItem(TypedDict):
    """A unit or a piece of equipment from the Army Sheet (or entered by the player)."""

    id: str
    name: str
    kind: Literal["unit", "equipment"]
    ap: int | None  # None where the rulebook text lost it: entered before use
    cf: int | None
    cf_armored: int | None
    may_lead: bool
    attributes: str
    note: str
    provides: str
    count: int


class Soldier(TypedDict):
    id: str  # "s1", "s2" … in order of joining
    name: str
    letter: str
    unit: str  # catalog id
    unit_name: str
    ap: int
    designation: str  # "Leader", "Rifleman" …
    equipment: list[str]  # catalog ids
    status: SoldierStatus
    veteran: bool
    skills: list[str]
    skill_names: list[str]
    missions: list[str]  # the missions taken part in
    attached: int | None  # the mission index of an attachment, None for the squad's own
    wounded_in: int | None  # the index of the mission he was wounded in
    died_in: int | None  # the index of the mission he fell in
    previous_designation: str | None
    history: list[dict[str, Any]]


class EquipmentLine(TypedDict):
    """One piece of equipment the squad holds (bought, or attached for one mission)."""

    id: str  # "e1", "e2" … from the squad's `next`
    item: str  # catalog id
    name: str
    ap: int
    provides: str
    count: int
    attached: int | None  # the mission index of an attachment, None for the squad's own


class Squad(TypedDict):
    soldiers: list[Soldier]
    equipment: list[EquipmentLine]
    xp: int  # unspent
    xp_earned: int
    xp_spent: int
    next: int  # the number of the next soldier's id
    temporary_leader: str | None  # a soldier's id (rule 6)


class Mission(TypedDict):
    label: str
    name: str
    game_turns: int | None
    extra_ap: int
    attachments: str
    notes: str
    log: dict[str, Any] | None  # the mission's result once recorded
    briefing: NotRequired[dict[str, Any]]  # after its briefing: recovered, returned, leader_note


class RiflesPublic(TypedDict):
    army: str
    enemy: str
    budget: int  # AP to build the squad (8.1)
    catalog: list[CatalogItem]
    missions: list[Mission]
    phase: RiflesPhase
    squad: Squad
    ledger: list[dict[str, Any]]
    briefing: dict[str, Any] | None  # the briefing between two missions while it lasts
    rolls: list[dict[str, Any]]
    said: dict[str, Any]


class RiflesGame(TypedDict):
    public: RiflesPublic
    sides: dict[str, dict[str, Any]]
    referee: dict[str, Any]
