"""Acceptance: a three-mission German campaign with dice entered from the table, played
through the services, replays to the squad worked out by hand from section 8.

The squad is 2.2's example squad (10 AP): A SMG Leader, B Rifle Assistant Leader, J LMG
Gunner, D G H I Rifles, one 5x Grenades. Dice and what follows, by hand (8.2, 8.3, 8.4,
the End Mission Table printed after 8.4.1, 6; the lost die faces read as in
docs/rules-notes.md RA-1 to RA-3: casualty ≤1 dead, 2–5 wounded, ≥6 lightly wounded;
reinforcement 1–2 none, 3–5 one AP, 6 1d3 AP and the additional die, 6 on it one AP for
equipment only):

Mission 1 (accomplished in 8 of 10 turns; D Weber and G Lang eliminated)
  (a) nobody is wounded yet.
  (b) XP dr 5, no modifier (accomplished) → +5; XP 0 + 5 = 5.
      Spend: Weber (D) Veteran 2 XP, Braun (A) Battlefield control (Leader only; he leads) 2 XP
      → 5 − 2 − 2 = 1 XP left.
  (c) Weber: dr 1, no modifier → 1 → dead (his Grenade goes back to the squad).
      Lang: dr 6 → 6 → lightly wounded, fights on.
  (d) AP without the wounded: A 1 + B 1 + J 3 + G 1 + H 1 + I 1 = 8 units, + 1 equipment = 9 < 10
      → reinforcements: dr 4 → one AP → Pvt. Huber, Rifle (1 AP), takes counter D (Weber's
      letter is free again); squad AP 9 + 1 = 10.
Mission 2 (lost in 12 of 12 turns; A Braun (the Leader), J Kurz, H Roth eliminated; I Ziegler
  takes command, a Rifle, which may not lead: a temporary Leader (6); Braun becomes Rifleman)
  (a) nobody is wounded (Lang was only lightly wounded).
  (b) XP dr 1 − 1 (mission lost) = 0 → row ≤1: +1 (at least one XP); XP 1 + 1 = 2.
      Spend: Kurz (J) Bull Strength 2 XP → 0. (Refused before that: Battlefield control for
      Vogel (B), not the Leader; a second skill for Braun.)
  (c) Braun: dr 3 − 1 = 2 → wounded.  Kurz: dr 2 − 1 + 1 (Bull Strength) = 2 → wounded
      (without Bull Strength 1 → dead).  Roth: dr 1 − 1 = 0 → dead.
      Ziegler gives up the command (a Rifle may not lead): the squad has no Leader.
  (d) AP without the wounded: B 1 + G 1 + I 1 + D Huber 1 = 4 units + 1 equipment = 5 < 10
      → dr 6 → 1d3: die 3 → (3 + 1) / 2 = 2 AP; additional die dr 2 → no equipment AP.
      Lt. Keller, SMG (1 AP, counter K) and Pvt. Franke, Rifle (1 AP, counter H): 2 AP spent;
      5 + 2 = 7 ≤ 10. Keller is named Leader (an SMG may lead).
Mission 3 (aborted after 5 of 8 turns; Braun and Kurz are wounded and sit it out — asking for
  Braun is refused; G Lang eliminated)
  (a) Braun and Kurz, wounded in mission 2, recover.
  (b) XP dr 3 − 1 (mission aborted) = 2 → +2; XP 0 + 2 = 2. Spend: Lang (G) Veteran → 0.
  (c) Lang: dr 5, no modifier (aborted is not lost) → wounded.
  (d) the last mission: no reinforcements; closing the briefing ends the campaign.

The squad at the end: dead Weber (mission 1), Roth (mission 2); wounded Lang; Braun (Rifleman,
Battlefield control), Vogel, Kurz (Bull Strength), Ziegler, Huber, Keller (Leader), Franke
active; Veterans Weber (dead) and Lang; XP earned 5 + 1 + 2 = 8, spent 4 + 2 + 2 = 8, unused 0.
"""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.models import Campaign
from campaigns.services import journal_files

from .harness import Squad


