"""Ardennes '44: scenarios replayed to the outcomes worked out by hand from the rulebook
(001_fe9790c0381e62e9.txt): the Victory Check Phase of every AM and PM turn (30.1.1; none in
Night turns, 25.1), German control only with a road-bound supply path (30.1.2), 30.2, 30.3, S2.4,
S4.4, S5.2, Night replacements (25.2).
"""

import pytest

from campaigns import charts
from campaigns.errors import DomainError
from campaigns.systems.victory_ledger.tests.harness import Game

pytestmark = pytest.mark.django_db

EAST = [
    "St. Vith",
    "Clervaux",
    "Wiltz",
    "Houffalize",
    "Vielsalm",
    "Malmedy",
    "Stavelot",
    "Bastogne town",
]
# Types for 25.2.1 (A44-11): 116 stands for the division's Panzergrenadiers, an Infantry Type unit (2.4).
GERMAN_UNITS = [
    {"id": "2Pz", "name": "2nd Panzer", "side": "german", "attack": 6, "type": "tank", "tq": 4},
    {"id": "Lehr", "name": "Panzer Lehr", "side": "german", "attack": 7, "type": "tank", "tq": 4},
    {"id": "116", "name": "116th Panzer", "side": "german", "attack": 5, "type": "infantry"},
    {"id": "1SS", "name": "1st SS Panzer", "side": "german", "attack": 8, "type": "tank", "tq": 5},
]


def six_turn(club, people) -> Game:
    game = Game(club, people, "ardennes44", "s2")
    book = game.pub["setup"]["locations"]
    # The organizer adds the East Map victory hexes (the text does not list them, A44-3).
    east = [
        {"id": name, "name": name, "group": "", "victory": True, "map": "east", "start": "allied"}
        for name in EAST
    ]
    game.setup(locations=[*book, *east], units=GERMAN_UNITS)
    return game


def play_six_turns(game: Game, exit_supplied: bool, stavelot_supplied: bool = True):
    game.turn("16 AM", {"Clervaux": "Gs"})
    game.turn("16 PM", {"Wiltz": "Gs"}, [("116", "reduced")])
    game.turn(
        "Night 16/17", {}, [("116", "restored")], replacements_german=1, replacements_allied=2
    )
    game.turn("17 AM", {"St. Vith": "Gs", "Houffalize": "Gs"})
    game.turn("17 PM", {"Vielsalm": "Gs"}, [("2Pz", "exited", "East-west-edge")])
    game.turn("Night 17/18", {})
    game.turn("18 AM", {"Malmedy": "Gs", "Stavelot": "Gs" if stavelot_supplied else "G"})
    exit_hex = "Gs" if exit_supplied else "G"
    game.turn("18 PM", {"East-west-edge": exit_hex}, [("Lehr", "exited", "East-west-edge")])


def test_the_calendar_of_the_six_turn_scenario_has_night_turns_between_pm_and_am(club, people):
    game = six_turn(club, people)
    assert [t["label"] for t in game.pub["turns"]] == [
        "16 AM",
        "16 PM",
        "Night 16/17",
        "17 AM",
        "17 PM",
        "Night 17/18",
        "18 AM",
        "18 PM",
    ]  # S2.1, 25.1
    assert [t["number"] for t in game.pub["turns"] if t["kind"] == "day"] == [1, 2, 3, 4, 5, 6]


def test_s2_german_wins_with_ten_vp_when_an_exit_hex_traces_supply(club, people):
    game = six_turn(club, people)
    play_six_turns(game, exit_supplied=True)
    # 18 PM: East Map victory hexes German-controlled and supplied: Clervaux, Wiltz, St. Vith,
    # Houffalize, Vielsalm, Malmedy, Stavelot = 7. Exited 2nd Panzer 6 + Panzer Lehr 7 = 13 attack
    # factors through the West edge of the East Map, which traces supply: 13 ÷ 4 = 3 VP (rounded
    # down). 7 + 3 = 10 ≥ 10 (S2.4) → German victory.
    last = game.pub["ledger"][-1]
    assert last["scores"] == {"german": 10}
    state = game.state
    assert state["winner"] == "german"
    assert game.pub["outcome"] == {
        "winner": "german",
        "rule": "S2.4",
        "text": "German 10 VP ≥ 10 at the end of the scenario: German victory",
    }
    # Before the end there is no decision, only the trend: 17 PM 5 hexes + 2nd Panzer's 6 AF not
    # yet supplied from the exit hex (the hex is still Allied-held) = 5.
    assert [e["scores"]["german"] for e in game.pub["ledger"]] == [1, 2, 2, 4, 5, 5, 7, 10]


