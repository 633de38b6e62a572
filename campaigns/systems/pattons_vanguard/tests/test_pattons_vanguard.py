"""Patton's Vanguard: full scenarios replayed to the outcomes worked out by hand from the rulebook
(000_53e5f65b78d4191e.txt): 18.1 automatic victories, 18.2 operational victory, 18.3 contested
credit, 16 the Advantage, 15.5/19.4.4 Replacement Points, 19.6 withdrawals, 20.1 bids.

Area values (18.2): 9 and 12 are worth 2, 13, 14, 20, 21, 23 and 38 are worth 1.
"""

import pytest

from campaigns.errors import DomainError
from campaigns.systems.victory_ledger.tests.harness import Game, correct

pytestmark = pytest.mark.django_db

T1, T2, T3, T4 = "Turn 1 (19 Sep)", "Turn 2 (20 Sep)", "Turn 3 (21 Sep)", "Turn 4 (22 Sep)"
S2 = ("Turn 1 (25 Sep)", "Turn 2 (26 Sep)", "Turn 3 (27 Sep)", "Turn 4 (28 Sep)")
AMERICANS = [{"id": f"U{n}", "name": f"U{n}", "side": "american"} for n in range(1, 7)]


def scenario_one(club, people, **options) -> Game:
    game = Game(club, people, "pattons_vanguard", "s1", options=options)
    book = game.pub["setup"]
    game.setup(units=[*book["units"], *AMERICANS, {"id": "G1", "name": "G1", "side": "german"}])
    return game


def play_to_turn_four(game: Game):
    """The journal of the first acceptance test, up to and including turn 4."""
    # Turn 1: the German takes Area 13 (1 VP). The American spent the Advantage on a reroll during
    # the Daylight Phase, so the German holds it in the End Phase (16.2).
    # VP on the map 1 < 2 (18.1, turn 1) → American automatic victory; the German holds the
    # Advantage → he may cancel it (16.1E).
    game.turn(T1, {"13": "Gs"}, advantage="german")
    assert game.pub["phase"] == "decision" and game.pub["decision"]["side"] == "german"
    game.by("german", "pv.advantage", {"use": "spend"})  # → the American holds the Advantage (16.2)
    # Turn 2: German holds 9, 13, 14, supplied: on the map 2 + 1 + 1 = 4 ≥ 3 → no automatic victory.
    # U1 eliminated, U2 reduced. The American spends the Advantage for 1 RP (3 + 1 = 4 RP, 16.1D);
    # the German holds it in the End Phase (16.2).
    game.turn(
        T2,
        {"9": "Gs", "14": "Gs"},
        [("U1", "eliminated"), ("U2", "reduced")],
        advantage_rp="american",
    )
    # Turn 3: also 20 (supplied) and 21 (not supplied): on the map 2+1+1+1+1 = 6 ≥ 4.
    # U2 (reduced) eliminated, U3 and U4 reduced.
    game.turn(
        T3, {"20": "Gs", "21": "G"}, [("U2", "eliminated"), ("U3", "reduced"), ("U4", "reduced")]
    )
    # Turn 4: the German contests Area 12, which the American controls. U5 eliminated, U6 and Task
    # Force Abrams reduced, U4 back to full strength in the Refit Phase (15.6.2).
    game.turn(
        T4,
        {"12": "Acs"},
        [("U5", "eliminated"), ("U6", "reduced"), ("TF Abrams", "reduced"), ("U4", "restored")],
    )


