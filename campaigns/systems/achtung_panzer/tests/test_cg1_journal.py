"""THE ACCEPTANCE TEST: a CG I journal of three half-days (the Initial Scenario 5/29A, then
5/29P and 5/30A) played with ENTERED dice through the real services, exported, replayed into an
empty database (journal_files) and exported again: the replayed side states match the values
worked out by hand from the rulebook below.

Every die that matters is given here by key; the others (1.620 strength, weapons and leaders of
the RGs, battle hardening, AFV withdrawal …) are entered too, as 3s (1.6113 as 6s), and change
none of the checked values (CPP, ELR, SAN, win:loss, OP, CVP).

Hand computation (1.616 table: ≤2 15, 3-4 14, 5-6 13, 7-8 12, 9-10 11, 11 10, 12 9, >12 8;
1.617: final ≤2 ELR +1 (max 4), ≥13 ELR −1, every nationality of the side (R-A25: British start at 4,
  German pioneers at 5, their own maximum); 1.6161 historical DRM Allied/German:
5/29P −1/0, 5/30A 0/+1, 5/30P −1/0):

Initial refit 5/29A (1.619-1.622 only, 1.5):
  Allied CPP 15 − 6 (French I1 2nd Line Coy) = 9.      German CPP 8 − 1 (recon 1.622) = 7;
  German FPP 50, none spent at 1.621 → forfeit → 0.    ELR 3/3, SAN 2/3 (CG I OBs).
5/29A played (Allied assault, I.1): Allies 0 → 11 objective hexes (+11 ≥ +5, 1.51) → Allies win.
  OP: Allied 23BB5 1 + 23X3 1 + 40Q2/Q3 2 + Hill 520 3 = 7; German 23R4 1 + 23H4 1 + 40I2/I3 2
  + 7AA6-8 3 = 7.  CVP sustained: Allied 14, German 28; German +4 CVP after 1.6067 (private).
RePh → 5/29P:
  1.6122: SAN 2 and 3 < 4: no roll.
  1.616 Allied: DR 4+3=7, +1 won previous, −1 hist 5/29P, 14 CVP → 0: 7 → 12 CPP → 9 + 12 = 21.
  1.616 German: DR 2+3=5, hist 0, (28 + 4 after 1.6067 = 32 CVP) → −1: 4 → 14 CPP → 7 + 14 = 21.
  1.617 Allied: DR 1+2=3, −1 won, +1 attack chit (free, I.1), −1 hist, (I1 is no 1st-line coy),
        14 CVP → 0: 2 → ELR 3 + 1 = 4.
  1.617 German: DR 6+6=12, 28 CVP (not the RePh 4, R-B3) → 0, hist 0: 12 → ELR stays 3.
  1.619 German buys I1 (7) and F2 sniper (1, SAN +1): CPP 21 − 8 = 13, SAN 3 + 1 = 4.
  1.623 Allied attack (−1 → 20), German idle → Allied assault.
5/29P played: Allies capture 1 objective hex (23R4) and cause 12 − 30 = −18 CVP: failed → Germans win.
  Bridge 40I2/40I3 destroyed (CG15). OP: Allied 7 + 1 (23R4) = 8; German 23H4 1 + 7AA 3 = 4.
RePh → 5/30A:
  1.6122 German SAN 4: dr 5 + (4 − 4) = 5 ≥ 5 → SAN 3.   Allied SAN 2: no roll.
  1.616 Allied: DR 5+5=10, hist 0, 30 CVP → −1: 9 → 11 CPP → 20 + 11 = 31.
  1.616 German: DR 3+3=6, +1 won, +1 hist: 8 → 12 CPP → 13 + 12 = 25.
  1.617 Allied: DR 6+5=11, +1 attack chit, +1 (30 CVP), hist 0: 13 → ELR 4 − 1 = 3 (British 3).
  1.617 German: DR 1+2=3, −1 won, −1 1st-line coy (I1 bought 5/29P), +1 hist: 2 → ELR 3 + 1 = 4 (pioneers 5).
  1.623 both attack: Dual Attack; Allied 31 − 1 = 30, German 25 − 1 = 24.
        1.6231 set-up dr 5 → Germans set up first; 1.625 move dr 2 → Allies move first.
5/30A played (Dual): Allied 12 hexes + 3 half boards − 10 CVP = 5; German 5 + 2 − 8 = −1 → Allies win.
  OP: Allied 23BB5 + 23X3 + 23R4 + 40Q 2 + Hill 520 3 = 8; German 23H4 1 + 7AA 3 + 6N4 2 = 6.
RePh → 5/30P (journal stops after 1.617):
  1.616 Allied: DR 4+4=8, +1 won, −1 hist 5/30P, 10 CVP → 0, 1.32: won 2 of 3 → none: 8 → 12 → 30 + 12 = 42.
  1.616 German: DR 2+2=4, hist 0, 8 CVP → 0, 1.32: won 1 of 3 ≤ ⅓ → −1: 3 → 14 → 24 + 14 = 38.
  1.617 Allied: DR 3+3=6, −1 won, +1 attack chit, −1 hist: 5 → ELR stays 3.
  1.617 German: DR 6+6=12, +1 attack chit, hist 0 (1.32 is not a 1.617 DRM): 13 → ELR 4 − 1 = 3 (pioneers 4).
Result: Allied CPP 42, ELR 3, SAN 2; German CPP 38, ELR 3, SAN 3; win:loss Allied 2:1, German 1:2;
OP per half-day A 7/8/8 (23), G 7/4/6 (17); CVP per half-day A 14/30/10, G 28/12/8.
"""