def test_s2_the_same_win_fails_without_supply(club, people):
    game = six_turn(club, people)
    play_six_turns(game, exit_supplied=False)
    # The exit hex held but not supplied: the 13 exited attack factors do not count (S2.4):
    # 7 + 0 = 7 < 10 → Allied victory.
    assert game.pub["ledger"][-1]["scores"] == {"german": 7}
    assert game.state["winner"] == "allied"
    assert "none of them traces a road-bound supply path" in " ".join(
        game.pub["ledger"][-1]["lines"]
    )


def test_s2_an_unsupplied_victory_hex_does_not_count(club, people):
    game = six_turn(club, people)
    play_six_turns(game, exit_supplied=True, stavelot_supplied=False)
    # Stavelot held but without a road-bound supply path is not German-controlled (30.1.2):
    # 6 + 3 = 9 < 10.
    assert game.pub["ledger"][-1]["scores"] == {"german": 9} and game.state["winner"] == "allied"


def test_the_journal_replays_to_the_same_ledger(club, people):
    game = six_turn(club, people)
    play_six_turns(game, exit_supplied=True)
    played = game.state
    exported, replayed, again = game.replayed()
    assert replayed["game"] == played["game"] and again == exported


def campaign(club, people, variant="s1", extra=()) -> Game:
    game = Game(club, people, "ardennes44", variant)
    game.setup(locations=[*game.pub["setup"]["locations"], *extra], units=GERMAN_UNITS)
    return game


def record(game: Game, labels, per_turn=None):
    for label in labels:
        game.turn(label, (per_turn or {}).get(label, {}))


def test_s1_meuse_victory_ends_the_game_at_once(club, people):
    game = campaign(club, people)
    record(
        game,
        [
            "16 AM",
            "16 PM",
            "Night 16/17",
            "17 AM",
            "17 PM",
            "Night 17/18",
            "18 AM",
            "18 PM",
            "Night 18/19",
        ],
    )
    # 19 AM: Givet, Dinant, Namur held, Huy held without a road-bound supply path: 3 of 6 < 4.
    game.turn("19 AM", {"Givet": "Gs", "Dinant": "Gs", "Namur": "Gs", "Huy": "G"})
    assert game.state["status"] == "active"
    meuse = next(c for c in game.pub["ledger"][-1]["checks"] if c["name"] == "Meuse")
    assert meuse["text"] == (
        "German controls 3 of the 6 Meuse victory hexes (Givet, Dinant, Namur), needs 4"
    )
    # 19 PM: Huy is supplied: 4 of 6 (30.2) → German victory; the game ends at once (30.1.1).
    game.turn("19 PM", {"Huy": "Gs"})
    state = game.state
    assert state["winner"] == "german"
    assert (
        game.pub["outcome"]["rule"] == "30.2"
        and "4 of the 6 Meuse victory hexes" in game.pub["outcome"]["text"]
    )
    with pytest.raises(DomainError, match="The campaign is over"):
        game.turn("Night 19/20", {})


def test_s1_exit_toward_antwerp_counts_only_with_a_supplied_entry_hex(club, people):
    extra = [{"id": "Panzers", "name": "Panzers", "side": "german", "attack": 24}]
    game = Game(club, people, "ardennes44", "s1")
    game.setup(units=[*GERMAN_UNITS, *extra])
    record(game, ["16 AM", "16 PM", "Night 16/17"])
    # 17 AM: 24 attack factors exit through the F entry hex, which does not trace supply → no.
    game.turn("17 AM", {"F": "G"}, [("Panzers", "exited", "F")])
    exit_check = game.pub["ledger"][-1]["checks"][0]
    assert (
        not exit_check["met"] and "none of the entry hexes used (F entry hex)" in exit_check["text"]
    )
    # 17 PM: F traces supply: 24 ≥ 24 → German victory (30.2).
    game.turn("17 PM", {"F": "Gs"})
    assert game.state["winner"] == "german"


