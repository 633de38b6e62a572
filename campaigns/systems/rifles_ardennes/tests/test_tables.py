"""Rifles in the Ardennes tables, constants, armies and seed catalog, checked value by value
against the rulebook text (/work/shared/seeds/004_9e505ee799ccddc0.txt). Expected values were
typed from the book, never read back from the data files. "# RA-n" marks a value the
extraction lost (a die-face glyph): see docs/rules-notes.md, "Rifles in the Ardennes"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from campaigns.dice.tables import TableSet

SYSTEM = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tables() -> TableSet:
    return TableSet.load(SYSTEM / "tables")


def load(name):
    with (SYSTEM / name).open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def rows(table, column):
    return [(row.label, row.cells[column]) for row in table.rows]


def test_reinforcements_8_2(tables):
    table = tables.tables["8.2"]
    assert (table.name, table.rule, table.dice) == ("Reinforcements from HQ", "8.2", "1d6")
    # "No reinforcements available / ■-☑ One AP available / 1d3 AP available … Roll one additional die"
    assert rows(table, "ap") == [
        ("1", "0"),
        ("2", "0"),
        ("3", "1"),
        ("4", "1"),
        ("5", "1"),
        ("6", "1d3"),
    ]  # RA-1
    assert rows(table, "equipment_die") == [(f, f == "6") for f in "123456"]  # RA-1
    assert table.notes["0"] == "No reinforcements available"
    assert table.notes["1"] == "One AP available to reinforce your Squad"
    assert table.notes["1d3"] == "1d3 AP available to reinforce your Squad"
    assert table.modifiers == ()


def test_reinforcements_additional_die_8_2(tables):
    table = tables.tables["8.2-equipment"]
    assert (table.rule, table.dice) == ("8.2", "1d6")
    # "on a result of ■ ■ you gain one AP to spend on equipment only"
    assert rows(table, "equipment_ap") == [
        ("1", 0),
        ("2", 0),
        ("3", 0),
        ("4", 0),
        ("5", 0),
        ("6", 1),
    ]  # RA-2
    assert "This AP cannot be spent to get additional units." in table.notes["text"]


def test_end_mission_table_8_3(tables):
    table = tables.tables["8.3"]
    # Bull Strength: "Add a +1 DRM to the End Mission Table (8.3) roll"
    assert (table.name, table.rule, table.dice) == ("End Mission Table", "8.3", "1d6")
    assert rows(table, "result") == [
        ("≤1", "dead"),
        ("2", "wounded"),
        ("3", "wounded"),
        ("4", "wounded"),
        ("5", "wounded"),
        ("≥6", "lightly wounded"),
    ]  # RA-3
    # "Apply a -1 DRM if the mission was lost."; Bull Strength +1 (8.4.1)
    assert [(m["key"], m["value"]) for m in table.modifiers] == [
        ("lost", "-1"),
        ("bull_strength", "+1"),
    ]
    assert table.lookup(0).cells["result"] == "dead"  # 1 − 1: open-ended, never clamped
    assert table.lookup(7).cells["result"] == "lightly wounded"  # 6 + 1
    assert table.notes["dead"].startswith(
        "The soldier is dead: remove its name from the Squad Roster"
    )
    assert (
        table.notes["lightly wounded"]
        == "The soldier was only lightly wounded and is still able to fight."
    )


def test_experience_8_4(tables):
    table = tables.tables["8.4"]
    assert (table.rule, table.dice) == ("8.4", "1d6")
    # "Roll 1d6 and add the result … Lose one XP if you've lost or aborted the Mission. Regardless, after
    # each Mission, your squad always gains at least one XP." → the final roll, at least 1
    assert rows(table, "xp") == [("≤1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("≥6", 6)]
    assert table.lookup(0).cells["xp"] == 1  # dr 1 − 1 = 0: at least one XP
    assert [(m["key"], m["value"]) for m in table.modifiers] == [("lost_or_aborted", "-1")]


SKILLS = [
    ("sharpshooter", "Sharpshooter", "CF +1 when firing at Range 1 or 2", False),
    ("camouflage", "Camouflage", "+1 to the unit TN", False),
    (
        "quick_shot",
        "Quick Shot",
        "If the Attack Roll is a natural 5 or 6 the unit can make a second attack with CF-1",
        False,
    ),
    ("close_combat", "Close Combat", "CF +1 when firing at Range 0", False),
    (
        "heroic_morale",
        "Heroic morale",
        "Automatically remove a SUPPRESSED marker from the unit when it is "
        "activated. Always pass a check to use a Grenade against a Vehicle.",
        False,
    ),
    ("grenadier", "Grenadier", "+1 DRM when using a Grenade", False),
    (
        "athletic",
        "Athletic",
        "You can recover from a SUPPRESSED status and fire in the same turn",
        False,
    ),
    ("bull_strength", "Bull Strength", "Add a +1 DRM to the End Mission Table (8.3) roll", False),
    (
        "battlefield_control",
        "Battlefield control",
        "The Leader can save one unspent AP or BAP to be used on the next turn.",
        True,
    ),  # "(Leader Only)"
    ("hunter", "Hunter", "Once per turn may execute a Move action without spending one AP.", False),
    ("war_trophy", "War Trophy", "Can use a Weapon of another nationality", False),
    ("local_contacts", "Local Contacts", "Start Mission with one RP", False),
    ("spotter", "Spotter", "+2 to spot a HIDDEN target", False),
]


def test_skills_table_8_4_1(tables):
    table = tables.tables["8.4.1"]
    assert table.dice is None
    got = [
        (r.label, r.cells["name"], r.cells["description"], r.cells["leader_only"])
        for r in table.rows
    ]
    assert got == SKILLS


def test_constants():
    c = load("constants.yaml")
    assert c["budget.german"] == {
        "value": 10,
        "rule": "2.2",
        "label": c["budget.german"]["label"],
    }  # "10 AP"
    assert (c["xp.veteran"]["value"], c["xp.skill"]["value"]) == (
        2,
        2,
    )  # "2XP - promote", "2XP - gain"
    assert c["skills.per_soldier"]["value"] == 1  # "each unit may receive only one Skill"
    assert c["turns.max"]["value"] == 12  # the Turn Track: spaces 1 to 12 (2.1)
    assert c["equipment.slots"]["value"] == 2  # RA-11: EQUIPMENT 1, EQU… on the roster
    assert c["reinforcement.over_max"]["value"] is False  # RA-8


def test_armies_and_their_enemies_2_2():
    # "Germans (Enemies: Russians, USA) Russians (Enemies: Germany) United States of America (Enemies: Germany)"
    armies = load("armies.yaml")
    assert {k: (v["name"], v["enemies"]) for k, v in armies.items()} == {
        "german": ("Germans", ["russian", "us"]),
        "russian": ("Russians", ["german"]),
        "us": ("United States of America", ["german"]),
    }


def test_seed_catalog_holds_only_what_the_text_shows():
    catalog = load("catalog.yaml")
    german = {
        i["id"]: (i["name"], i["kind"], i["ap"], i["cf"], i["may_lead"]) for i in catalog["german"]
    }
    # 2.2: "1 SMG Leader A / 1 Rifle … / 3 LMG Gunner J / 1 5x Grenades Equipment"; Rifle CF 1 (3.5.2, 4.2);
    # LMG 2 CF (example of play, turn 3); the SMG leads the example squad (RA-7)
    assert german == {
        "smg": ("SMG", "unit", 1, None, True),
        "rifle": ("Rifle", "unit", 1, 1, False),
        "lmg": ("LMG", "unit", 3, 2, False),
        "grenades": ("5x Grenades", "equipment", 1, None, False),
    }
    grenades = next(i for i in catalog["german"] if i["id"] == "grenades")
    assert (grenades["provides"], grenades["count"]) == ("Grenade", 5)  # "provide 5 Grenades"
    # "in the United States army list I can find the reference to the LMG, here represented by the BAR";
    # "The BAR has 1 CF and an Area(2) attribute"; its AP is not in the text
    assert [(i["name"], i["ap"], i["cf"], i["attributes"]) for i in catalog["us"]] == [
        ("BAR", None, 1, "AREA(2)")
    ]
    # "The LMG in the Building has a TN of 6 (base value) +2 (Terrain feature)": the BAR's TN (turn 4)
    assert "TN 6" in catalog["us"][0]["note"]
    assert catalog["russian"] == []