def test_s1_american_automatic_victory_cancelled_then_operational_victory_with_reduced_units_and_contested_credit(
    club, people
):
    game = scenario_one(club, people)
    play_to_turn_four(game)
    ledger = game.pub["ledger"]
    assert (
        [e["scores"]["german"] for e in ledger]
        == [
            1,  # turn 1: Area 13 = 1
            5,  # turn 2: 9 (2) + 13 + 14 = 4 areas; U1 eliminated 1; U2 reduced ½ → 0 → 4 + 1 = 5
            8,  # turn 3: 9+13+14+20 = 5 (21 unsupplied: 0); U1, U2 eliminated 2; U3, U4 reduced 2 × ½ = 1 → 8
            10,  # turn 4: areas 5 + Area 12 contested 1 (18.3) + eliminated U1, U2, U5 3 + reduced U3, U6,
            # Abrams 3 × ½ = 1.5 → 1 (rounded down) = 10
        ]
    )
    assert ledger[0]["checks"][0]["met"] and "1 VP on the map" in ledger[0]["checks"][0]["text"]
    assert any(
        "spent the Advantage to cancel the American automatic victory" in c["text"]
        for c in ledger[0]["checks"]
    )
    assert "American 4" in dict(ledger[1]["extras"])["Replacement points"]  # 3 (15.5) + 1 (16.1D)
    assert "German 1" in dict(ledger[1]["extras"])["Replacement points"]
    state = game.state
    assert state["status"] == "finished" and state["winner"] == "german"
    assert ledger[3]["outcome"] == {
        "winner": "german",
        "rule": "18.2",
        "text": "German 10 VP ≥ 10: German operational victory",
    }
    assert "(18.2)" in state["finish_reason"]
    # The chart: German VP turn by turn, reaching the 10-VP level (18.2) at turn 4.
    (chart,) = game.pub["chart"]["charts"]
    vp, _, level = chart["series"][:3]
    assert vp["values"][:4] == [1, 5, 8, 10]
    assert (
        level["kind"] == "level" and level["name"].startswith("10 VP") and level["values"][3] == 10
    )


def test_the_journal_replays_to_the_same_ledger(club, people):
    game = scenario_one(club, people)
    play_to_turn_four(game)
    played = game.state
    exported, replayed, again = game.replayed()
    assert replayed["game"] == played["game"] and replayed["winner"] == "german"
    assert again == exported


def test_a_corrected_turn_recomputes_the_turns_after_it(club, people):
    game = scenario_one(club, people)
    play_to_turn_four(game)
    # Turn 2 is corrected: U1 was never eliminated. Turn 4 then: areas 5 + contested 1 +
    # eliminated U2, U5 2 + reduced U3, U6, Abrams 1 = 9 < 10 → the German loses (18.2).
    turn2 = game.event_uid("pv.turn", 1)
    data = game.turn_data(T2, {"9": "Gs", "14": "Gs"}, [("U2", "reduced")], advantage_rp="american")
    correct(game, turn2, data)
    state = game.state
    assert [e["scores"]["german"] for e in state["game"]["public"]["ledger"]] == [1, 4, 7, 9]
    assert state["winner"] == "american"
    assert (
        state["game"]["public"]["outcome"]["text"]
        == "German 9 VP < 10: the German loses, American victory"
    )


def test_a_correction_that_ends_the_game_earlier_is_refused_naming_the_first_later_turn(
    club, people
):
    game = scenario_one(club, people)
    play_to_turn_four(game)
    # Corrected turn 3: the German held only 9 and 13 (3 VP on the map < 4) and the American
    # held the Advantage: the American automatic victory would end the game at turn 3, so the
    # recorded turn 4 no longer fits (the core's rule: undo the later turns first).
    turn3 = game.event_uid("pv.turn", 2)
    data = game.turn_data(T3, {"14": "A", "20": "A", "21": "A"}, [], advantage="american")
    with pytest.raises(DomainError) as refused:
        correct(game, turn3, data)
    assert "Turn 4 (22 Sep) recorded" in refused.value.message
    assert "American automatic victory at the end of Turn 3 (21 Sep)" in refused.value.message
    assert game.state["winner"] == "german"  # nothing changed


def test_an_american_automatic_victory_without_the_advantage_ends_the_game(club, people):
    game = scenario_one(club, people)
    # Turn 1: the German controls no VP area: 0 < 2 (18.1). The American holds the Advantage
    # (5.2): nothing can cancel it.
    game.turn(T1, {})
    state = game.state
    assert state["status"] == "finished" and state["winner"] == "american"
    assert "American automatic victory at the end of Turn 1 (19 Sep)" in state["finish_reason"]
    with pytest.raises(DomainError, match="The campaign is over"):
        game.turn(T2, {})