def test_s1_allied_counterattack_needs_two_consecutive_checks_and_supersedes(club, people):
    game = campaign(club, people)
    starts = {"18VG": "As", "26VG": "As", "212VG": "As"}
    record(game, ["16 AM", "16 PM", "Night 16/17", "17 AM"])
    # 17 PM: supplied Allied units in all three German at-start areas: the first check.
    game.turn("17 PM", starts)
    assert game.state["status"] == "active"
    # The Night turn between has no Victory Check Phase (25.1); 18 AM is the next check.
    game.turn("Night 17/18", {})
    # 18 AM: still three, and the German now holds four Meuse hexes (30.2): the Allied victory
    # supersedes it (30.3).
    game.turn("18 AM", {"Givet": "Gs", "Dinant": "Gs", "Namur": "Gs", "Amay": "Gs"})
    state = game.state
    assert state["winner"] == "allied" and game.pub["outcome"]["rule"] == "30.3"
    checks = {c["name"]: c["met"] for c in game.pub["ledger"][-1]["checks"]}
    assert checks["Meuse"] and checks["Allied counterattack"]


def test_s1_an_unsupplied_allied_occupation_breaks_the_streak(club, people):
    game = campaign(club, people)
    record(game, ["16 AM", "16 PM", "Night 16/17"])
    game.turn("17 AM", {"18VG": "As", "26VG": "As", "212VG": "As"})
    game.turn("17 PM", {"212VG": "A"})  # not in supply at this check: 2 < 3
    game.turn("Night 17/18", {"212VG": "As"})
    game.turn("18 AM", {})  # 3 again, but the previous check had 2
    assert game.state["status"] == "active"
    game.turn("18 PM", {})  # 3 and 3 → Allied victory
    assert game.state["winner"] == "allied"


S4_TURNS = [
    "22 AM",
    "22 PM",
    "Night 22/23",
    "23 AM",
    "23 PM",
    "Night 23/24",
    "24 AM",
    "24 PM",
    "Night 24/25",
    "25 AM",
    "25 PM",
    "Night 25/26",
    "26 AM",
    "26 PM",
]


def test_s4_ends_in_a_draw_when_bastogne_cannot_trace_allied_supply(club, people):
    game = campaign(club, people, "s4")
    assert [t["label"] for t in game.pub["turns"]] == S4_TURNS
    assert game.pub["turns"][0]["number"] == 13  # 22 AM is turn 13 (16 AM is 1)
    record(game, S4_TURNS[:-1])
    # 26 PM, the end (S4.1): no German victory; both Bastogne hexes Allied but cut off → draw.
    game.turn("26 PM", {"Bastogne-1": "A", "Bastogne-2": "A"})
    state = game.state
    assert state["status"] == "finished" and state["winner"] is None
    assert game.pub["outcome"]["rule"] == "S4.4"


def test_s4_without_the_draw_the_allies_win_by_preventing_a_german_victory(club, people):
    game = campaign(club, people, "s4")
    record(game, S4_TURNS)
    state = game.state
    assert state["winner"] == "allied" and game.pub["outcome"]["rule"] == "30.3"


def test_s4_s5_goes_on_past_26_pm_and_the_german_wins_by_s5_2(club, people):
    game = campaign(club, people, "s4s5")
    labels = [t["label"] for t in game.pub["turns"]]
    assert labels[14:16] == ["Night 26/27", "27 AM"]  # S5.1's "27 Night": between 26 PM and 27 AM
    assert game.pub["turns"][15]["number"] == 23  # 27 AM is turn 23 (S5.3)
    record(game, labels[:14])
    state = game.state
    assert state["status"] == "active" and state["scenarios"][0]["status"] == "played"
    assert state["scenarios"][1]["status"] == "current"
    record(game, labels[14:-1])
    # 30 PM: the German controls both Bastogne hexes and four West Map victory hexes (the Meuse
    # ones count: they are victory hexes on the West Map), 3 < 4 Meuse for 30.2 → S5.2 win.
    game.turn(
        "30 PM",
        {
            "Bastogne-1": "Gs",
            "Bastogne-2": "Gs",
            "Givet": "Gs",
            "Dinant": "Gs",
            "Namur": "Gs",
            "Liege-1": "Gs",
        },
        [],
    )
    # Liège 1 is not a victory hex in the book's set-up (the text is silent, A44-3): 3 West Map
    # victory hexes < 4 → no S5.2 win: the Allies win by preventing a German victory.
    assert game.state["winner"] == "allied"