def _play(squad: Squad) -> None:
    s = squad
    s.create()
    s.plan(0, "Mission 01", 10)
    s.log("accomplished", 8, eliminated="DG")
    s.by("rifles.xp", dice={"mission1/8.4/xp": [5]})
    s.by(
        "rifles.spend_xp",
        {
            "soldiers": [
                {"soldier": s.sid("D"), "veteran": True},
                {"soldier": s.sid("A"), "skill": "battlefield_control"},
            ]
        },
    )
    weber, lang = s.sid("D"), s.sid("G")
    s.by("rifles.casualties", dice={f"mission1/8.3/{weber}": [1], f"mission1/8.3/{lang}": [6]})
    s.by("rifles.reinforce", dice={"mission1/8.2/roll": [4]})
    s.by(
        "rifles.recruit",
        {
            "soldiers": [
                {"name": "Pvt. Huber", "letter": "D", "unit": "rifle", "designation": "Rifleman"}
            ]
        },
    )
    s.by("rifles.next_mission")

    s.plan(1, "Mission 02", 12)
    s.log("lost", 12, eliminated="AJH", new_leader="I")
    s.by("rifles.xp", dice={"mission2/8.4/xp": [1]})
    with pytest.raises(DomainError, match="Battlefield control is for the Leader only"):
        s.by(
            "rifles.spend_xp",
            {"soldiers": [{"soldier": s.sid("B"), "skill": "battlefield_control"}]},
        )
    with pytest.raises(DomainError, match="already has a skill"):
        s.by("rifles.spend_xp", {"soldiers": [{"soldier": s.sid("A"), "skill": "sharpshooter"}]})
    s.by("rifles.spend_xp", {"soldiers": [{"soldier": s.sid("J"), "skill": "bull_strength"}]})
    braun, kurz, roth = s.sid("A"), s.sid("J"), s.sid("H")
    s.by(
        "rifles.casualties",
        dice={
            f"mission2/8.3/{braun}": [3],
            f"mission2/8.3/{kurz}": [2],
            f"mission2/8.3/{roth}": [1],
        },
    )
    s.by(
        "rifles.reinforce",
        dice={"mission2/8.2/roll": [6], "mission2/8.2/ap": [3], "mission2/8.2/equipment": [2]},
    )
    s.by(
        "rifles.recruit",
        {
            "soldiers": [
                {"name": "Lt. Keller", "letter": "K", "unit": "smg", "designation": "Rifleman"},
                {"name": "Pvt. Franke", "letter": "H", "unit": "rifle", "designation": "Rifleman"},
            ]
        },
    )
    s.by("rifles.leader", {"soldier": s.sid("K")})
    s.by("rifles.next_mission")

    s.plan(2, "Mission 03", 8)
    with pytest.raises(
        DomainError, match=r"Sgt. Braun \(A\) is wounded and cannot take part"
    ) as refused:
        s.log("aborted", 5, eliminated="AG")  # the wounded Braun named in the mission
    assert refused.value.field == "data.eliminated[0]"
    s.log("aborted", 5, eliminated="G")
    s.by("rifles.xp", dice={"mission3/8.4/xp": [3]})
    s.by("rifles.spend_xp", {"soldiers": [{"soldier": s.sid("G"), "veteran": True}]})
    s.by("rifles.casualties", dice={f"mission3/8.3/{s.sid('G')}": [5]})
    s.by("rifles.next_mission")