def test_declining_the_advantage_lets_the_automatic_victory_stand(club, people):
    game = scenario_one(club, people)
    game.turn(T1, {"13": "Gs"}, advantage="german")
    with pytest.raises(DomainError, match="The German decides this"):
        game.by("american", "pv.advantage", {"use": "spend"})
    with pytest.raises(DomainError, match="waits for a decision"):
        game.turn(T2, {})
    game.by("german", "pv.advantage", {"use": "keep"})
    assert game.state["winner"] == "american"


def test_s2_german_automatic_victory_needs_the_supply_line_through_area_8(club, people):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    # Start (19.2): Area 38 German → 1 VP on the map; turn 1 needs 2: the German takes 13 → 2.
    game.turn(S2[0], {"13": "Gs"})
    # Turn 2: the German holds Area 25 but has no supply line through Area 8 → no German
    # automatic victory; on the map 38 + 13 + 23 = 3 ≥ 3.
    game.turn(S2[1], {"25": "Gs", "23": "Gs"})
    assert game.state["status"] == "active"
    assert "no supply line through Area 8" in game.pub["ledger"][1]["checks"][1]["text"]
    # Turn 3: the line is traced: German automatic victory (18.1); the German holds the
    # Advantage (19.4.8), so the American cannot cancel it.
    game.turn(S2[2], {"9": "Gs"}, supply_through_8=True)
    state = game.state
    assert (
        state["winner"] == "german"
        and "German automatic victory at the end of Turn 3 (27 Sep)" in state["finish_reason"]
    )


@pytest.mark.parametrize(
    "rule, winner", [(None, None), ("german", "german"), ("american", "american")]
)
def test_both_automatic_victories_at_once_follow_the_campaign_option(club, people, rule, winner):
    options = {"both_automatic": rule} if rule else {}
    game = Game(club, people, "pattons_vanguard", "s2", options=options)
    game.setup()
    game.turn(S2[0], {"13": "Gs"})  # 38 + 13 = 2 ≥ 2
    # Turn 2: 2 VP on the map < 3 → American automatic victory; and the German holds Area 7 with
    # the line through Area 8 → German automatic victory. The winner holds the Advantage, so the
    # loser cannot cancel the win that stands (16.1E).
    game.turn(S2[1], {"7": "Gs"}, supply_through_8=True, advantage=winner or "german")
    state = game.state
    if winner is None:  # default: they cancel out, play on (PV-5)
        assert state["status"] == "active" and game.pub["phase"] == "play"
    elif winner == "german":
        assert state["winner"] == "german"
    else:  # the American one stands and the loser (German) does not hold the Advantage
        assert state["winner"] == "american"


def test_s2_withdrawals_are_not_eliminations(club, people):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    assert game.pub["coming"] == [
        [
            "Replacement points in Turn 1 (25 Sep)'s Refit Phase",
            "German 2, American 2 (19.4.4); the side spending the Advantage gets 1 more "
            "(16.1D); unspent RP are lost (15.7)",
        ]
    ]
    # Turn 1: 37/A (marked for withdrawal, 19.6) is eliminated; 53/B reduced. At the end of
    # turn 1, 37/B, 37/C, 37/D leave the map (withdrawn); 37/A stays eliminated for good.
    game.turn(S2[0], {"13": "Gs"}, [("37/A", "eliminated"), ("53/B", "reduced")])
    units = game.pub["units"]
    assert [units[u]["status"] for u in ("37/A", "37/B", "37/C", "37/D")] == [
        "eliminated",
        "withdrawn",
        "withdrawn",
        "withdrawn",
    ]
    # German VP: areas 38 + 13 = 2; eliminated 37/A 1; reduced 53/B ½ → 0: 3 (withdrawals count 0).
    assert game.pub["ledger"][0]["scores"] == {"german": 3}
    with pytest.raises(DomainError, match=r"rebuilt in turn 1's Refit Phase .*\(19\.6\)"):
        game.turn(S2[1], {}, [("37/A", "rebuilt")])
    with pytest.raises(DomainError, match="was withdrawn"):
        game.turn(S2[1], {}, [("37/B", "eliminated")])


