"""The system's event kinds: what each carries (declared once; pages make the fields concrete
from the campaign in forms.py, the API and journal files send them as they are)."""

from __future__ import annotations

from typing import Any

from campaigns.game_interface import EventKind, Field

from .data import DESIGNATIONS

_ID: dict[str, Any] = dict(max_length=20)  # an id of the catalog or the squad, as a field takes it

SOLDIER_ROW = Field(
    "soldier",
    "object",
    fields=(
        Field("name", label="Personal name", required=False, default="", max_length=40),
        Field("letter", label="Counter letter", required=False, default="", max_length=1),
        Field(
            "unit",
            label="Unit",
            required=False,
            default="",
            **_ID,
            help="A unit of the catalog; a row without a unit is skipped.",
        ),
        Field(
            "designation",
            label="Designation",
            choices=DESIGNATIONS,
            default="Rifleman",
            max_length=20,
        ),
        Field("equipment_1", label="Equipment 1", required=False, default="", max_length=40),
        Field("equipment_2", label="Equipment 2", required=False, default="", max_length=40),
        Field(
            "attached",
            "bool",
            label="Attached",
            required=False,
            default=False,
            help="For the coming mission only, with its additional AP (2.2).",
        ),
    ),
)
EQUIPMENT_ROW = Field(
    "line",
    "object",
    fields=(
        Field("item", label="Equipment", **_ID),
        Field("quantity", "int", label="How many", min=0, max=20, required=False, default=0),
        Field(
            "attached",
            "bool",
            label="Attached",
            required=False,
            default=False,
            help="For the coming mission only, with its additional AP (2.2).",
        ),
    ),
)
SOLDIERS = Field(
    "soldiers", "list", label="Soldiers", item=SOLDIER_ROW, max=40, required=False, default=[]
)
EQUIPMENT = Field(
    "equipment", "list", label="Equipment", item=EQUIPMENT_ROW, max=20, required=False, default=[]
)

KINDS = (
    EventKind(
        "rifles.catalog",
        "Catalog entry added or changed",
        (
            Field(
                "item", label="Entry", required=False, default="", **_ID, help="Empty: a new entry."
            ),
            Field("name", label="Unit or equipment name", max_length=40),
            Field(
                "kind",
                "choice",
                label="Kind",
                choices=("unit", "equipment"),
                labels=(("unit", "Unit (a soldier)"), ("equipment", "Equipment")),
            ),
            Field("ap", "int", label="AP", min=0, max=20),
            Field("cf", "int", label="Combat factor (basic)", required=False, min=-9, max=9),
            Field(
                "cf_armored", "int", label="Combat factor (armored)", required=False, min=-9, max=9
            ),
            Field(
                "may_lead",
                "bool",
                label="May lead",
                required=False,
                default=False,
                help="May be designated Leader: the Army Sheet's Attributes column (6).",
            ),
            Field("attributes", label="Attributes", required=False, default="", max_length=120),
            Field("note", label="Note", required=False, default="", max_length=200),
            Field(
                "provides",
                label="Equipment: one piece is a",
                required=False,
                default="",
                max_length=30,
                help="E.g. Grenade for 5x Grenades.",
            ),
            Field(
                "count",
                "int",
                label="Equipment: pieces for its AP",
                required=False,
                default=1,
                min=1,
                max=20,
            ),
        ),
        rule="1.4, 2.2",
        help="Unit and equipment values from your Army Sheet.",
    ),
    EventKind(
        "rifles.mission",
        "Mission set up",
        (
            Field("mission", "int", label="Mission", min=0, max=40),
            Field("name", label="Mission name", max_length=80),
            Field("game_turns", "int", label="Game turns", min=1, max=12),
            Field(
                "extra_ap",
                "int",
                label="Additional AP for attachments",
                required=False,
                default=0,
                min=0,
                max=20,
            ),
            Field(
                "attachments",
                label="Attachments (unit types the mission provides)",
                required=False,
                default="",
                max_length=200,
            ),
            Field("notes", label="Notes", required=False, default="", max_length=500),
        ),
        rule="2.1, 2.2",
        help="From the Mission Sheet: its name, game turns and any attachments.",
    ),
    EventKind(
        "rifles.squad",
        "Squad created",
        (SOLDIERS, EQUIPMENT),
        rule="2.2, 8.1",
        help="Units and equipment within the Army's AP; exactly one Leader who may lead.",
    ),
    EventKind("rifles.xp", "Experience roll", (), rule="8.4"),
    EventKind(
        "rifles.spend_xp",
        "XP spent",
        (
            Field(
                "soldiers",
                "list",
                label="Promotions and skills",
                max=40,
                item=Field(
                    "row",
                    "object",
                    fields=(
                        Field("soldier", label="Soldier", **_ID),
                        Field(
                            "veteran",
                            "bool",
                            label="Promote to Veteran",
                            required=False,
                            default=False,
                        ),
                        Field("skill", label="Skill", required=False, default="", max_length=30),
                    ),
                ),
            ),
        ),
        rule="8.4",
        help="2 XP a Veteran, 2 XP a skill; one skill per soldier.",
    ),
    EventKind("rifles.casualties", "Casualty rolls", (), rule="8.3"),
    EventKind(
        "rifles.leader", "Leader named", (Field("soldier", label="New Leader", **_ID),), rule="6"
    ),
    EventKind("rifles.reinforce", "Reinforcements requested from HQ", (), rule="8.2"),
    EventKind(
        "rifles.recruit",
        "Soldiers or equipment joined",
        (SOLDIERS, EQUIPMENT),
        rule="8.2",
        help="Spend the AP HQ granted, or a mission's additional AP on attachments.",
    ),
    EventKind(
        "rifles.roster",
        "Roster updated",
        (
            Field(
                "soldiers",
                "list",
                label="Soldiers",
                max=40,
                item=Field(
                    "row",
                    "object",
                    fields=(
                        Field("soldier", label="Soldier", **_ID),
                        Field(
                            "name", label="Personal name", required=False, default="", max_length=40
                        ),
                        Field("letter", label="Counter letter", max_length=1),
                        Field(
                            "designation", label="Designation", choices=DESIGNATIONS, max_length=20
                        ),
                        Field(
                            "equipment_1",
                            label="Equipment 1",
                            required=False,
                            default="",
                            max_length=40,
                        ),
                        Field(
                            "equipment_2",
                            label="Equipment 2",
                            required=False,
                            default="",
                            max_length=40,
                        ),
                    ),
                ),
            ),
        ),
        rule="2.2",
        help="Names, counter letters, designations and who carries which equipment.",
    ),
    EventKind("rifles.next_mission", "Briefing closed", (), rule="8.2"),
)