import pytest

from campaigns.models import Campaign, Club, Event
from campaigns.services import journal_files
from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War

pytestmark = pytest.mark.django_db

BRIDGES = "23BB5 23X3 23R4 23H4 40Q2 40Q3 40I2 40I3 7AA6 7AA7 7AA8"

DICE = {
    # RePh -> 5/29P
    "5/29P/1.616/allied": [4, 3],
    "5/29P/1.616/german": [2, 3],
    "5/29P/1.617/allied": [1, 2],
    "5/29P/1.617/german": [6, 6],
    "5/29P/1.618/allied": [3, 4],
    # RePh -> 5/30A
    "5/30A/1.6122/german": [5],
    "5/30A/1.616/allied": [5, 5],
    "5/30A/1.616/german": [3, 3],
    "5/30A/1.617/allied": [6, 5],
    "5/30A/1.617/german": [1, 2],
    "5/30A/1.6231/public/sets_up_first": [5],
    "5/30A/1.625/public": [2],
    # RePh -> 5/30P
    "5/30P/1.616/allied": [4, 4],
    "5/30P/1.616/german": [2, 2],
    "5/30P/1.617/allied": [3, 3],
    "5/30P/1.617/german": [6, 6],
}


def answers(**steps):
    return {**QUIET, **steps}


def play_cg1(war: War) -> None:
    war.table_dice = dict(DICE)
    both = {"allied": QUIET, "german": QUIET}
    # Initial refit (1.619-1.622).
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    war.walk_both(answers={"allied": QUIET, "german": answers(**{"1.622": {"conduct": True}})})
    assert war.public["phase"] == "play"
    # 5/29A
    war.result(
        {
            "german_objectives_start": BRIDGES,
            "allied_objectives_end": "23BB5 23X3 40Q2 40Q3 hill_520",
            "german_objectives_end": "23R4 23H4 40I2 40I3 7AA6 7AA7 7AA8",
            "allied_cvp": 14,
            "german_cvp": 28,
        }
    )
    war.walk_both(until="1.607", answers=both)
    war.by("german", "ap.cvp", {"cvp": 4, "note": "units eliminated after 1.6067"})
    war.by(
        "german",
        "ap.retained",
        {"action": "add", "kind": "sw", "type": "LMG", "note": "scrounged (1.6072)"},
    )
    war.walk_both(until="1.619", answers=both)
    war.by("german", "ap.purchase", {"action": "buy", "rg": "I1"})
    war.by("german", "ap.purchase", {"action": "buy", "rg": "F2"})
    war.walk_both(until="1.623", answers=both)
    war.by("allied", "sealed.submitted", {"key": "initiative:5/29P", "choice": "attack"})
    war.by("german", "sealed.submitted", {"key": "initiative:5/29P", "choice": "idle"})
    assert war.public["phase"] == "play" and war.public["scenario_type"] == "allied_assault"
    # 5/29P
    war.result(
        {
            "allied_objectives_start": "23BB5 23X3 40Q2 40Q3 hill_520",
            "german_objectives_start": "23R4 23H4 40I2 40I3 7AA6 7AA7 7AA8",
            "allied_objectives_end": "23BB5 23X3 23R4 40Q2 40Q3 hill_520",
            "german_objectives_end": "23H4 7AA6 7AA7 7AA8",
            "bridges_destroyed": "40I2",
            "allied_cvp": 30,
            "german_cvp": 12,
        },
        submitter="german",
        confirmer="allied",
    )
    war.walk_both(until="1.6066", answers=both)
    # Melee in the RePh changed nothing: the same end control is confirmed with the perimeter (R-A10).
    war.by("german", "ap.joint", {"step": "1.6066", "control": {"german_half_boards": 0}})
    war.walk_both(until="1.623", answers=both)
    war.by("allied", "sealed.submitted", {"key": "initiative:5/30A", "choice": "attack"})
    war.by("german", "sealed.submitted", {"key": "initiative:5/30A", "choice": "attack"})
    assert war.public["phase"] == "play" and war.public["scenario_type"] == "dual"
    # 5/30A
    war.result(
        {
            "allied_objectives_start": "23BB5 23X3 23R4 40Q2 40Q3 hill_520",
            "german_objectives_start": "23H4 7AA6 7AA7 7AA8",
            "allied_objectives_end": "23BB5 23X3 23R4 40Q2 40Q3 hill_520",
            "german_objectives_end": "23H4 7AA6 7AA7 7AA8 6N4",
            "allied_half_boards": 3,
            "german_half_boards": 2,
            "allied_cvp": 10,
            "german_cvp": 8,
        }
    )
    war.walk_both(until="1.618", answers=both)