def test_inconsistent_turns_are_refused_with_a_clear_message(club, people):
    game = scenario_one(club, people)
    game.turn(T1, {"13": "Gs"}, [("U1", "eliminated")], advantage="german")
    game.by("german", "pv.advantage", {"use": "spend"})
    cases = [
        (
            game.turn_data(T2, {}, [("U1", "eliminated")]),
            "U1 was eliminated in Turn 1 (19 Sep) and has not been rebuilt: it cannot be eliminated again.",
        ),
        (
            {
                **game.turn_data(T2, {"9": "Gs"}),
                "locations": [
                    {"location": "9", "controller": "german"},
                    {"location": "9", "controller": "american"},
                ],
            },
            "Area 9 (Hill 318) is given as held by the German and by the American: a location has one controller.",
        ),
        (
            game.turn_data("Turn 5 (23 Sep)", {}),
            "'Turn 5 (23 Sep)' is not a turn of Scenario 1: 19–22 September 1944 (17.1): it runs Turn 1 (19 Sep) – "
            "Turn 4 (22 Sep).",
        ),
        (game.turn_data(T3, {}), "Turn 3 (21 Sep) is not next: record Turn 2 (20 Sep) first."),
        (
            game.turn_data(T1, {}),
            "Turn 1 (19 Sep) is already recorded; to change it, propose a correction of that turn.",
        ),
        (game.turn_data(T2, {"99": "Gs"}), "No location '99' in this campaign's set-up."),
        (
            game.turn_data(T2, {}, [("Nobody", "reduced")]),
            "No unit 'Nobody' in this campaign's unit list; add it first.",
        ),
        (
            game.turn_data(
                T2, {}, advantage_refit="german", advantage_rp="german", advantage="german"
            ),
            "The German spent the Advantage in the Refit Phase, so the American holds it in the End Phase (16.2).",
        ),
        (
            game.turn_data(T2, {}, advantage_rp="german"),
            "The American held the Advantage when the Refit Phase began: only the American may spend it for one "
            "more RP (16.1D), and the German cannot in that Refit Phase (16.2).",
        ),
        (
            game.turn_data(T2, {}, advantage_refit="german", advantage="american"),
            "The German held the Advantage when the Refit Phase began and did not spend it, so the German still "
            "holds it in the End Phase (16.2, PV-12).",
        ),
        (game.turn_data(T2, {}, [("U2", "restored")]), "U2 is already at full strength."),
    ]
    before = game.state
    for data, message in cases:
        with pytest.raises(DomainError) as refused:
            game.by("german", "pv.turn", data)
        assert refused.value.message == message
    assert game.state == before


def test_no_advantage_rp_on_turn_four(club, people):
    game = scenario_one(club, people)
    game.turn(T1, {"13": "Gs"}, advantage="german")
    game.by("german", "pv.advantage", {"use": "spend"})
    for label in (T2, T3):
        game.turn(label, {"9": "Gs", "14": "Gs"})
    with pytest.raises(DomainError, match=r"not buy a Replacement Point on turn 4 \(16\.1D\)"):
        game.turn(T4, {}, advantage_rp="american")


def test_bids_decide_the_side_and_the_operational_threshold(club, people):
    game = Game(club, people, "pattons_vanguard", "s1", options={"bids": True})
    game.setup(units=[*game.pub["setup"]["units"], *AMERICANS])
    with pytest.raises(DomainError, match=r"Both sides bid first \(20\.1\)"):
        game.turn(T1, {})
    # alice (seated German) bids 8, bob (seated American) bids 11: bob commands the Germans and
    # needs 11 VP (20.1).
    game.act("alice", "sealed.submitted", {"key": "bid", "choice": 8})
    game.act("bob", "sealed.submitted", {"key": "bid", "choice": 11})
    state = game.state
    assert state["sides"]["german"]["players"] == ["bob"] and state["sides"]["american"][
        "players"
    ] == ["alice"]
    assert game.pub["bid"]["threshold"] == 11
    game.player = {"german": "bob", "american": "alice"}
    game.turn(T1, {"13": "Gs", "9": "Gs"})  # 3 ≥ 2
    game.turn(T2, {"14": "Gs"})  # 4 ≥ 3
    game.turn(T3, {"20": "Gs", "12": "Gs"})  # 2+2+1+1+1 = 7 ≥ 4
    # Turn 4: areas 9, 12 (2 each) + 13, 14, 20 (1 each) = 7; U1, U2, U3 eliminated 3: 10 < 11.
    game.turn(T4, {}, [("U1", "eliminated"), ("U2", "eliminated"), ("U3", "eliminated")])
    state = game.state
    assert state["winner"] == "american"
    assert game.pub["outcome"] == {
        "winner": "american",
        "rule": "20.1",
        "text": "German 10 VP < 11: the German loses, American victory",
    }


