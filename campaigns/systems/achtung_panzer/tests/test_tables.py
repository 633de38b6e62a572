"""Achtung! Panzer! tables, constants and CGs checked value by value against the book.

Every expected value below was typed from the rulebook text
(/work/shared/seeds/003_0fc2929c12343324.txt), never read back from the data files.
A comment "# AP-n" marks a reconstructed value: see docs/rules-notes.md, section
"Achtung! Panzer! — tables (reconstructions)". No Django, no database.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from campaigns.dice.expressions import parse as parse_dice
from campaigns.dice.tables import TableSet

SYSTEM = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tables() -> TableSet:
    return TableSet.load(SYSTEM / "tables")


def one(column, pairs):
    """[(label, value)] -> [(label, {column: value})]."""
    return [(label, {column: value}) for label, value in pairs]


# --------------------------------------------------------------------------- rows

ESCAPE_1606 = [
    # label, infantry, infantry footnotes, afv, afv footnotes
    ("≤8", "Escapes", ["1"], "Escapes", []),
    ("9", "Escapes, replaced", ["2", "3"], "Escapes", []),
    ("10", "Escapes, Casualty Reduced", ["2"], "Abandoned, crew escapes", []),  # AP-13
    (
        "11",
        "Escapes, Casualty Reduced, replaced",
        ["2", "3"],
        "Abandoned, crew eliminated",
        [],
    ),  # AP-13
    ("≥12", "Eliminated", [], "Eliminated CS NA", ["4"]),
]

WOUNDED_1610 = [
    ("1", "retained_unwounded"),
    ("2", "retained_wounded"),
    ("≥3", "eliminated"),
]  # AP-3

MMC_1612 = [("≤-1", 5), ("0", 4), ("1", 3), ("2-3", 2), ("4-5", 1), ("≥6", 0)]

LEADER_1613 = {
    # leader type: (German DR, French DR, British DR)
    "10-2": ("≤1", "≤1", "≤1"),
    "9-2": ("2", "2", "2"),
    "9-1": ("3-4", "3", "3"),
    "8-1": ("5-6", "4-5", "4-6"),
    "8-0": ("7-8", "6-7", "7-8"),
    "7-0": ("9-10", "8-9", "9-10"),
    "6+1": ("11", "10-11", "11"),
    "None": ("12", "12", "12"),
}

SAN_16122 = [("≤4", 0), ("≥5", -1)]  # AP-3
IMMOBILIZATION_1631 = [("≤2", "mobile", ["*"]), ("≥3", "no_change", [])]  # footnote: AP-14
WEAPON_REPAIR_1632 = [("≤2", "repaired", []), ("≥3", "eliminated", ["*"])]
CAPTURED_1635 = [("≤2", "retained"), ("≥3", "eliminated")]  # AP-3
WITHDRAWAL_1642 = [("≤5", "retained"), ("6", "withdrawn")]  # AP-15
FORT_REMOVAL_615 = [("≤3", "eliminated"), ("≥4", "no_effect")]

CPP_1616 = [
    ("≤2", 15),
    ("3-4", 14),
    ("5-6", 13),
    ("7-8", 12),
    ("9-10", 11),
    ("11", 10),
    ("12", 9),
    (">12", 8),
]

HISTORICAL_1616 = [
    # half-day, CG, Allied DRM, German DRM (chart printed under 1.6161)
    ("5/29A", "I", -2, +1),  # CG letters: AP-1
    ("5/29P", "I", -1, 0),
    ("5/30A", "I", 0, +1),
    ("5/30P", "I", -1, 0),
    ("5/31A", "I", -2, 0),
    ("5/31P", "I", 0, +1),
    ("6/1A", "II", +1, -2),
    ("6/1P", "II", 0, -1),
    ("6/2A", "II", +1, 0),
    ("6/2P", "II", +1, -1),
    ("6/3A", "II", +1, -1),
    ("6/3P", "II", 0, -1),  # AP-18 (the roster prints 0)
    ("6/4A", "II", 0, -1),
]

ROSTER = [
    # CAMPAIGN GAME ROSTER: Date, Allied Mod, German Mod
    ("5/29A", "I", -2, +1),
    ("5/29P", "I", -1, 0),
    ("5/30A", "I", 0, +1),
    ("5/30P", "I", -1, 0),
    ("5/31A", "I", -2, 0),
    ("5/31P", "I", 0, +1),
    ("6/1A", "II", +1, -2),
    ("6/1P", "II", 0, -1),
    ("6/2A", "II", +1, 0),
    ("6/2P", "II", +1, -1),
    ("6/3A", "II", +1, -1),
    ("6/3P", "II", 0, 0),  # AP-18 (1.6161 prints -1)
    ("6/4A", "II", 0, -1),
]

ELR_1617 = [("≤2", +1), ("3-12", 0), ("≥13", -1)]  # AP-3

WEATHER_1618 = [
    ("2", "Overcast, Mud"),
    ("3", "Overcast, Rain"),
    ("4", "Mist"),
    ("5-11", "Clear"),
    ("12", "Clear & Gusty"),
]  # AP-2

# RG tables: ID, group type, units [(type, full, depl[, strength note])], lead mod, CPP cost,
# 1/2-day max, CG max, May max, June max, footnotes, reserve_ok, on_map_free, kind, subtables, grants
RG_GERMAN = [
    (
        "S1",
        "Fighter-Bomber",
        [("39 FB", None, None, "*")],
        None,
        1,
        1,
        6,
        2,
        4,
        ["a"],
        False,
        False,
        "air",
        [],
        None,
    ),  # AP-20, AP-28
    (
        "S2",
        "Stuka",
        [("39 DB", None, None, "*")],
        None,
        1,
        1,
        4,
        1,
        3,
        ["a"],
        False,
        False,
        "air",
        [],
        None,
    ),  # AP-28
    (
        "A1",
        "Tankette",
        [("Pz IB", 4, 3)],
        +2,
        4,
        1,
        2,
        2,
        0,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),  # AP-20
    (
        "A2",
        "Light Tank",
        [("Pz II", 4, 3)],
        +1,
        5,
        2,
        5,
        3,
        3,
        ["m"],
        False,
        False,
        "armor",
        ["1.619.german_a2_type"],
        None,
    ),  # AP-20, AP-22
    (
        "A3",
        "Medium Tank",
        [("Pz35/38", 4, 3)],
        0,
        6,
        1,
        3,
        2,
        2,
        ["p"],
        False,
        False,
        "armor",
        ["1.619.german_a3_type"],
        None,
    ),
    (
        "A4",
        "Medium Tank",
        [("Pz IIIF", 4, 3)],
        -1,
        7,
        1,
        5,
        2,
        5,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "A5",
        "Heavy Tank",
        [("Pz IV", 3, 2)],
        -1,
        7,
        1,
        1,
        0,
        1,
        ["o"],
        False,
        False,
        "armor",
        ["1.619.german_a5_type"],
        None,
    ),  # AP-22
    ("A6", "StuG", [("StuG IIIB", 3, 2)], -1, 6, 1, 3, 1, 2, [], False, False, "armor", [], None),
    (
        "A7",
        "sIG",
        [("sIG IB", 2, 1)],
        +2,
        5,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),  # AP-20
    (
        "A8",
        "Mortar Carrier",
        [("251/2", 2, 1)],
        None,
        3,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),  # AP-29
    (
        "A9",
        "Halftracks",
        [("251/1", 4, 3), ("251/10", 1, 1)],
        None,
        5,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),  # AP-26, AP-29
    (
        "A10",
        "PSW",
        [("PSW", 4, 3, "b: number/type from the German PSW RG Type Table")],
        +1,
        4,
        1,
        3,
        3,
        3,
        ["b"],
        False,
        False,
        "armor",
        ["1.619.german_psw"],
        None,
    ),  # AP-20, AP-22
    (
        "A11",
        "PzJ",
        [("PzJ I", 3, 2)],
        -1,
        4,
        1,
        2,
        2,
        2,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),  # AP-20
    (
        "I1",
        "1st line Coy",
        [("467", 12, 9)],
        0,
        7,
        2,
        8,
        6,
        6,
        ["c", "d", "f"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I2",
        "Elite Coy",
        [("467", 5, 4), ("468", 7, 5)],
        -1,
        9,
        1,
        4,
        1,
        3,
        ["c", "d", "f"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I3",
        "Motorcycle",
        [("548", 12, 9)],
        0,
        9,
        1,
        2,
        2,
        2,
        ["c", "d", "f", "u"],
        True,
        False,
        "infantry",
        [],
        None,
    ),  # AP-21
    (
        "I4",
        "Pioneer",
        [("548", 5, 3)],
        -1,
        6,
        1,
        2,
        2,
        2,
        ["c", "d", "e", "f"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I5",
        "Hvy Wpn Platoon",
        [("228/247", 4, 3, "t: a 228 per mortar and a 247 per MMG")],
        0,
        6,
        1,
        3,
        3,
        3,
        ["c", "d", "f", "t"],
        True,
        False,
        "infantry",
        [],
        None,
    ),  # AP-1, AP-22
    (
        "O1",
        "Light OBA",
        [("70mm", None, None, "n/a")],
        None,
        2,
        1,
        6,
        6,
        6,
        ["g"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-1
    (
        "O2",
        "Battalion Mortar",
        [("80mm", None, None, "n/a")],
        None,
        3,
        1,
        6,
        6,
        6,
        ["g"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-20
    (
        "O3",
        "Medium OBA",
        [("100mm", None, None, "n/a")],
        None,
        4,
        1,
        4,
        1,
        3,
        ["g"],
        False,
        False,
        "oba",
        [],
        None,
    ),
    (
        "O4",
        "Heavy OBA",
        [("150mm", None, None, "n/a")],
        None,
        6,
        1,
        2,
        0,
        2,
        ["g"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-20
    (
        "O5",
        "Offboard Observer",
        [("Offboard Observer", None, None, "n/a")],
        None,
        1,
        2,
        10,
        8,
        8,
        ["s"],
        False,
        False,
        "observer",
        [],
        None,
    ),  # AP-20, AP-22, AP-28
    (
        "G1",
        "Anti-Tank Battery",
        [("37L", 4, 3)],
        None,
        3,
        2,
        4,
        4,
        4,
        ["h"],
        False,
        True,
        "gun",
        [],
        None,
    ),  # AP-20, AP-29
    (
        "G2",
        "Infantry Gun Battery",
        [("75*", 2, 1, "*"), ("150*", 1, 0, "*")],
        None,
        4,
        1,
        2,
        2,
        2,
        ["h", "i"],
        False,
        True,
        "gun",
        [],
        None,
    ),  # AP-20, AP-26, AP-27
    (
        "G3",
        "Anti-Air Battery",
        [("88L", 2, 1)],
        None,
        6,
        1,
        2,
        1,
        2,
        ["h"],
        False,
        True,
        "gun",
        [],
        None,
    ),
    (
        "T1",
        "Wagons",
        [("Wagon", 3, 2)],
        None,
        1,
        2,
        5,
        3,
        3,
        ["j"],
        False,
        False,
        "transport",
        [],
        None,
    ),  # AP-20
    (
        "T2",
        "Trucks",
        [("Truck", 5, 4)],
        None,
        2,
        1,
        2,
        1,
        2,
        ["j", "n"],
        False,
        False,
        "transport",
        ["1.619.german_t2_type"],
        None,
    ),  # AP-1, AP-25
    (
        "T3",
        "Halftrack",
        [("SdKfz", 5, 4)],
        None,
        3,
        1,
        1,
        1,
        1,
        ["j", "q"],
        False,
        False,
        "transport",
        ["1.619.german_t3_type"],
        None,
    ),  # AP-1, AP-25
    (
        "T4",
        "Lt. Boat",
        [("KFS", 5, 4)],
        None,
        1,
        1,
        3,
        1,
        2,
        ["j", "r"],
        False,
        False,
        "boat",
        [],
        None,
    ),  # AP-20, AP-25
    (
        "T5",
        "Sturmboats",
        [("boats", 4, 3)],
        None,
        1,
        1,
        1,
        1,
        1,
        ["j"],
        False,
        False,
        "boat",
        [],
        None,
    ),  # AP-1, AP-25
    (
        "T6",
        "Bridge",
        [("Pontoon", None, None, "*")],
        None,
        2,
        1,
        1,
        1,
        1,
        ["l"],
        False,
        False,
        "bridge",
        [],
        None,
    ),  # AP-20, AP-22
    (
        "F1",
        "Fortifications",
        [],
        None,
        1,
        4,
        6,
        6,
        2,
        [],
        False,
        False,
        "fortification",
        [],
        {"fpp": 20},
    ),  # AP-28
    ("F2", "Sniper", [], None, 1, 1, 4, 2, 2, [], False, False, "sniper", [], {"san": 1}),  # AP-28
    (
        "F3",
        "Aerial Recon",
        [],
        None,
        1,
        1,
        4,
        4,
        4,
        ["k"],
        False,
        False,
        "recon",
        [],
        None,
    ),  # AP-22
]

RG_FRENCH = [
    (
        "S1",
        "Fighter-Bomber",
        [("39 Fb", None, None, "*")],
        None,
        1,
        1,
        2,
        2,
        1,
        ["a"],
        False,
        False,
        "air",
        [],
        None,
    ),  # AP-34
    (
        "A1",
        "Tankette",
        [("AMR", 4, 3)],
        +1,
        6,
        1,
        2,
        2,
        0,
        ["b"],
        False,
        False,
        "armor",
        ["1.619.french_a1"],
        None,
    ),  # AP-32
    (
        "A2",
        "Light Tank",
        [("Light Tank", 4, 3, "b: type from the A2 Light Tanks Availability Table")],
        +1,
        7,
        1,
        3,
        2,
        2,
        ["b"],
        False,
        False,
        "armor",
        ["1.619.french_a2"],
        None,
    ),  # AP-32
    (
        "A3",
        "Medium Tank",
        [("D2/S35", 4, 3)],
        0,
        8,
        1,
        2,
        2,
        1,
        ["b"],
        False,
        False,
        "armor",
        ["1.619.french_a3"],
        None,
    ),  # AP-32
    (
        "A4",
        "Heavy Tank",
        [("B1-bis", 3, 2)],
        -1,
        9,
        1,
        1,
        1,
        0,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "A5",
        "Tank Destroyer",
        [("LaW15T", 3, 2)],
        0,
        4,
        1,
        3,
        2,
        2,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "A6",
        "Armored Car",
        [("AMD35", 4, 3)],
        +1,
        5,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "I1",
        "2nd Line",
        [("437", 6, 5), ("457", 6, 4)],
        +1,
        6,
        2,
        7,
        5,
        4,
        ["c", "d", "e"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I2",
        "1st Line",
        [("437", 3, 2), ("457", 9, 7)],
        0,
        7,
        2,
        7,
        4,
        5,
        ["c", "d", "e"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I3",
        "Sappers",
        [("458", 6, 4)],
        +1,
        6,
        1,
        2,
        1,
        1,
        ["c", "d", "e", "g"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I4",
        "Hvy Wpn Platoon",
        [("228", 4, 3)],
        0,
        6,
        1,
        3,
        2,
        1,
        ["c", "d", "e"],
        True,
        False,
        "infantry",
        [],
        None,
    ),
    (
        "I5",
        "Cavalry",
        [("457", 9, 8), ("458", 3, 1)],
        -1,
        8,
        1,
        1,
        1,
        0,
        ["c", "d", "e", "j"],
        True,
        False,
        "infantry",
        [],
        None,
    ),  # AP-1
    (
        "O1",
        "Light OBA",
        [("70mm", None, None, "blank")],
        None,
        2,
        2,
        8,
        6,
        6,
        ["f"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-1, AP-34
    (
        "O2",
        "Battalion Mortar",
        [("80mm", None, None, "blank")],
        None,
        3,
        1,
        6,
        6,
        6,
        ["f"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-34
    (
        "O3",
        "Heavy OBA",
        [("150mm", None, None, "blank")],
        None,
        6,
        1,
        3,
        2,
        1,
        ["f"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-34
    (
        "O4",
        "Offboard Observer",
        [("Offboard Observer", None, None, "blank")],
        None,
        1,
        1,
        5,
        3,
        3,
        ["h"],
        False,
        False,
        "observer",
        [],
        None,
    ),  # AP-1, AP-28, AP-35
    (
        "G1",
        "Light Anti-Tank Battery",
        [("25LL", 4, 3)],
        None,
        3,
        1,
        2,
        2,
        2,
        ["k"],
        False,
        True,
        "gun",
        [],
        None,
    ),
    (
        "G2",
        "Heavy Anti-Tank Battery",
        [("47L", 4, 3)],
        None,
        4,
        1,
        1,
        1,
        1,
        ["k"],
        False,
        True,
        "gun",
        [],
        None,
    ),
    (
        "G3",
        "Artillery Battery",
        [("75", 3, 2)],
        None,
        5,
        1,
        2,
        2,
        2,
        ["k"],
        False,
        True,
        "gun",
        [],
        None,
    ),
    (
        "G4",
        "Anti-Air Battery",
        [("75L AA", 3, 2)],
        None,
        5,
        1,
        1,
        1,
        1,
        ["k"],
        False,
        True,
        "gun",
        [],
        None,
    ),
    (
        "T1",
        "Halftrack",
        [("CK P19", 4, 3)],
        None,
        2,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "transport",
        [],
        None,
    ),
    (
        "T2",
        "Truck",
        [("Peugot 202", 5, 4)],
        None,
        2,
        1,
        2,
        1,
        1,
        [],
        False,
        False,
        "transport",
        [],
        None,
    ),  # AP-1
    (
        "T3",
        "Bridge",
        [("Foot bridge", None, None, "*")],
        None,
        2,
        1,
        2,
        1,
        1,
        ["i"],
        False,
        False,
        "bridge",
        [],
        None,
    ),  # AP-1
    (
        "F1",
        "Fortifications",
        [],
        None,
        1,
        4,
        10,
        5,
        8,
        [],
        False,
        False,
        "fortification",
        [],
        {"fpp": 30},
    ),
    ("F2", "Sniper", [], None, 1, 1, 4, 2, 2, [], False, False, "sniper", [], {"san": 1}),
]

RG_BRITISH = [
    (
        "S1",
        "Air Support",
        [("39 FB", None, None, "*")],
        None,
        1,
        1,
        1,
        1,
        1,
        ["a"],
        False,
        False,
        "air",
        [],
        None,
    ),  # AP-39
    (
        "A1",
        "Tankette",
        [("MkVIb", 4, 3)],
        +2,
        5,
        2,
        2,
        1,
        1,
        ["d"],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "A2",
        "Medium Tank",
        [("A13MkII", 4, 3)],
        0,
        6,
        1,
        2,
        1,
        1,
        ["d"],
        False,
        False,
        "armor",
        [],
        None,
    ),
    (
        "I1",
        "Territorial",
        [("447", 4, 3), ("457", 8, 6)],
        0,
        7,
        2,
        2,
        2,
        2,
        ["d", "e"],
        True,
        False,
        "infantry",
        [],
        None,
    ),  # AP-43
    (
        "I2",
        "Sappers",
        [("457", 2, 1), ("458", 4, 3)],
        -1,
        7,
        1,
        1,
        1,
        1,
        ["d", "e", "g"],
        True,
        False,
        "infantry",
        [],
        None,
    ),  # AP-43
    (
        "O1",
        "Medium OBA",
        [("80mm", None, None, "blank")],
        None,
        5,
        1,
        1,
        1,
        1,
        ["b"],
        False,
        False,
        "oba",
        [],
        None,
    ),  # AP-1
    (
        "O5",
        "Offboard Observer",
        [("Offboard Observer", None, None, 'blank; unit type printed "1" (unreadable)')],
        None,
        1,
        1,
        1,
        1,
        1,
        [],
        False,
        False,
        "observer",
        [],
        None,
    ),  # AP-37, AP-38
    (
        "G1",
        "Portee Battery",
        [("25LL", 4, 3), ("15cwt trucks", None, None, "no strength printed")],
        None,
        3,
        1,
        1,
        1,
        1,
        ["f"],
        False,
        False,
        "gun",
        [],
        None,
    ),  # AP-40, AP-43
    (
        "T1",
        "Carriers",
        [("Car A", 4, 3), ("Car B", 1, 0)],
        -1,
        5,
        1,
        1,
        1,
        1,
        ["c", "e", "h"],
        False,
        False,
        "transport",
        ["1.619.british_t1_hs"],
        None,
    ),  # AP-41, AP-42, AP-43
]

PSW = [
    ("1", [("PSW231(8)", 4, 3)]),
    ("2-3", [("PSW231(6)", 4, 3)]),
    ("4-6", [("PSW 221", 2, 1), ("PSW 222", 3, 2)]),
]
GERMAN_A2_TYPE = [("1-4", "PzKwII A"), ("5-6", "PzKwII F")]  # AP-30
GERMAN_T2_TYPE = [("1-4", "Opel Blitz"), ("5-6", "Buessing-NAG")]  # AP-30
GERMAN_A5_TYPE = [("1-4", "PzKwIV A"), ("5-6", "PzKwIV C")]  # AP-23, AP-30
GERMAN_A3_TYPE = [("1-4", "Pz35t"), ("5-6", "Pz38t(A)")]  # AP-30
GERMAN_T3_TYPE = [("1-4", "SdKf7"), ("5-6", "SdKf11")]  # AP-2, AP-30
FRENCH_A1 = [("1-2", "AMR33"), ("3-6", "AMR35")]
FRENCH_A3 = [("1-2", "D2(L)"), ("3-6", "Souma")]  # AP-2
FRENCH_A2 = [
    ("2-3", 4, 3, "H35(L)"),
    ("4-6", 4, 3, "R35"),
    ("7", 4, 3, "H39"),
    ("8", 4, 3, "H35"),
    ("9", 4, 3, "H39(L)"),
    ("10-11", 4, 3, "FCM"),
    ("12", 4, 3, "R35(L)"),
]
BRITISH_T1_HS = [("1-4", "247"), ("5-6", "248")]  # AP-42

RG_STRENGTH_1620 = [("≤2", "attached"), ("3-8", "full"), ("≥9", "depleted")]

ATTACHED = [
    ("1", "37L AT Gun", "25LL", "25LL"),
    ("2", "81* Mortar", "HMG", "Carrier C"),
    ("3", "MMG", "60* Mortar", "51* Mortar"),
    ("4", "50* Mortar", "37* Inf Gun", "LMG"),
    ("5", "ATR", "ATR", "LMG"),
    ("6", "LMG", "LMG", "ATR"),
]


def sw(count, exponent=None):
    return {"count": count, "exponent": exponent}


# key, RG, 37*, HMG, MMG, LMG, ATR, MTR, DC, footnotes (all columns: AP-44; exponents: AP-45)
SUPPORT_WEAPONS = [
    ("german:first_line", "I1", None, None, sw(1, 4), sw(2, 5), sw(1, 5), sw(1, 5), None, []),
    ("german:elite", "I2", None, None, sw(1, 5), sw(2, 5), sw(1, 5), sw(1, 5), None, []),
    ("german:motorcycle", "I3", None, None, None, sw(2, 5), sw(1, 5), None, sw(1, 5), []),  # AP-46
    ("german:pioneer", "I4", None, None, None, sw(1, 5), None, None, sw(2), []),
    ("german:heavy_weapon", "I5", None, None, sw(2), None, None, sw(2), None, ["a"]),
    ("french:second_line", "I1", None, None, sw(1, 4), sw(1, 5), sw(1, 4), sw(1, 4), None, []),
    (
        "french:first_line",
        "I2",
        sw(1, 2),
        sw(1, 4),
        sw(1, 4),
        sw(1, 5),
        sw(1, 5),
        sw(1, 5),
        None,
        [],
    ),
    ("french:sappers", "I3", None, None, None, sw(1, 5), None, None, sw(2), []),
    ("french:heavy", "I4", sw(1), sw(1), None, None, None, sw(2), None, ["a"]),
    ("french:cavalry", "I5", None, None, sw(1, 3), sw(2, 3), None, None, None, []),
    ("british:territorial", "I1", None, None, None, sw(2, 5), sw(1, 5), sw(1, 5), None, []),
    ("british:sappers", "I2", None, None, None, sw(1, 5), None, sw(1, 5), sw(2), []),  # AP-46
]

OBA_GERMAN = [("≤3", "plentiful"), ("4-9", "normal"), ("≥10", "scarce")]
OBA_FRENCH = [("≤3", "plentiful"), ("4-8", "normal"), ("≥9", "scarce")]
OBA_BRITISH = [("≤2", "plentiful"), ("3-8", "normal"), ("≥9", "scarce")]
GUNS_1624 = [("≤7", "full"), ("≥8", "depleted")]  # dice: AP-48

INFANTRY_LEADERS = [
    ("≤1", ["10-3", "9-1", "8-0"]),
    ("2", ["10-2", "8-1", "8-0"]),
    ("3", ["10-2", "8-1", "7-0"]),
    ("4", ["9-2", "9-1", "8-0"]),
    ("5", ["9-2", "8-1", "8-0"]),
    ("6", ["9-1", "8-1", "8-0"]),
    ("7", ["9-1", "8-1", "7-0"]),
    ("8", ["8-1", "8-0", "7-0"]),
    ("9", ["9-1", "8-0"]),
    ("10", ["8-1", "8-0"]),
    ("11", ["8-1", "7-0"]),
    ("12", ["8-0", "7-0"]),
    ("≥13", ["8-0", "6+1"]),
]

ARMOR_LEADERS = [
    ("≤2", ["10-2"]),
    ("3", ["9-2"]),
    ("4", ["9-1"]),
    ("5", ["8-1"]),
    ("6-11", []),
    ("≥12", ["Inexperienced"]),
]  # AP-49

FORTIFICATIONS = [
    # name, cost, cost labels, footnotes (AP-50)
    (
        "Foxholes",
        [3, 2, 1],
        ["3 squad Foxhole", "2 squad Foxhole", "1 squad Foxhole"],
        ["a", "e", "g"],
    ),
    ("Trench", 5, None, []),
    ("Sangar", 1, None, []),
    ("Wire", 7, None, []),
    ("Pillbox", "(x+y+z)*3", None, []),  # AP-51
    ("Roadblock", 8, None, []),
    ("Fortified Building", 10, None, ["b"]),
    ("AP Mines", [2, 3], ["French", "German"], ["c", "e", "f"]),
    ("AT Mines", [6, 7], ["French", "German"], ["c", "e", "f"]),
    ("Dummy Mines", 1, None, ["e"]),
    ("AT Ditch", 10, None, []),
    ("?", 1, None, ["e", "g"]),
    ("HIP", [5, 3, 2, 1], ["AFV", "Squad", "Half-squad or Crew", "SMC"], ["d", "e", "g"]),
]

INITIATIVE = [
    ("german_attack", {"allied_attack": "dual", "allied_idle": "german_assault"}),
    ("german_idle", {"allied_attack": "allied_assault", "allied_idle": "dual"}),  # AP-52
]
DUAL_DR = [("≤3", "allied"), ("≥4", "german")]
SCENARIO_TYPES = [
    ("dual_attack", {"sets_up_first": "dr", "moves_first": "dr"}),
    ("german_assault", {"sets_up_first": "allied", "moves_first": "german"}),
    ("allied_assault", {"sets_up_first": "german", "moves_first": "allied"}),
]
SCENARIO_VICTORY = [
    (
        "dual_attack",
        None,
        None,
        "Both sides add the number of objective hexes controlled and the number of half boards COMPLETELY within "
        "the perimeter of the friendly side. The number of CVP sustained on that half-day are then subtracted from "
        "this total and the side with the higher number is the winner for the half-day.",
    ),
    (
        "german_assault",
        6,
        30,
        "The German must capture 6 objective hexes or cause 30 more CVP than he sustains.",
    ),
    (
        "allied_assault",
        5,
        20,
        "The Allied player must capture 5 objective hexes or cause 20 more CVP than he sustains.",
    ),
]

OBJECTIVES = [
    ("bridge_23BB5", "bridge", ["23BB5"], 1),  # AP-6, AP-12
    ("bridge_23X3", "bridge", ["23X3"], 1),  # AP-6, AP-12
    ("bridge_23R4", "bridge", ["23R4"], 1),  # AP-6, AP-12
    ("bridge_23H4", "bridge", ["23H4"], 1),  # AP-6, AP-12
    ("bridge_40Q2", "bridge", ["40Q2", "40Q3"], 2),
    ("bridge_40I2", "bridge", ["40I2", "40I3"], 2),
    ("bridge_7AA6", "bridge", ["7AA6", "7AA7", "7AA8"], 3),
    ("building_6N4", "building", ["6N4"], 2),
    ("building_23CC7", "building", ["23CC7"], 2),
    ("building_7D7", "building", ["7D7"], 1),  # AP-7, AP-12
    ("building_10DD5", "building", ["10DD5"], 1),  # AP-7, AP-12
    ("building_10Z6", "building", ["10Z6"], 1),  # AP-7, AP-12
    ("building_23Z2", "building", ["23Z2"], 1),  # AP-7, AP-12
    ("building_23E4", "building", ["23E4"], 1),  # AP-7, AP-12
    ("hill_520", "hill", ["40I7", "40I8", "40J7", "40J8", "40K7", "40K8", "40L7"], 3),  # AP-8
    ("hill_40CC8", "hill", ["40CC8"], 1),  # AP-9, AP-12
    ("crossroads_19X6", "crossroads", ["19X6"], 1),  # AP-12
    ("crossroads_33R8", "crossroads", ["33R8"], 1),  # AP-12
    ("crossroads_17Q4", "crossroads", ["17Q4", "17P4"], 1),  # AP-10, AP-12
    ("crossroads_17CC3", "crossroads", ["17CC3"], 1),  # AP-11, AP-12
    ("crossroads_16O3", "crossroads", ["16O3", "16O4"], 1),  # AP-1, AP-11, AP-12
]

GAME_END = [
    ("1", None),
    ("2", None),
    ("3", None),
    ("4", None),
    ("5", None),
    ("6", 1),
    ("7", 3),
    ("8", 5),
    ("9", 6),
]  # AP-53


def rg_rows(rows):
    out = []
    for (
        rg_id,
        group,
        units,
        lead,
        cost,
        half,
        cg,
        may,
        june,
        notes,
        reserve,
        on_map,
        kind,
        subtables,
        grants,
    ) in rows:
        unit_dicts = []
        for unit in units:
            entry = {"type": unit[0], "full": unit[1], "depleted": unit[2]}
            if len(unit) > 3:
                entry["strength_note"] = unit[3]
            unit_dicts.append(entry)
        out.append(
            (
                rg_id,
                {
                    "group_type": group,
                    "units": unit_dicts,
                    "lead_mod": lead,
                    "cost": cost,
                    "half_day_max": half,
                    "cg_max": cg,
                    "may_max": may,
                    "june_max": june,
                    "notes": notes,
                    "reserve_ok": reserve,
                    "on_map_free": on_map,
                    "kind": kind,
                    "subtables": subtables,
                    "grants": grants,
                },
            )
        )
    return out


def leader_rows(index):
    return [(dr[index], {"leader": leader}) for leader, dr in LEADER_1613.items()]


def psw_rows():
    return [
        (label, {"units": [{"type": t, "full": f, "depleted": d} for t, f, d in units]})
        for label, units in PSW
    ]


RG_COLUMNS = [
    "group_type",
    "units",
    "lead_mod",
    "cost",
    "half_day_max",
    "cg_max",
    "may_max",
    "june_max",
    "notes",
    "reserve_ok",
    "on_map_free",
    "kind",
    "subtables",
    "grants",
]

# table id -> (dice, column keys, rows)
EXPECTED = {
    "1.6063": (
        "2d6",
        ["infantry", "afv", "infantry_notes", "afv_notes"],
        [
            (lab, {"infantry": inf, "infantry_notes": inf_n, "afv": afv, "afv_notes": afv_n})
            for lab, inf, inf_n, afv, afv_n in ESCAPE_1606
        ],
    ),
    "1.610": ("1d6", ["effect"], one("effect", WOUNDED_1610)),
    "1.6112": ("2d6", ["mmc"], one("mmc", MMC_1612)),
    "1.6113.german": ("2d6", ["leader"], leader_rows(0)),
    "1.6113.french": ("2d6", ["leader"], leader_rows(1)),
    "1.6113.british": ("2d6", ["leader"], leader_rows(2)),
    "1.6122": ("1d6", ["san_change"], one("san_change", SAN_16122)),
    "1.6131": (
        "1d6",
        ["effect", "effect_notes"],
        [(lab, {"effect": e, "effect_notes": n}) for lab, e, n in IMMOBILIZATION_1631],
    ),
    "1.6132": (
        "1d6",
        ["effect", "effect_notes"],
        [(lab, {"effect": e, "effect_notes": n}) for lab, e, n in WEAPON_REPAIR_1632],
    ),
    "1.6135": ("1d6", ["effect"], one("effect", CAPTURED_1635)),
    "1.6142": ("1d6", ["effect"], one("effect", WITHDRAWAL_1642)),
    "1.615": ("1d6", ["effect"], one("effect", FORT_REMOVAL_615)),
    "1.616": ("2d6", ["cpp"], one("cpp", CPP_1616)),
    "1.6161": (
        None,
        ["cg", "allied", "german"],
        [(k, {"cg": cg, "allied": a, "german": g}) for k, cg, a, g in HISTORICAL_1616],
    ),
    "cg_roster": (
        None,
        ["cg", "allied", "german"],
        [(k, {"cg": cg, "allied": a, "german": g}) for k, cg, a, g in ROSTER],
    ),
    "1.617": ("2d6", ["elr_change"], one("elr_change", ELR_1617)),
    "1.618": ("2d6", ["weather"], one("weather", WEATHER_1618)),
    "1.619.german": (None, RG_COLUMNS, rg_rows(RG_GERMAN)),
    "1.619.french": (None, RG_COLUMNS, rg_rows(RG_FRENCH)),
    "1.619.british": (None, RG_COLUMNS, rg_rows(RG_BRITISH)),
    "1.619.german_psw": ("1d6", ["units"], psw_rows()),
    "1.619.german_a2_type": ("1d6", ["unit"], one("unit", GERMAN_A2_TYPE)),
    "1.619.german_t2_type": ("1d6", ["unit"], one("unit", GERMAN_T2_TYPE)),
    "1.619.german_a5_type": ("1d6", ["unit"], one("unit", GERMAN_A5_TYPE)),
    "1.619.german_a3_type": ("1d6", ["unit"], one("unit", GERMAN_A3_TYPE)),
    "1.619.german_t3_type": ("1d6", ["unit"], one("unit", GERMAN_T3_TYPE)),
    "1.619.french_a1": ("1d6", ["tank"], one("tank", FRENCH_A1)),
    "1.619.french_a2": (
        "2d6",
        ["full", "depleted", "tank"],
        [(lab, {"full": f, "depleted": d, "tank": t}) for lab, f, d, t in FRENCH_A2],
    ),
    "1.619.french_a3": ("1d6", ["tank"], one("tank", FRENCH_A3)),
    "1.619.british_t1_hs": ("1d6", ["half_squad"], one("half_squad", BRITISH_T1_HS)),
    "1.6201": ("2d6", ["strength"], one("strength", RG_STRENGTH_1620)),
    "1.6201.attached": (
        "1d6",
        ["german", "french", "british"],
        [(lab, {"german": g, "french": f, "british": b}) for lab, g, f, b in ATTACHED],
    ),
    "1.6202": (
        None,
        ["rg", "gun37", "hmg", "mmg", "lmg", "atr", "mtr", "dc", "notes"],
        [
            (
                key,
                {
                    "rg": rg,
                    "gun37": g37,
                    "hmg": hmg,
                    "mmg": mmg,
                    "lmg": lmg,
                    "atr": atr,
                    "mtr": mtr,
                    "dc": dc,
                    "notes": notes,
                },
            )
            for key, rg, g37, hmg, mmg, lmg, atr, mtr, dc, notes in SUPPORT_WEAPONS
        ],
    ),
    "1.6204.oba.german": ("2d6", ["ammo"], one("ammo", OBA_GERMAN)),
    "1.6204.oba.french": ("2d6", ["ammo"], one("ammo", OBA_FRENCH)),
    "1.6204.oba.british": ("2d6", ["ammo"], one("ammo", OBA_BRITISH)),
    "1.6204.guns": ("2d6", ["strength"], one("strength", GUNS_1624)),  # AP-48
    "1.6205": ("2d6", ["leaders"], one("leaders", INFANTRY_LEADERS)),
    "1.6206": ("2d6", ["leaders"], one("leaders", ARMOR_LEADERS)),
    "1.621": (
        None,
        ["cost", "cost_labels", "notes"],
        [(name, {"cost": c, "cost_labels": lab, "notes": n}) for name, c, lab, n in FORTIFICATIONS],
    ),
    "1.623": (None, ["allied_attack", "allied_idle"], INITIATIVE),
    "1.6231.dual_dr": ("1d6", ["side"], one("side", DUAL_DR)),
    "1.6231": (None, ["sets_up_first", "moves_first"], SCENARIO_TYPES),
    "1.6232": (
        None,
        ["objectives_to_capture", "cvp_margin", "text"],
        [
            (k, {"objectives_to_capture": o, "cvp_margin": c, "text": t})
            for k, o, c, t in SCENARIO_VICTORY
        ],
    ),
    "1.2": (
        None,
        ["kind", "hexes", "points"],
        [(k, {"kind": kind, "hexes": hexes, "points": p}) for k, kind, hexes, p in OBJECTIVES],
    ),
    "game_end": (None, ["exponent"], one("exponent", GAME_END)),
}

# ---------------------------------------------------------------------- modifiers

LEADER_WON = (
    "won_this_half_day",
    "-2",
    "Friendly side won this CG half-day's scenario (optionally, the player may, after the DR, chose to "
    "ignore this DRM or apply only a -1 DRM)",
)
HISTORICAL_AND_BALANCE = [
    ("historical", "+/-x", "Friendly Historical DRM for Current CG half-day"),
    ("balance", "-y", "As per CG scenario Balance Provision (1.32) in effect."),
]

# table id -> [(key, value, label)]; tables not listed have no modifiers.
MODIFIERS = {
    "1.6063": [
        ("leader", "+X", "(Armor-) leader/heroic DRM (NA to a lone SMC)"),
        ("french", "-1", "If French"),
        ("lone_unwounded_smc", "-1", "If lone, unwounded SMC"),
        ("within_two_hexes", "-1", "If ≤2 hexes from a friendly controlled, non-isolated hex"),
        ("adjacent", "-1", "If adjacent to friendly controlled, non-isolated hex"),
        ("per_hs_equivalency", "+1", "Per HS equivalency >1 HS using the same escape DR"),
        (
            "per_pp_over_ipc",
            "+1",
            "Per PP >IPC being carried (unit with most excess PP determines this DRM for a "
            "stack) (A stacked leader may combine to increase a MMC's IPC)",
        ),
        ("previous_am", "+1", "If previous CG half-day was AM"),
        ("encircled", "+2", "If encircled"),
        ("captured_afv", "+2", "Captured AFV"),
    ],
    "1.610": [("isolated", "+1", "if the leader is isolated")],
    "1.6112": [
        ("won_this_half_day", "-3", "Friendly side won this CG half-day's scenario"),
        ("german", "-1", "German"),
        (
            "per_20_cvp_amassed",
            "-1",
            "Per 20 CVP amassed by friendly side in the previous scenario",
        ),
    ],
    "1.6113.german": [LEADER_WON],
    "1.6113.french": [LEADER_WON],
    "1.6113.british": [LEADER_WON],
    "1.6122": [("san_minus_4", "+X", "a +drm equal to that side's current SAN minus 4")],  # AP-3
    "1.6131": [
        ("armor_leader", "+x", "Per armor leader DRM"),  # AP-4
        ("non_qualified_use", "+1", "If only non-qualified use (A21.13) possible."),
        ("isolated", "+1", "If isolated."),
        ("inexperienced_crew", "+1", "If manned by Inexperienced Crew (D3.45)"),
    ],
    "1.6132": [
        ("vehicular_mounted", "-2", "If Vehicular-mounted."),
        ("non_qualified_use", "+1", "If only non-qualified use (A21.13) possible."),
        ("isolated", "+1", "If isolated."),
    ],
    "1.6142": [
        (
            "losing_record",
            "-1",
            "if friendly side's win:loss ratio is ≤1:2 (not applicable until 3 CG half "
            "days have been completed.",
        )
    ],  # AP-16
    "1.615": [
        (
            "roadblock_front_line",
            "+2",
            "Roadblock is along a hexside of at least one front line Location",
        ),
        (
            "fortification_adjacent_front_line",
            "+1",
            "Wire/mindfield/entrenchment is ADJACENT to – not in – a front line Location",
        ),  # AP-2
        (
            "roadblock_adjacent_front_line",
            "+1",
            "Roadblock is not along a hexside of a front line Location, but is "
            "along a hexside of a hex that is ADJACENT to a front line Location",
        ),
        (
            "three_sappers",
            "-1",
            "Friendly side currently retains at least three non-isolated assault engineer/sapper squads.",
        ),
        (
            "fortification_in_front_line",
            "+2",
            "Wire/minefield/entrenchment is in a front line Location",
        ),  # AP-17
    ],
    "1.616": [
        ("won_previous", "+1", "Won Previous Half-Day"),
        ("historical", "+X", "Historical DRM"),
        ("per_30_cvp_sustained", "-1", "Per 30 CVP sustained previous half day"),
    ],
    "1.617": [
        ("won_previous", "-1", "Friendly side won the previous campaign game half-day scenario."),
        (
            "elite_company_purchased",
            "-2",
            "Friendly elite infantry company purchased on the previous halfday.",
        ),
        (
            "per_first_line_company_or_afv_platoon",
            "-1",
            "Per friendly first-line company/AFV platoon [exc: transport] purchased on the previous half-day",
        ),
        (
            "attack_chit_previous",
            "+1",
            "If friendly side selected the attack chit on the previous CG halfday",
        ),
        ("per_30_cvp_sustained", "+1", "per 30CVP sustained on previous CG scenario."),
        ("historical", "+/-X", "Historical DRM for friendly side"),
    ],
    "1.6201": HISTORICAL_AND_BALANCE,
    "1.6202": [("depleted", "+1", "If depleted, the dr is modified with a +1.")],
    "1.6204.oba.german": HISTORICAL_AND_BALANCE,
    "1.6204.oba.french": HISTORICAL_AND_BALANCE,
    "1.6204.oba.british": HISTORICAL_AND_BALANCE,
    "1.6204.guns": HISTORICAL_AND_BALANCE,
    "1.6205": [
        ("german", "-1", "German"),
        ("french", "+1", "French"),
        ("lead_mod", "+/-x", "Per leadership Modifier on the RG Table"),
        ("depleted", "+1", "If depleted"),
    ],
    "1.6206": [
        ("german", "-1", "German"),
        ("lead_mod", "+/-X", "Per leadership mod on the RG Table"),
    ],
}

# ---------------------------------------------------------------------- footnotes

FOOTNOTES = {
    "1.6063": {
        "1": 'Original "2" DR always results in escape and Heat of Battle (A15), however, a subsequent result of '
        "Berserk or Surrender eliminates the unit(s).",
        "2": "A unit that would become disrupted is eliminated instead.",
        "3": "Use Random selection for a stack.",
        "4": "In current hex and facing replaced with wreck.",
    },
    "1.6131": {"*": "Retained. Clear from the map if non-isolated"},  # AP-14
    "1.6132": {
        "*": "If Vehicular-mounted, the Weapon is Disabled; if MA, the AFV is placed under RECALL."
    },
    "1.619.german": {
        "a": 'Determine the number of aircraft randomly and turn of arrival as per E7.2-.21 FB have bombs on a "1" '
        "in May, 1-3 in June. DB have bombs on a 1-2 in May and 1-4 in June. There is a -drm to the turn of "
        "entry roll equal to the number of CPP spent for this purpose.",
        "b": "The number/type of German armored cars is determined by chart below.",
        "c": "Determine leaders as per chart below.",
        "d": "Determine support weapons as per chart below.",
        "e": "German pioneers are sappers and assault engineers.",
        "f": "May be purchased as reserves.",
        "g": "Add 1 for pre-registered hex.",
        "h": "This RG is available for on-map set up.",
        "i": "If depleted, randomly select one Gun/crew to be eliminated from the OB. This RG never has less than "
        "2 Guns.",
        "j": "All transport units are assigned units to transport at the start of the CG half-day. Once those "
        "units have been delivered, the transport unit is recalled. Transport units may be used on as many "
        "successive half-days as CPP cost (Example: Trucks may be used on 2 CG half-days.)",
        "k": "Purchase of this RG allows normal recon, and requires all Allied roadblocks, entrenchments, wire, "
        "and pillboxes be set up on-map.",
        "l": "Pontoon bridges may only be erected if the Germans begin with control of both sides of the river. "
        "Enough pontoons are provided to cross the river at any one point.",  # AP-24
        "m": "On a roll of 1-4 PzKwII's are A, 5-6 they are F.",
        "n": "On a roll of 1-4 the trucks are Opel Blitz, on a 5-6 they are Buessing-NAG.",
        "o": "On a roll of 1-4 the PzKwIV's are A, on a 5-6 they are C.",  # AP-23
        "p": "A3 on a roll of 1-4 the group consists of Pz35t and on a 5-6 it is a Pz38t(A).",
        "q": "SdKf7 on a 1-4, SdKf11 on a 5-6.",
        "r": "Kleine Flossacks (small boats).",
        "s": "Off Board Observer must set up on the north edge at level 4.",
        "t": "Heavy weapons platoons receive a 228 per mortar and a 247 per MMG, and any one leader rolled on the "
        "leadership table.",
        "u": "Infantry RG I3 receives a motorcycle or motorcycle/sidecar for each squad.",
    },
    "1.619.french": {
        "a": "French FB's have a bomb on a subsequent dr of 1. Determine turn of entry and number of aircraft as "
        "per German footnote a.",
        "b": "The number/type of French tanks is determined by chart below.",
        "c": "Determine leaders per chart below.",
        "d": "Determine support weapons per chart below.",
        "e": "For one less CPP, this RG may be set up as reserves.",  # AP-33
        "f": "Increase CPP cost by one for pre-registered hex.",
        "g": "I3 are sappers (per chapter H) as well.",
        "h": "Offboard Observer must set up on west edge at level 4.",  # AP-35
        "i": "Footbridges may be erected by the Allies only if they control both sides of the river/stream. "
        "Enough segments are provided to make one crossing.",
        "j": "Cavalry units receive enough horse counters to mount all units.",
        "k": "Available for on map set up at no additional cost.",
    },
    "1.619.british": {
        "a": "British air support will not have bombs. Determine turn of entry and number of aircraft as per "
        "German footnote a.",
        "b": "Add 1 CPP for a pre-registered hex.",
        "c": "Includes inherent 247 (1-4) or 248 (5-6) half-squad. Roll for each carrier separately.",  # AP-42
        "d": "Determine leaders per chart below.",
        "e": "Determine support weapons per chart below.",
        "f": "Anti-tank guns must enter en portee.",
        "g": "Sappers and assault engineers.",
        "h": "Carrier platoons always have one infantry leader. (Best leader available as determined on table "
        "1.6025).",  # AP-2
    },
    "1.6202": {"a": "Mortars with these RG are 81mm."},
    "1.621": {
        "a": "3, 2 and 1 squad Foxholes respectively.",
        "b": "per Location.",
        "c": "French/German respectively.",
        "d": "AFV, Squad, Half-squad or Crew, SMC, respectively.",
        "e": "This fortification may be set up in a front line location",  # AP-50
        "f": "½ for KNOWN mines.",
        "g": "This fortification may be set up in a pocket.",
    },
}


# -------------------------------------------------------------------------- tests


def test_the_folder_holds_exactly_the_expected_tables(tables):
    assert set(tables.tables) == set(EXPECTED)


@pytest.mark.parametrize("table_id", sorted(EXPECTED))
def test_rows_match_the_book(tables, table_id):
    dice, columns, rows = EXPECTED[table_id]
    table = tables.tables[table_id]
    assert table.dice == dice
    assert list(table.columns) == columns
    assert [(row.label, row.cells) for row in table.rows] == rows


@pytest.mark.parametrize("table_id", sorted(EXPECTED))
def test_every_row_has_every_column(tables, table_id):
    table = tables.tables[table_id]
    for row in table.rows:
        assert set(row.cells) == set(table.columns), row.label


@pytest.mark.parametrize("table_id", sorted(EXPECTED))
def test_modifiers_match_the_book(tables, table_id):
    table = tables.tables[table_id]
    got = [(m["key"], m["value"], m["label"]) for m in table.modifiers]
    assert got == MODIFIERS.get(table_id, [])


@pytest.mark.parametrize("table_id", sorted(FOOTNOTES))
def test_footnotes_match_the_book(tables, table_id):
    notes = tables.tables[table_id].notes
    for key, text in FOOTNOTES[table_id].items():
        assert notes[key] == text, key


@pytest.mark.parametrize(
    "table_id",
    [
        "1.619.german",
        "1.619.french",
        "1.619.british",
        "1.6063",
        "1.6131",
        "1.6132",
        "1.6202",
        "1.621",
    ],
)
def test_every_footnote_reference_resolves(tables, table_id):
    table = tables.tables[table_id]
    for row in table.rows:
        for column, value in row.cells.items():
            if column == "notes" or column.endswith("_notes"):
                for ref in value:
                    assert ref in table.notes, (row.label, ref)


@pytest.mark.parametrize("table_id", sorted(t for t, spec in EXPECTED.items() if spec[0]))
def test_rolled_tables_cover_every_unmodified_roll_once(tables, table_id):
    table = tables.tables[table_id]
    expr = parse_dice(table.dice)
    low, high = expr.count, expr.count * expr.sides
    for total in range(low, high + 1):
        assert sum(row.covers(total) for row in table.rows) == 1, total


def test_subtables_named_by_rg_rows_exist(tables):
    for table_id in ("1.619.german", "1.619.french", "1.619.british"):
        for row in tables.tables[table_id].rows:
            for sub in row.cells["subtables"]:
                assert sub in tables.tables, (table_id, row.label, sub)


@pytest.mark.parametrize(
    "table_id,final,label",
    [
        ("1.616", 13, ">12"),
        ("1.616", 20, ">12"),
        ("1.616", -4, "≤2"),
        ("1.616", 11, "11"),
        ("1.6112", -3, "≤-1"),
        ("1.6112", 9, "≥6"),
        ("1.6112", 3, "2-3"),
        ("1.617", 13, "≥13"),
        ("1.617", 0, "≤2"),
        ("1.617", 7, "3-12"),
        ("1.6063", 2, "≤8"),
        ("1.6063", 14, "≥12"),
        ("1.6205", -1, "≤1"),
        ("1.6205", 15, "≥13"),
        ("1.6206", 15, "≥12"),
        ("1.6206", 8, "6-11"),
        ("1.6201", 0, "≤2"),
        ("1.6201", 9, "≥9"),
        ("1.6204.guns", 12, "≥8"),
        ("1.6204.guns", 7, "≤7"),
        ("1.6204.oba.german", 9, "4-9"),
        ("1.6204.oba.french", 9, "≥9"),
        ("1.6204.oba.british", 2, "≤2"),
        ("1.6122", 7, "≥5"),
        ("1.6142", 6, "6"),
        ("1.6142", 0, "≤5"),
        ("1.610", 4, "≥3"),
        ("1.6113.german", -1, "≤1"),
        ("1.6113.french", 10, "10-11"),
        ("1.6131", 8, "≥3"),
        ("1.615", 0, "≤3"),
    ],
)
def test_lookups_read_open_ended_rows(tables, table_id, final, label):
    assert tables.tables[table_id].lookup(final).label == label


def test_keyed_lookups(tables):
    assert tables.tables["1.6161"].row("6/3P").cells["german"] == -1  # AP-18
    assert tables.tables["cg_roster"].row("6/3P").cells["german"] == 0  # AP-18
    assert tables.tables["1.619.german"].row("I1").cells["cost"] == 7
    assert tables.tables["1.619.french"].row("A4").cells["group_type"] == "Heavy Tank"
    assert tables.tables["1.6202"].row("french:first_line").cells["gun37"] == {
        "count": 1,
        "exponent": 2,
    }
    assert tables.tables["1.2"].row("hill_520").cells["points"] == 3
    assert sum(row.cells["points"] for row in tables.tables["1.2"].rows) == 29  # AP-12
    assert tables.tables["game_end"].row("9").cells["exponent"] == 6


def test_distribution_of_cpp_replenishment(tables):
    from fractions import Fraction

    dist = dict(tables.bound("1.616").distribution(0, "cpp"))
    assert dist["15"] == Fraction(1, 36)
    assert dist["12"] == Fraction(11, 36)  # 7-8: 6 + 5 throws
    assert "8" not in dist
    dist = dict(tables.bound("1.616").distribution(+1, "cpp"))
    assert dist["8"] == Fraction(1, 36)


# ---------------------------------------------------------------------- constants

CONSTANTS = {
    "elr.min": 0,
    "elr.max": 4,
    "elr.start.german": 3,
    "elr.start.french": 3,
    "elr.start.british": 4,
    "elr.start.german_pioneers": 5,
    "elr.roll_moves": "every nationality",  # R-A25: 1.617's "that side's current ELR", every nationality
    "elr.cvp_per_drm": 30,
    "balance.same_side.opponent_elr": 4,
    "balance.tier1.min_completed": 3,
    "balance.tier1.max_won_fraction": "1/3",
    "balance.tier1.drm": -1,
    "balance.tier2.min_completed": 4,
    "balance.tier2.max_won_fraction": "1/4",
    "balance.tier2.drm": -2,
    "cpp.cvp_per_drm": 30,
    "battle_hardening.cvp_per_drm": 20,
    "battle_hardening.leader_win_drm_reduced": -1,  # 1.6113 "apply only a -1 DRM"
    "battle_hardening.heroic_no_effect_type": "10-3",  # 1.6113 "a heroic 10-3 loses his heroic status"
    "san.adjust_min": 4,
    "san.adjust_drm_base": 4,
    "san.reduce_on_final_dr": 5,
    "san.zero_raised_to": 2,
    "san.french_armor_half_day": 2,
    "sniper.allied_count": 1,
    "sniper.suspended_as_if_pinned_by": 2,
    "purchase.on_map_extra": 2,
    "purchase.reserve_extra": -1,
    "purchase.pre_registered_extra.german": 1,
    "purchase.pre_registered_extra.french": 1,
    "purchase.pre_registered_extra.british": 1,
    "reserve.max_dummies": 5,
    "reserve.min_setup_distance": 6,
    "reserve.reveal_distance": 5,
    "reserve.blaze_replace_distance": 3,
    "german.g2_min_guns": 2,
    "air.bombs_max_dr.german_fb.may": 1,
    "air.bombs_max_dr.german_fb.june": 3,
    "air.bombs_max_dr.german_db.may": 2,
    "air.bombs_max_dr.german_db.june": 4,
    "air.bombs_max_dr.french_fb": 1,
    "air.bombs.british": False,
    "air.entry_drm_per_cpp": -1,
    "oba.max_modules_per_half_day": 2,
    "french.max_armored_rg_per_half_day": 1,
    "british.max_half_days_per_cg": 2,
    "british.max_half_days_cg3": 4,
    "self_rally.max_mmc": 2,
    "entry_edge.german": "north",
    "entry_edge.french": "south",
    "entry_edge.british": "west",
    "oba_security_edge.german": "north",
    "oba_security_edge.french": "south",
    "oba_security_edge.british": "west",
    "observer.setup_level": 4,
    "wounded_leader.isolated_drm": 1,
    "afv_withdrawal.losing_record_drm": -1,
    "afv_withdrawal.losing_record_ratio": "1:2",
    "afv_withdrawal.min_half_days_completed": 3,
    "dc.retain_max_effects_dr": 10,
    "sw.depleted_drm": 1,
    "gun.depleted_fewer_guns": 1,
    "leaders.max_squads_per_leader": 3,
    "promotion.8_0_for": ["7-0", "7-0"],
    "promotion.8_1_for": ["8-0", "7-0"],
    "recon.cost.german": 1,
    "recon.cost.allied": 2,
    "recon.extra_cpp_cost": 1,
    "recon.extra_cpp_drm": 3,
    "recon.air_support_drm": 1,
    "recon.max_hexes_from_perimeter": 4,
    "initiative.attack_chit_cost": 1,
    "initiative.dual_dr_allied_max": 3,
    "initial_scenario.first_refit_step": "1.619",
    "initial_scenario.last_refit_step": "1.622",
    # 1.12 counts casualties in CVP (A26.2) but prints no values: none is invented, the club enters them.
    **{
        f"cvp.{kind}": None
        for kind in (
            "squad",
            "half_squad",
            "crew",
            "leader",
            "armor_leader",
            "hero",
            "afv",
            "vehicle",
            "gun",
            "sw",
        )
    },
}


@pytest.fixture(scope="module")
def constants() -> dict:
    with (SYSTEM / "constants.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def test_constants_match_the_book(constants):
    assert {key: entry["value"] for key, entry in constants.items()} == CONSTANTS


def test_every_constant_names_its_rule_and_label(constants):
    for key, entry in constants.items():
        assert set(entry) - {"choices"} == {"value", "rule", "label"}, key
        assert entry["value"] in entry.get("choices", [entry["value"]]), (
            key
        )  # a reading: the book's among them
        assert entry["rule"] and entry["label"], key


def test_constants_agree_with_the_tables(constants, tables):
    elr = tables.tables["1.617"]
    assert elr.lookup(2).cells["elr_change"] == 1 and elr.lookup(13).cells["elr_change"] == -1
    assert (
        tables.tables["1.6122"]
        .lookup(constants["san.reduce_on_final_dr"]["value"])
        .cells["san_change"]
        == -1
    )
    assert tables.tables["1.6232"].row("allied_assault").cells["objectives_to_capture"] == 5


# -------------------------------------------------------------------------- CGs

MAY = ["5/29A", "5/29P", "5/30A", "5/30P", "5/31A", "5/31P"]
JUNE = ["6/1A", "6/1P", "6/2A", "6/2P", "6/3A", "6/3P", "6/4A"]

CG1_INITIAL = {
    "victory": {"side": "allied", "objectives_gained": 5},  # AP-56
    "victory_text": "The Allied player win the initial scenario by controlling 5 more objectives than controlled "
    "at scenario start.",
    "type": "allied_assault",
    "free_attack_chit_side": "allied",
    "weather": "Overcast",
    "ec": "Moist",
    "wind": "No wind",
    "sides": {
        "allied": {
            "elr": 3,
            "san": 2,
            "sets_up": "first",  # AP-55 (1.6231 Allied assault would have the Germans set up first)
            "moves": "first",
            "rgs": [  # AP-54
                {
                    "nationality": "french",
                    "id": "I2",
                    "count": 2,
                    "note": "1st Line Coy (French) ×2",
                },
                {"nationality": "french", "id": "I3", "count": 1, "note": "Sapper Coy (French)"},
                {"nationality": "french", "id": "A3", "count": 1, "note": "Medium Tank"},
                {"nationality": "french", "id": "A2", "count": 1, "note": "Light tank"},
                {
                    "nationality": "french",
                    "id": "O1",
                    "count": 1,
                    "pre_registered": True,
                    "note": "Lt. OBA module with Offboard Observer, Pre-Registered hex",
                },
                {
                    "nationality": "french",
                    "id": "O4",
                    "count": 1,
                    "note": "the Offboard Observer of the Lt. OBA module",
                },
            ],
            "cpp": 15,
            "fpp": 0,  # AP-54: none printed
            "setup_text": "set up first outside and not adjacent to the German set-up area. Moves first",
        },
        "german": {
            "elr": 3,
            "san": 3,
            "sets_up": "second",
            "moves": "second",
            "rgs": [  # AP-54
                {"nationality": "german", "id": "I1", "count": 2, "note": "1st Line Coy ×2"},
                {"nationality": "german", "id": "I5", "count": 1, "note": "Heavy Weapons Platoon"},
                {"nationality": "german", "id": "G1", "count": 1, "note": "37L AT battery"},
                {
                    "nationality": "german",
                    "id": "A2",
                    "count": 1,
                    "unit_type": "PzIIA",
                    "note": "PzIIA Platoon (the OB names the PzIIA: no footnote m roll)",
                },
            ],
            "cpp": 8,
            "fpp": 50,
            "setup_text": "sets up second anywhere on boards 7, 40, or 23. Moves second",
        },
    },
    "ssr": {
        "I.1": "EC are moist with no wind at start. Weather is overcast. The initial scenario is an Allied assault. "
        "The Allied player need not pay any CPP for an attack chit.",
        "I.2": "Germans may set up concealed, regardless of LOS.",
    },
}

CG2_INITIAL = {
    "victory": {"side": "german", "objectives_gained": 6},  # AP-56, AP-57
    "victory_text": "The Germans win each scenario by controlling 6 more objectives than were controlled at "
    "scenario start.",
    "type": "german_assault",
    "free_attack_chit_side": "german",
    "weather": "Clear",
    "ec": "Dry",
    "wind": "No wind",
    "sides": {
        "allied": {
            "elr": 2,  # AP-58 (CG14 would give the French 3)
            "san": 3,
            "sets_up": "first",
            "moves": "second",
            "rgs": [  # AP-58
                {
                    "nationality": "french",
                    "id": "I1",
                    "count": 2,
                    "note": "2nd Line Coy (French) ×2",
                },
                {
                    "nationality": "french",
                    "id": None,
                    "count": 1,
                    "note": "FT-17c ×2, FT-17m ×3, FT-17 75BS (no French RG row holds FT-17s)",
                    "kind": "armor",
                    "units": [
                        {"type": "FT-17c", "count": 2},
                        {"type": "FT-17m", "count": 3},
                        {"type": "FT-17 75BS", "count": 1},
                    ],
                    "no_depletion": True,
                    "no_armor_leader": True,
                },
                {"nationality": "french", "id": "G3", "count": 1, "note": "75 ART Battery"},
            ],
            "cpp": 10,
            "fpp": 100,
            "setup_text": "sets up first outside of and not adjacent to the German set-up area. Moves second",
        },
        "german": {
            "elr": 3,
            "san": 2,
            "sets_up": "second",
            "moves": "first",
            "rgs": [  # AP-58
                {"nationality": "german", "id": "I1", "count": 2, "note": "1st Line Coy ×2"},
                {"nationality": "german", "id": "I5", "count": 1, "note": "Heavy Weapons Platoon"},
                {"nationality": "german", "id": "A4", "count": 1, "note": "PzIII Platoon"},
                {"nationality": "german", "id": "A5", "count": 1, "note": "PzIV Platoon"},
            ],
            "cpp": 12,
            "fpp": 0,  # AP-58: none printed
            "setup_text": "sets up second anywhere North of the River on boards 7, 40, or 23. Moves first",
        },
    },
    "ssr": {
        "II.1": "EC are dry, with no wind at start. Weather is Clear. The Initial Scenario is a German assault. The "
        "German player does not have to pay any CPP for an attack chit.",
        "II.2": "The French FT-17 platoon is not subject to depletion and cannot receive an armor leader.",
    },
}


@pytest.fixture(scope="module")
def cgs() -> dict:
    with (SYSTEM / "cgs.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def test_cg_list(cgs):
    assert set(cgs) == {"cg1", "cg2", "cg3"}


def test_cg1(cgs):
    cg = cgs["cg1"]
    assert (cg["name"], cg["rule"]) == ("Storming the Bridges!", "1.51")
    assert cg["half_days"] == MAY
    assert cg["cg_victory"] == {"kind": "control_all_objectives", "side": "allied"}
    assert cg["scenario_victory"] is None
    assert cg["initial_scenario"] == CG1_INITIAL


def test_cg2(cgs):
    cg = cgs["cg2"]
    assert (cg["name"], cg["rule"]) == ("Kommt die Panzer!", "1.52")
    assert cg["half_days"] == JUNE
    assert cg["cg_victory"] == {"kind": "control_all_objectives", "side": "german"}
    assert cg["scenario_victory"] == {"side": "german", "objectives_gained": 6}  # AP-57
    assert cg["initial_scenario"] == CG2_INITIAL


def test_cg3(cgs):
    cg = cgs["cg3"]
    assert (cg["name"], cg["rule"]) == ("Armor on the Somme", "1.53")
    assert cg["half_days"] == MAY + JUNE  # AP-59
    assert cg["cg_victory"] == {"kind": "most_objective_points"}
    assert cg["scenario_victory"] is None
    assert (
        cg["initial_scenario"] == CG1_INITIAL
    )  # "All initial scenario parameters are as per CGI."


def test_cg_half_days_are_rows_of_the_historical_chart(cgs, tables):
    keys = [row.label for row in tables.tables["1.6161"].rows]
    assert keys == MAY + JUNE
    for cg in cgs.values():
        assert all(day in keys for day in cg["half_days"])


def test_cg_rgs_name_rows_of_their_nationality_table(cgs, tables):
    for cg in cgs.values():
        for side in cg["initial_scenario"]["sides"].values():
            for rg in side["rgs"]:
                if rg["id"] is None:
                    continue  # AP-58: the FT-17 platoon
                tables.tables[f"1.619.{rg['nationality']}"].row(rg["id"])


def test_initial_scenario_types_are_scenario_types(cgs, tables):
    for cg in cgs.values():
        tables.tables["1.6231"].row(cg["initial_scenario"]["type"])