def test_s5_2_german_end_of_game_win(club, people):
    west = [
        {"id": name, "name": name, "group": "", "victory": True, "map": "west", "start": "allied"}
        for name in ("Marche", "Rochefort")
    ]  # entered by the organizer (A44-3)
    game = campaign(club, people, "s4s5", extra=west)
    labels = [t["label"] for t in game.pub["turns"]]
    record(game, labels[:-1])
    game.turn(
        "30 PM",
        {
            "Bastogne-1": "Gs",
            "Bastogne-2": "A",
            "Givet": "Gs",
            "Dinant": "Gs",
            "Marche": "Gs",
            "Rochefort": "Gs",
            "Namur": "G",
        },
    )
    # Bastogne hex 1 German, hex 2 Allied but cut off: no Bastogne hex traces Allied supply; West Map
    # victory hexes Givet, Dinant, Marche, Rochefort = 4 (Namur unsupplied) ≥ 4 → German win (S5.2).
    # Only 2 Meuse hexes and 4 < 6 West Map hexes: no 30.2 victory at this check.
    state = game.state
    assert state["winner"] == "german" and game.pub["outcome"]["rule"] == "S5.2"


def test_night_turn_rules_are_enforced(club, people):
    game = six_turn(club, people)
    game.turn("16 AM", {}, [("116", "reduced")])
    cases = [
        (
            game.turn_data("16 PM", {}, [("116", "restored")]),
            "116th Panzer: replacements arrive only in Night turns (25.2).",
        ),
        (
            game.turn_data("16 PM", {}, replacements_german=1),
            "Replacements arrive only in Night turns (25.2).",
        ),
        (
            game.turn_data("16 PM", {}, [("2Pz", "exited")]),
            "Say which East Map west-edge exit (S2.4) 2nd Panzer exited through.",
        ),
        (
            game.turn_data("16 PM", {}, [("2Pz", "exited", "F")]),
            "Say which East Map west-edge exit (S2.4) 2nd Panzer exited through.",
        ),
    ]
    for data, message in cases:
        with pytest.raises(DomainError) as refused:
            game.by("german", "a44.turn", data)
        assert refused.value.message == message
    game.turn("16 PM", {})
    with pytest.raises(
        DomainError, match=r"The German used 1 replacement\(s\) but received 0 \(25\.2\.1\)"
    ):
        game.turn("Night 16/17", {}, [("116", "restored")], replacements_german=0)
    game.turn("Night 16/17", {}, [("116", "restored")], replacements_german=1)
    assert dict(game.pub["ledger"][-1]["extras"])["Replacements"].startswith(
        "German 1, Allied not entered"
    )