def test_tied_bids_keep_the_seats(club, people):
    game = Game(club, people, "pattons_vanguard", "s1", options={"bids": True})
    game.setup()
    game.act("alice", "sealed.submitted", {"key": "bid", "choice": 9})
    game.act("bob", "sealed.submitted", {"key": "bid", "choice": 9})
    state = game.state
    assert state["sides"]["german"]["players"] == ["alice"] and game.pub["bid"]["threshold"] == 9


def test_unit_changes_recorded_as_they_happen_count_with_the_turn(club, people):
    game = scenario_one(club, people)
    # During turn 1, five units change (more than the turn form's blank rows): recorded in two goes.
    game.by(
        "american",
        "pv.changes",
        {
            "turn": T1,
            "units": [
                {"unit": "U1", "change": "eliminated"},
                {"unit": "U2", "change": "reduced"},
                {"unit": "U3", "change": "reduced"},
            ],
        },
    )
    game.by(
        "german",
        "pv.changes",
        {
            "turn": T1,
            "units": [{"unit": "U4", "change": "reduced"}, {"unit": "G1", "change": "eliminated"}],
        },
    )
    with pytest.raises(
        DomainError, match="U1 was eliminated in Turn 1 .* cannot be eliminated again"
    ):
        game.by(
            "german", "pv.changes", {"turn": T1, "units": [{"unit": "U1", "change": "eliminated"}]}
        )
    with pytest.raises(DomainError, match="Turn 2 .* is not next"):
        game.by(
            "german", "pv.changes", {"turn": T2, "units": [{"unit": "U5", "change": "eliminated"}]}
        )
    # The turn itself adds U5 reduced. German VP: Area 13 1 + U1 eliminated 1 + reduced U2, U3, U4, U5
    # 4 × ½ = 2 → 4 VP; on the map 1 < 2 → American automatic victory (the American holds the
    # Advantage: it stands).
    game.turn(T1, {"13": "Gs"}, [("U5", "reduced")])
    entry = game.pub["ledger"][0]
    assert [u["unit"] for u in entry["units"]] == ["U1", "U2", "U3", "U4", "G1", "U5"]
    assert entry["scores"] == {"german": 4} and game.pub["pending"] == []
    assert game.state["winner"] == "american"


def test_an_automatic_victory_cancelled_after_turn_four_leaves_the_operational_victory_to_decide(
    club, people
):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    game.turn(S2[0], {"13": "Gs"})  # 38 + 13 = 2 ≥ 2
    game.turn(S2[1], {"9": "Gs"})  # 4 ≥ 3
    game.turn(S2[2], {})  # 4 ≥ 4
    # Turn 4: the German holds Area 25 with the line through Area 8 (18.1), but the American
    # holds the Advantage and spends it (16.1E): with no turn 5, 18.2 decides: areas 38 + 13 + 9
    # = 4 VP, no units lost: 4 < 10 → American victory.
    game.turn(S2[3], {"25": "Gs"}, supply_through_8=True, advantage="american")
    assert game.pub["decision"]["side"] == "american"
    game.by("american", "pv.advantage", {"use": "spend"})
    state = game.state
    assert state["winner"] == "american" and game.pub["advantage"] == "german"  # 16.2
    assert game.pub["outcome"]["text"] == "German 4 VP < 10: the German loses, American victory"


