"""FAB: The Bulge: a game replayed to the outcome worked out by hand from the play book's
Determining Victory (002_6a2ab8c3e89cb0f5.txt): 19.1 objective areas only when controlled and
supplied, by who may score them; 19.2 eliminated large units (3+ steps), except the US 1st and 4th
Infantry Divisions once back from the track (17.23); 19.3 the VP level; 19.4 sudden death from
turn 4 against the organizer's values from the Turn Record Chart.
"""

import pytest

from campaigns.errors import DomainError
from campaigns.systems.victory_ledger.tests.harness import Game

pytestmark = pytest.mark.django_db

# Entered by the organizer (the map's symbols and the unit labels are not in the text):
SYMBOLS = {
    "23": ("yellow_star", 1),
    "47": ("yellow_star", 1),
    "33": ("white_stars", 2),
    "75": ("white_stars", 1),
    "3": ("german_symbols", 2),
}
STEPS = {"US 106 ID": 3, "US 7 AD": 4, "US 1 ID": 4, "18 VG": 3, "2 Pz": 4, "62 VG": 2}
THRESHOLDS = [
    {"turn": 4, "german": 5, "allied": 4},
    {"turn": 5, "german": 5, "allied": 4},
    {"turn": 6, "german": 4, "allied": None},
]


def fab(club, people, last_turn=8, thresholds=THRESHOLDS, end_rule="entered") -> Game:
    game = Game(club, people, "fab_bulge", "campaign")
    book = game.pub["setup"]
    locations = [
        dict(
            loc,
            symbol=SYMBOLS.get(loc["id"], ("none", 0))[0],
            value=SYMBOLS.get(loc["id"], ("none", 0))[1],
            start="german" if loc["id"] == "3" else "allied",
        )
        for loc in book["locations"]
    ]
    units = [dict(u, steps=STEPS.get(u["id"], 0)) for u in book["units"]]
    game.setup(
        locations=locations,
        units=units,
        last_turn=last_turn,
        thresholds=thresholds,
        end_rule=end_rule,
    )
    return game


def test_sudden_death_victory_with_entered_thresholds(club, people):
    game = fab(club, people)
    assert [t["label"] for t in game.pub["turns"]] == [f"Turn {n}" for n in range(1, 9)]
    # Turn 1: German takes St. Vith [23] (yellow star): German 1; Allied: Bastogne [47] 1 (Pronsfeld
    # [3], German symbols, is German-held: the German never scores those) → level 0.
    game.turn("Turn 1", {"23": "Gs"})
    # Turn 2: US 106th Infantry Division (3 steps) eliminated: German 1 + 1 = 2; Allied 1 → 1 German.
    game.turn("Turn 2", {}, [("US 106 ID", "eliminated")])
    # Turn 3: German takes Malmedy [33] (two white stars): 1 + 2 + 1 = 4; the 62nd VG (2 steps) is
    # eliminated: not a large unit (19.2), the Allies still 1 → level 3 German (no check before turn 4).
    game.turn("Turn 3", {"33": "Gs"}, [("62 VG", "eliminated")])
    assert game.pub["coming"] == [
        ["Sudden death", "in Turn 4 at a VP level of German 5, Allied 4 (19.4)"]
    ]
    # Turn 4: German takes Bastogne but it is not supplied: it scores for nobody (19.1): German 4,
    # Allied 0 → level 4 < 5 (the German value for turn 4): no sudden death.
    game.turn("Turn 4", {"47": "G"})
    assert game.state["status"] == "active"
    # Turn 5: the US 1st Infantry Division (4 steps) is eliminated: German 5, Allied 0 → 5 ≥ 5 →
    # German sudden death victory (19.4).
    game.turn("Turn 5", {}, [("US 1 ID", "eliminated")])
    ledger = game.pub["ledger"]
    assert [(e["scores"]["german"], e["scores"]["allied"]) for e in ledger] == [
        (1, 1),
        (2, 1),
        (4, 1),
        (4, 0),
        (5, 0),
    ]
    assert [e["level"] for e in ledger] == [
        {"side": None, "value": 0},
        {"side": "german", "value": 1},
        {"side": "german", "value": 3},
        {"side": "german", "value": 4},
        {"side": "german", "value": 5},
    ]
    assert ledger[3]["checks"][0]["text"] == "German VP level 4 < 5 for turn 4: no sudden death"
    state = game.state
    assert state["winner"] == "german"
    assert game.pub["outcome"] == {
        "winner": "german",
        "rule": "19.4",
        "text": "German VP level 5 ≥ 5 for turn 5: German sudden death victory",
    }
    # The chart is the signed VP level (German up): at turn 5 it reaches the German value needed.
    (chart,) = game.pub["chart"]["charts"]
    level = chart["series"][0]["values"]
    german = next(s for s in chart["series"] if s["name"].startswith("German sudden death"))
    assert level[4] == german["values"][4] == 5 and "Above 0: German" in chart["note"]