def test_the_objective_scenarios_chart_what_30_2_and_30_3_count_at_each_check(club, people):
    extra = [{"id": "Panzers", "name": "Panzers", "side": "german", "attack": 24}]
    game = Game(club, people, "ardennes44", "s1")
    game.setup(units=[*GERMAN_UNITS, *extra])
    game.turn("16 AM", {"Givet": "Gs", "Huy": "G", "18VG": "As"})  # Huy unsupplied: not controlled
    game.turn(
        "16 PM", {"Huy": "Gs", "Liege-1": "Gs", "26VG": "As"}, [("Panzers", "exited", "F")]
    )  # F not held
    game.turn("Night 16/17", {"Namur": "Gs"})  # no Victory Check Phase at night (25.1): no point
    game.turn("17 AM", {"F": "Gs"})
    ledger = game.pub["ledger"]
    # Meuse: Givet (16 AM); Givet, Huy (16 PM); + Namur (17 AM). Liège 1 from 16 PM. The West Map
    # victory hexes are the Meuse ones (the book's Liège hexes are not victory hexes, A44-3).
    # 24 AF exited at 16 PM count from 17 AM, when F traces supply. Allied: 18VG, then 18VG + 26VG.
    assert [e.get("chart") for e in ledger] == [
        {"meuse": 1, "liege": 0, "west": 1, "af": 0, "allied": 1},
        {"meuse": 2, "liege": 1, "west": 2, "af": 0, "allied": 2},
        {},
        {"meuse": 3, "liege": 1, "west": 3, "af": 24, "allied": 2},
    ]
    # 17 AM: 24 attack factors exited with a supplied entry hex: German victory (30.2).
    assert game.state["winner"] == "german"
    hexes, exits, allied = game.pub["chart"]["charts"]
    assert hexes["series"][0]["name"] == "Meuse victory hexes"
    assert hexes["series"][0]["values"][:3] == [1, 2, 3]
    assert [s["name"] for s in hexes["series"] if s.get("kind") == "level"] == [
        "4: Meuse or Liège, German victory",
        "6 West Map hexes: German victory",
    ]
    assert exits["series"][0]["values"][2] == 24 == exits["series"][-1]["values"][2]  # on the line
    assert allied["series"][-1]["name"] == "3 at 2 checks in a row: Allied victory"
    assert len(hexes["x"]) == 22  # every AM and PM turn of 16–26 December, nights left out
    row = charts.table(hexes)["rows"][2]
    assert row["label"] == "17 AM" and row["cells"][:3] == ["3", "1", "3"]


def replacement_units():
    """Units of both sides with the types and flags 25.2.1 and 25.2.5 look at (A44-11)."""

    def unit(code, side, kind, **flags):
        return {"id": code, "name": code, "side": side, "type": kind, **flags}

    return [
        unit("Inf1", "german", "infantry"),
        unit("Inf2", "german", "infantry"),
        unit("Inf3", "german", "infantry"),
        unit("Tank4", "german", "tank", tq=4),
        unit("Recon", "german", "recon"),
        unit("Flak", "german", "flak"),
        unit("Tank5", "german", "tank", tq=5),
        unit("BlackBox", "german", "tank", black_box=True),
        unit("Arty", "german", "artillery"),
        unit("Heydte", "german", "infantry", never=True),
        unit("Mystery", "german", ""),
        unit("Other", "german", "other"),
        unit("GI", "allied", "infantry"),
        unit("Para", "allied", "infantry", airborne=True),
        unit("Tommy", "allied", "infantry", british=True),
        unit("Sherman", "allied", "tank", tq=5),
    ]