def check(state: dict) -> None:
    game = state["game"]
    allied, german, pub = game["sides"]["allied"], game["sides"]["german"], game["public"]
    # British 4 (CG14) stays at 4 on the first +1 (maximum 4) and goes to 3 with the French on a -1
    assert (allied["cpp"], allied["elr"], allied["san"]) == (42, {"french": 3, "british": 3}, 2)
    # German pioneers 5 (CG14, their own maximum) stay at 5 on the +1 and go to 4 on the -1
    assert (german["cpp"], german["elr"], german["san"]) == (
        38,
        {"german": 3, "german_pioneers": 4},
        3,
    )
    assert german["fpp"] == 0
    assert pub["record"] == {
        "allied": {"won": 2, "lost": 1, "drawn": 0},
        "german": {"won": 1, "lost": 2, "drawn": 0},
    }
    lines = pub["roster"][:3]
    assert [line["winner"] for line in lines] == ["allied", "german", "allied"]
    assert [line["type"] for line in lines] == ["allied_assault", "allied_assault", "dual"]
    assert [line["op"] for line in lines] == [
        {"allied": 7, "german": 7},
        {"allied": 8, "german": 4},
        {"allied": 8, "german": 6},
    ]
    assert [line["cvp"] for line in lines] == [
        {"allied": 14, "german": 28},
        {"allied": 30, "german": 12},
        {"allied": 10, "german": 8},
    ]
    assert german["cvp_after_victory"] == {"5/29A": 4}
    assert [
        u["type"]
        for u in german["retained"]
        if u["kind"] == "sw" and u["note"].startswith("scrounged")
    ] == ["LMG"]
    assert (lines[2]["sets_up_first"], lines[2]["moves_first"]) == ("german", "allied")
    assert pub["bridges_destroyed"] == ["40I2", "40I3"]
    assert pub["half_day"] == "5/30P" and state["current"] == 3
    # The rolls' own reports agree with the arithmetic above (final values, rows, modifiers).
    rolls = {r["key"]: r for r in allied["rolls"] + german["rolls"]}
    assert (rolls["5/29P/1.616/german"]["final"], rolls["5/29P/1.616/german"]["row"]) == (4, "3-4")
    assert rolls["5/29P/1.617/german"]["final"] == 12
    assert rolls["5/30P/1.616/german"]["final"] == 3
    assert ("1.32", -1) in [
        (m["rule"], m["value"]) for m in rolls["5/30P/1.616/german"]["modifiers"]
    ]
    assert rolls["5/30A/1.617/allied"]["final"] == 13 and rolls["5/30A/1.617/german"]["final"] == 2


def test_cg1_three_half_days_with_entered_dice_replay_to_the_hand_computed_states(club, people):
    war = War(club, people, dice_mode="entered", name="Storming the Bridges")
    play_cg1(war)
    played = war.state
    check(played)
    rolled = Event.objects.filter(campaign=war.campaign, kind="dice.rolled")
    assert rolled.exists() and set(rolled.values_list("data__source", flat=True)) == {"entered"}
    given = {e.data["key"]: e.data["dice"] for e in rolled}
    assert all(given[key] == faces for key, faces in DICE.items())

    exported = journal_files.export_journal(war.campaign)
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    # The people are still here: the operator says they are the journal's (never assumed).
    same = {name: name for name in ("olga", "alice", "bob", "rita")}
    replayed = journal_files.replay(exported, create_club=True, user_map=same)
    state = journal_files.full_state(replayed)
    check(state)
    assert state["game"] == played["game"]
    assert journal_files.export_journal(replayed) == exported