def test_only_the_holder_at_the_start_of_the_refit_phase_spends_the_advantage_for_one_more_rp(
    club, people
):
    """16.1D, 16.2, PV-12: Scenario 1, the American holds the Advantage at the start (5.2) and
    receives 3 RP per Refit Phase, the German 1 (15.5); spending it gives 1 more."""
    game = scenario_one(club, people)
    # Turn 1: no use in the Daylight Phase, so the American still holds it in the Refit Phase: the
    # German cannot spend it, the American can: American 3 + 1 = 4 RP, German 1.
    with pytest.raises(
        DomainError,
        match=r"^advantage_rp: The American held the Advantage when the Refit Phase began: only "
        r"the American may spend it",
    ):
        game.turn(T1, {"13": "Gs", "9": "Gs", "14": "Gs"}, advantage_rp="german")
    game.turn(T1, {"13": "Gs", "9": "Gs", "14": "Gs"}, advantage_rp="american")
    entry = game.pub["ledger"][-1]
    assert dict(entry["extras"])["Replacement points"].startswith(
        "German 1, American 4 (the American +1"
    )
    assert dict(entry["extras"])["Advantage"] == (
        "the American held it when the Refit Phase began and spent it "
        "for one more RP (16.1D); held by the German in the End Phase "
        "(16)"
    )
    assert game.pub["advantage"] == "german"  # 16.2: the player who did not use it
    # Turn 2: the German used it in the Daylight Phase (a reroll, 16.1A), so the American held it when
    # the Refit Phase began: the German cannot spend it again there.
    with pytest.raises(DomainError, match=r"the German cannot in that Refit Phase \(16\.2\)"):
        game.turn(T2, {}, advantage_refit="american", advantage_rp="german")
    # The German kept it through the Daylight Phase and spends it: German 1 + 1 = 2 RP, American 3.
    game.turn(T2, {}, advantage_rp="german")
    assert dict(game.pub["ledger"][-1]["extras"])["Replacement points"].startswith(
        "German 2, American 3 (the German +1"
    )
    assert game.pub["advantage"] == "american"
    # Turn 3: the American used it in the Daylight Phase; the German holds it from the Refit Phase on,
    # spends nothing: he still holds it in the End Phase; RP as printed (1 and 3).
    game.turn(T3, {}, advantage_refit="german")
    assert dict(game.pub["ledger"][-1]["extras"])["Replacement points"].startswith(
        "German 1, American 3 (15.5)"
    )
    assert game.pub["advantage"] == "german"


def test_a_v1_turn_record_of_the_advantage_spent_by_its_non_holder_still_replays(club, people):
    """A journal written under v1 (before PV-12's holder rule) keeps its reading: the American is
    recorded spending the Advantage the German held; a v2 journal saying so is refused."""
    import copy

    from campaigns.services import journal_files

    game = scenario_one(club, people)
    # The referee's record is final at once (VL-5): the journal has no confirmation a v1 one lacked.
    game.act(
        "rita",
        "pv.turn",
        game.turn_data(T1, {"13": "Gs", "9": "Gs", "14": "Gs"}, advantage_rp="american"),
        side="american",
    )  # → the German holds it
    assert game.pub["advantage"] == "german"
    exported = journal_files.export_journal(game.campaign)
    last = exported["events"][-1]
    spent_by_american = copy.deepcopy(last)
    spent_by_american.update(
        seq=last["seq"] + 1,
        uid="5b0d5f7e-2a0e-4d7e-9f3c-0e8f6c1a9b21",
        data=game.turn_data(T2, {}, advantage_rp="american"),
    )
    v1 = copy.deepcopy(exported)
    v1["events"].append(spent_by_american)
    v1["journals"]["pattons_vanguard"] = 1
    v2 = copy.deepcopy(v1)
    v2["journals"]["pattons_vanguard"] = 2
    v2["campaign"]["name"] = v2["events"][0]["data"]["name"] = "Refused"
    from campaigns.models import Campaign, Club

    Campaign.objects.all().delete()
    Club.objects.all().delete()
    people_map = {name: name for name in ("olga", "alice", "bob", "rita")}
    with pytest.raises(DomainError, match="only the German may spend it"):
        journal_files.replay(v2, create_club=True, user_map=people_map)
    campaign = journal_files.replay(v1, create_club=True, user_map=people_map)
    pub = journal_files.full_state(campaign)["game"]["public"]
    assert dict(pub["ledger"][-1]["extras"])["Replacement points"].startswith(
        "German 1, American 4"
    )
    assert pub["advantage"] == "german"  # v1: the other player holds it after the American's use