def test_night_replacements_go_by_unit_type_25_2_1(club, people):
    game = Game(club, people, "ardennes44", "s2")
    game.setup(units=replacement_units())
    game.turn(
        "16 AM",
        {},
        [
            (u, "reduced")
            for u in ("Inf1", "Inf2", "Inf3", "Tank4", "Recon", "Flak", "GI", "Sherman")
        ],
    )
    game.turn("16 PM", {})
    # One replacement: only an Infantry Type unit (25.2.1).
    with pytest.raises(DomainError) as refused:
        game.turn("Night 16/17", {}, [("Tank4", "restored")], replacements_german=1)
    assert refused.value.message == (
        "The German received 1 replacement: it may only go to an Infantry Type unit "
        "(25.2.1), not to Tank4 (Tank unit)."
    )
    # Two: one may go to a Tank, Recon or Flak unit, the other only to an Infantry Type unit.
    with pytest.raises(DomainError) as refused:
        game.turn(
            "Night 16/17", {}, [("Tank4", "restored"), ("Recon", "restored")], replacements_german=2
        )
    assert refused.value.message == (
        "The German received 2 replacements: one may go to a Tank, Recon or Flak "
        "unit, the other only to an Infantry Type unit (25.2.1); here they go to Tank4 "
        "(Tank unit) and Recon (Recon)."
    )
    # An Allied Tank Unit of TQ 5 may receive one: 25.2.5's TQ limit is for German Tank Units.
    game.turn(
        "Night 16/17",
        {},
        [("Tank4", "restored"), ("Inf1", "restored"), ("Sherman", "restored")],
        replacements_german=2,
        replacements_allied=2,
    )
    assert game.pub["units"]["Tank4"]["status"] == game.pub["units"]["Inf1"]["status"] == "full"
    game.turn("17 AM", {})
    game.turn("17 PM", {})
    # Three or more (A44-11): at most one Tank, Recon or Flak unit for every two received.
    with pytest.raises(DomainError) as refused:
        game.turn(
            "Night 17/18",
            {},
            [("Recon", "restored"), ("Flak", "restored"), ("Inf2", "restored")],
            replacements_german=3,
        )
    assert refused.value.message == (
        "The German received 3 replacements: at most 1 may go to Tank, Recon or Flak "
        "units, one for every two received, the rest to Infantry Type units (25.2.1, "
        "A44-11); here they go to Recon (Recon) and Flak (Flak)."
    )
    game.turn(
        "Night 17/18",
        {},
        [("Recon", "restored"), ("Flak", "restored"), ("Inf2", "restored"), ("Inf3", "restored")],
        replacements_german=4,
    )
    assert all(game.pub["units"][u]["status"] == "full" for u in ("Recon", "Flak", "Inf2", "Inf3"))


def test_units_25_2_5_lists_never_receive_a_replacement(club, people):
    game = Game(club, people, "ardennes44", "s2")
    game.setup(units=replacement_units())
    doomed = ("Tank5", "BlackBox", "Arty", "Heydte", "Mystery", "Other", "Para", "Tommy")
    game.turn("16 AM", {}, [(u, "eliminated") for u in doomed])
    game.turn("16 PM", {})
    cases = {
        "Tank5": "Tank5 cannot be rebuilt: German Tank Units with a TQ of 5 or more (this one 5) never receive "
        "replacements (25.2.5).",
        "BlackBox": "BlackBox cannot be rebuilt: German Tank Units with a black-box attack strength never receive "
        "replacements (25.2.5).",
        "Arty": "Arty cannot be rebuilt: Artillery Units never receive replacements (25.2.5).",
        "Heydte": "Heydte cannot be rebuilt: 25.2.5 names it among the units that never receive replacements.",
        "Other": "Other cannot be rebuilt: only Infantry Type, Tank, Recon and Flak units receive replacements "
        "(25.2.1).",
        "Para": "Para cannot be rebuilt: Allied airborne units never receive replacements (25.2.5).",
        "Tommy": "Tommy cannot be rebuilt: British units never receive replacements (25.2.5).",
        "Mystery": "Mystery: its type is not in the set-up, and 25.2.1 gives replacements by type. Propose a "
        "correction of the set-up giving its type (Infantry Type, Tank, Recon, Flak …) first.",
    }
    before = game.state
    for code, message in cases.items():
        with pytest.raises(DomainError) as refused:
            game.turn(
                "Night 16/17", {}, [(code, "rebuilt")], replacements_german=2, replacements_allied=2
            )
        assert refused.value.message == message
    assert game.state == before


def test_the_set_up_is_pre_filled_with_the_units_25_2_5_names():
    from campaigns.systems import get_system
    from campaigns.systems.victory_ledger.setup import book_setup

    system = get_system("ardennes44")
    units = {u["id"]: u for u in book_setup(system.book, "s1")["units"]}
    assert units["vdHeydte"]["never"] and units["150PzBde"]["never"]  # named in 25.2.5
    assert units["1000SturmTiger"]["black_box"] and units["217Brummbar"]["black_box"]  # 27.4
    assert units["33Armd"]["british"] and units["33Armd"]["tq"] == 4  # designer's notes: TQ 3 → 4
    assert all("not_in" not in u for u in units.values())
    east_only = {
        u["id"] for u in book_setup(system.book, "s2")["units"]
    }  # S2.1: East Map only (27.3.1)
    assert "29ArmdBde" not in east_only and "33Armd" not in east_only and "vdHeydte" in east_only