def test_a_first_or_fourth_infantry_division_back_from_the_track_no_longer_counts(club, people):
    game = fab(club, people, thresholds=[])
    game.turn("Turn 1", {}, [("US 4 ID", "eliminated")])  # 0 steps entered: not large → 0 VP
    game.turn("Turn 2", {}, [("US 1 ID", "eliminated")])  # 4 steps: German 0 + 1 = 1
    # Allied: St. Vith [23] and Bastogne [47], yellow stars held at the start = 2.
    assert game.pub["ledger"][-1]["scores"] == {"german": 1, "allied": 2}
    # Turn 3: an arriving regiment brings the 1st Infantry Division back (17.23): it leaves the
    # track: German 0.
    game.turn("Turn 3", {}, [("US 1 ID", "rebuilt")])
    assert game.pub["ledger"][-1]["scores"]["german"] == 0
    game.turn("Turn 4", {}, [("US 7 AD", "eliminated")])
    with pytest.raises(
        DomainError, match=r"only the US 1st and 4th Infantry Divisions come back .*\(17\.23\)"
    ):
        game.turn("Turn 5", {}, [("US 7 AD", "rebuilt")])


def test_without_sudden_death_the_organizer_enters_the_end_of_game_result(club, people):
    game = fab(club, people, last_turn=2, thresholds=[])
    game.turn("Turn 1", {})
    game.turn("Turn 2", {})
    assert game.pub["phase"] == "final" and game.state["status"] == "active"
    with pytest.raises(DomainError, match="enter the end-of-game result"):
        game.turn("Turn 3", {})
    game.by("allied", "fab.final", {"winner": "draw", "reason": "The scenario card's tie rule"})
    # VL-5: the Allied player's result waits for the German's confirmation; nothing ends before.
    assert game.state["status"] == "active" and game.state["scenarios"][0]["status"] == "pending"
    with pytest.raises(DomainError, match="waits for the German's confirmation"):
        game.by("allied", "fab.final", {"winner": "allied", "reason": "Changed my mind"})
    game.confirm()
    state = game.state
    assert state["status"] == "finished" and state["winner"] is None
    assert "The scenario card's tie rule" in state["finish_reason"]


def test_the_advantaged_player_wins_at_the_end_when_the_organizer_chose_so(club, people):
    game = fab(club, people, last_turn=2, thresholds=[], end_rule="advantaged")
    game.turn("Turn 1", {"23": "Gs"})  # German 1, Allied 1
    game.turn("Turn 2", {"47": "Gs"})  # German 2, Allied 0 → level 2 German
    state = game.state
    assert state["winner"] == "german" and "advantaged at VP level 2" in state["finish_reason"]


def test_set_up_values_are_checked(club, people):
    game = Game(club, people, "fab_bulge", "campaign")
    book = game.pub["setup"]
    cases = [
        ({"last_turn": 6, "first_turn": 7}, "The last turn comes before the first (7)."),
        (
            {"last_turn": 6, "thresholds": [{"turn": 7, "german": 3}]},
            "Turn 7 is not played (turns 1–6).",
        ),
        (
            {"last_turn": 6, "thresholds": [{"turn": 4, "german": 3}, {"turn": 4, "allied": 3}]},
            "Turn 4 is given twice.",
        ),
        (
            {"last_turn": 6, "locations": [{"id": "23", "name": "A"}, {"id": "23", "name": "B"}]},
            "Two locations have the code '23': codes must differ.",
        ),
    ]
    for params, message in cases:
        data = {"locations": book["locations"], "units": book["units"], **params}
        with pytest.raises(DomainError) as refused:
            game.by("german", "fab.setup", data)
        assert refused.value.message == message
    with pytest.raises(DomainError, match="last_turn: This field is required"):
        game.by("german", "fab.setup", {"locations": book["locations"]})


def test_the_journal_replays_to_the_same_ledger(club, people):
    game = fab(club, people)
    for n, locations in enumerate([{"23": "Gs"}, {"33": "Gs"}, {}, {"75": "Gs"}], start=1):
        game.turn(f"Turn {n}", locations)
    played = game.state
    exported, replayed, again = game.replayed()
    assert replayed["game"] == played["game"] and again == exported