def _check_squad(game: dict) -> None:
    everyone = {s["name"]: s for s in game["squad"]["soldiers"]}
    assert (
        len(everyone) == 10
    )  # 7 at the start, Huber after mission 1, Keller and Franke after mission 2
    status = {name: s["status"] for name, s in everyone.items()}
    assert status == {
        "Sgt. Braun": "active",
        "Cpl. Vogel": "active",
        "Pvt. Kurz": "active",
        "Pvt. Weber": "dead",
        "Pvt. Lang": "wounded",
        "Pvt. Roth": "dead",
        "Pvt. Ziegler": "active",
        "Pvt. Huber": "active",
        "Lt. Keller": "active",
        "Pvt. Franke": "active",
    }
    assert everyone["Pvt. Weber"]["died_in"] == 0 and everyone["Pvt. Roth"]["died_in"] == 1
    assert everyone["Pvt. Lang"]["wounded_in"] == 2
    assert {n for n, s in everyone.items() if s["veteran"]} == {"Pvt. Weber", "Pvt. Lang"}
    assert {n: s["skills"] for n, s in everyone.items() if s["skills"]} == {
        "Sgt. Braun": ["battlefield_control"],
        "Pvt. Kurz": ["bull_strength"],
    }
    designations = {n: s["designation"] for n, s in everyone.items() if s["status"] != "dead"}
    assert designations == {
        "Sgt. Braun": "Rifleman",
        "Cpl. Vogel": "Assistant Leader",
        "Pvt. Kurz": "Gunner",
        "Pvt. Lang": "Rifleman",
        "Pvt. Ziegler": "Rifleman",
        "Pvt. Huber": "Rifleman",
        "Lt. Keller": "Leader",
        "Pvt. Franke": "Rifleman",
    }
    letters = {n: s["letter"] for n, s in everyone.items() if s["status"] != "dead"}
    assert (
        letters["Pvt. Huber"] == "D"
        and letters["Pvt. Franke"] == "H"
        and letters["Lt. Keller"] == "K"
    )
    missions = {n: s["missions"] for n, s in everyone.items()}
    assert missions == {
        "Sgt. Braun": [0, 1],
        "Cpl. Vogel": [0, 1, 2],
        "Pvt. Kurz": [0, 1],
        "Pvt. Weber": [0],
        "Pvt. Lang": [0, 1, 2],
        "Pvt. Roth": [0, 1],
        "Pvt. Ziegler": [0, 1, 2],
        "Pvt. Huber": [1, 2],
        "Lt. Keller": [2],
        "Pvt. Franke": [2],
    }
    assert everyone["Pvt. Weber"]["equipment"] == []  # his Grenade went back to the squad
    squad = game["squad"]
    assert (squad["xp_earned"], squad["xp_spent"], squad["xp"]) == (8, 8, 0)
    assert [entry["change"] for entry in game["ledger"]] == [5, -2, -2, 1, -2, 2, -2]
    assert [entry["balance"] for entry in game["ledger"]] == [5, 3, 1, 2, 0, 2, 0]
    assert [m["log"]["outcome"] for m in game["missions"]] == ["accomplished", "lost", "aborted"]


def test_three_missions_with_entered_dice_give_the_squad_worked_out_by_hand(club, people):
    squad = Squad(club, people)
    _play(squad)
    state = squad.state
    assert state["status"] == "finished"
    assert state["finish_reason"] == "All 3 missions have been played."
    _check_squad(state["game"]["public"])
    texts = [r["text"] for r in state["game"]["public"]["rolls"]]
    assert texts == [
        "Experience roll: dr 5 → +5 XP; the squad's XP 0 → 5",
        "Casualty roll for Pvt. Weber (D): dr 1 → dead",
        "Casualty roll for Pvt. Lang (G): dr 6 → lightly wounded",
        "Reinforcements from HQ: dr 4 → 1 AP to reinforce the squad",
        "Experience roll: dr 1 − 1 (mission lost) = 0 → +1 XP (at least one XP after each mission); "
        "the squad's XP 1 → 2",
        "Casualty roll for Sgt. Braun (A): dr 3 − 1 (mission lost) = 2 → wounded",
        "Casualty roll for Pvt. Kurz (J): dr 2 − 1 (mission lost) + 1 (Bull Strength) = 2 → wounded",
        "Casualty roll for Pvt. Roth (H): dr 1 − 1 (mission lost) = 0 → dead",
        "Reinforcements from HQ: dr 6 → 1d3 AP to reinforce the squad",
        "Reinforcement AP (1d3): die 3, halved rounding up (1.2) = 2 → 2 AP to reinforce the squad",
        "Additional die for equipment: dr 2 → no AP for equipment",
        "Experience roll: dr 3 − 1 (mission aborted) = 2 → +2 XP; the squad's XP 0 → 2",
        "Casualty roll for Pvt. Lang (G): dr 5 → wounded",
    ]


def test_the_journal_replays_to_the_same_squad(club, people):
    squad = Squad(club, people)
    _play(squad)
    exported = journal_files.export_journal(squad.campaign)
    before = journal_files.full_state(squad.campaign)
    squad.campaign.delete()  # event uids are unique: the file goes into a database without it
    copy = journal_files.replay(exported, club_slug=club.slug)
    assert Campaign.objects.count() == 1
    after = journal_files.full_state(copy)
    _check_squad(after["game"]["public"])
    assert after["game"] == before["game"]
    assert journal_files.export_journal(copy)["events"] == exported["events"]
