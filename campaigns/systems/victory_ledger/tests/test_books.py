"""The games' book data checked value by value against the rulebook texts (typed from the text,
with the rule beside each value; rules-notes entries PV-n, A44-n, FAB-n where the text is garbled
or silent)."""

from campaigns.systems import get_system
from campaigns.systems.victory_ledger.model import day_calendar


def constants(slug):
    return {k: v["value"] for k, v in get_system(slug).constants().items()}


def test_pattons_vanguard_numbers():
    system = get_system("pattons_vanguard")
    values = {loc["id"]: loc["value"] for loc in system.book.locations}
    # 18.2: "2 Victory Points: Area 9 and Area 12 / 1 Victory Point: Area 13, Area 14, Area 20, Area 21,
    # Area 23, and Area 38"; 18.1 names Areas 7 and 25 (no VP).
    assert values == {
        "9": 2,
        "12": 2,
        "13": 1,
        "14": 1,
        "20": 1,
        "21": 1,
        "23": 1,
        "38": 1,
        "7": 0,
        "25": 0,
    }
    assert constants("pattons_vanguard") == {
        "vp.operational": 10,  # 18.2 "10 VP or more he wins"
        "vp.american_auto.1": 2,
        "vp.american_auto.2": 3,
        "vp.american_auto.3": 4,  # 18.1 "2 / 3 / 4 VP"
        "vp.eliminated": 1,
        "vp.reduced_per_vp": 2,  # 18.2 "+1 … +1/2 … (fractions rounded down)"
        "vp.contested": 1,  # 18.3
        "rp.s1.german": 1,
        "rp.s1.american": 3,  # 15.5
        "rp.s2.german": 2,
        "rp.s2.american": 2,  # 19.4.4
        "rp.advantage": 1,  # 16.1D
    }
    s1, s2 = system.book.scenario("s1"), system.book.scenario("s2")
    assert (s1["advantage"], s2["advantage"]) == ("american", "german")  # 5.2, 19.4.8
    assert [t["label"] for t in s1["turns"]] == [
        "Turn 1 (19 Sep)",
        "Turn 2 (20 Sep)",
        "Turn 3 (21 Sep)",
        "Turn 4 (22 Sep)",
    ]  # 17.1 "September 19–22"
    assert [t["label"] for t in s2["turns"]] == [
        "Turn 1 (25 Sep)",
        "Turn 2 (26 Sep)",
        "Turn 3 (27 Sep)",
        "Turn 4 (28 Sep)",
    ]  # 19.1 "September 25–28"
    # 19.2 "German Control Markers are placed in Areas: 1, 2, 3, 16, 17, 18, 26, 27, 28, 29, 34, 35, 36,
    # 37, 38, and 39" (39 is no area of the map, PV-2).
    assert s2["start"]["german"] == [
        "1",
        "2",
        "3",
        "16",
        "17",
        "18",
        "26",
        "27",
        "28",
        "29",
        "34",
        "35",
        "36",
        "37",
        "38",
    ]
    units = {u["id"]: u for u in system.book.units_for("s2")}
    assert {u for u, v in units.items() if v["withdraws"]} == {
        "37/A",
        "37/B",
        "37/C",
        "37/D",
    }  # "*" 19.3.1
    assert units["602/D"]["factors"] == "6-7-6" and units["37/D"]["factors"] == "5-4-7"  # 19.3.1
    assert units["696"]["artillery"] and units["696"]["factors"] == "5-2-6"  # 19.7, underlined


def test_ardennes_44_numbers():
    system = get_system("ardennes44")
    assert constants("ardennes44") == {
        "victory.exit_af": 24,
        "victory.liege": 4,
        "victory.meuse": 4,
        "victory.west": 6,  # 30.2
        "victory.allied_areas": 3,
        "victory.allied_checks": 2,  # 30.3
        "victory.s2": 10,
        "victory.af_per_vp": 4,
        "victory.s3": 14,
        "victory.s5_west": 4,  # S2.4, S3.4, S5.2
    }
    meuse = [loc["name"] for loc in system.book.locations if loc["group"] == "meuse"]
    assert meuse == ["Givet", "Dinant", "Namur", "Andenne", "Huy", "Amay"]  # 30.2
    assert (
        sum(loc["group"] == "liege" for loc in system.book.locations) == 4
    )  # 30.2 "all 4 Liege hexes"
    assert (
        sum(loc["group"] == "bastogne" for loc in system.book.locations) == 2
    )  # S4.4 "the two … hexes"

    def days(slug):
        return [
            t
            for t in system.calendar({"game": {"public": {"scenario": slug}}}, {})
            if t["kind"] == "day"
        ]

    # S1.1 "22 Turns—16 AM to 26 PM"; S2.1 "6 Turns—16 AM to 18 PM"; S3.1 "8 Turns—16 AM to 19 PM";
    # S4.1 "10 Turns—22 AM to 26 PM"; S5.1 "Additional 8 Turns—27 Night to 30 PM".
    for slug, count, first, last in [
        ("s1", 22, "16 AM", "26 PM"),
        ("s2", 6, "16 AM", "18 PM"),
        ("s3", 8, "16 AM", "19 PM"),
        ("s4", 10, "22 AM", "26 PM"),
        ("s1s5", 30, "16 AM", "30 PM"),
    ]:
        found = days(slug)
        assert (len(found), found[0]["label"], found[-1]["label"]) == (count, first, last), slug
    # S3.3 "Turn 6 (18 PM)", 33.4 "Turn 3 (17 AM)", S5.3 "Turn 23 (27 AM)", 35 "Turn 29 (30 AM)".
    numbers = {t["label"]: t["number"] for t in days("s1s5")}
    assert (numbers["18 PM"], numbers["17 AM"], numbers["27 AM"], numbers["30 AM"]) == (
        6,
        3,
        23,
        29,
    )
    # 25.1: a Night turn between each PM and the next AM.
    assert [t["label"] for t in day_calendar(16, 17)] == [
        "16 AM",
        "16 PM",
        "Night 16/17",
        "17 AM",
        "17 PM",
    ]


def test_fab_numbers():
    system = get_system("fab_bulge")
    assert constants("fab_bulge") == {
        "sudden_death.from": 4,  # 19.4 "Beginning with turn 4"
        "large_unit.steps": 3,  # 19.2 "three or more steps on the unit label"
        "vp.large_unit": 1,  # 19.2 "worth one VP to the opposing player"
    }
    back = {u["name"] for u in system.book.units_for("campaign") if u["may_return"]}
    assert back == {"US 1st Infantry Division", "US 4th Infantry Division"}  # 17.23
