"""Odds before rolling (the existing odds task) for the experience, casualty and reinforcement
rolls, each with its modifiers named; the chances worked out by hand."""

from __future__ import annotations

from campaigns.services import odds

from .harness import Squad


def by_outcome(roll) -> dict:
    return {o["outcome"]: o["fraction"] for o in roll["outcomes"]}


def test_odds_of_the_briefings_rolls(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    s.log("lost", 10, eliminated="DJ")
    rolls = odds.compute(s.campaign, "squad")["rolls"]
    assert [r["label"] for r in rolls] == [
        "Experience roll",
        "Casualty roll for Pvt. Weber (D)",
        "Casualty roll for Pvt. Kurz (J)",
    ]
    xp = rolls[0]
    assert xp["table"] == "8.4" and xp["modifiers"] == [
        {"label": "mission lost", "rule": "8.4", "value": -1}
    ]
    # dr − 1: 0 or 1 (dr 1, 2) → the row "≤1": +1 XP; dr 3 → 2; … dr 6 → 5
    assert by_outcome(xp) == {
        "+1 XP": "1/3",
        "+2 XP": "1/6",
        "+3 XP": "1/6",
        "+4 XP": "1/6",
        "+5 XP": "1/6",
    }
    assert [v["value"] for v in xp["after"]["values"]] == [1, 2, 3, 4, 5]  # from 0 XP
    weber = rolls[1]
    assert weber["modifiers"] == [{"label": "mission lost", "rule": "8.3", "value": -1}]
    # dr − 1 ≤ 1 (dr 1, 2) dead; 2–5 (dr 3–6) wounded; never lightly wounded
    assert by_outcome(weber) == {"dead": "1/3", "wounded": "2/3"}

    s.by("rifles.xp", dice={"mission1/8.4/xp": [5]})  # 5 − 1 = 4 XP
    s.by("rifles.spend_xp", {"soldiers": [{"soldier": s.sid("J"), "skill": "bull_strength"}]})
    rolls = odds.compute(s.campaign, "squad")["rolls"]
    kurz = next(r for r in rolls if r["label"] == "Casualty roll for Pvt. Kurz (J)")
    assert kurz["modifiers"] == [
        {"label": "mission lost", "rule": "8.3", "value": -1},
        {"label": "Bull Strength", "rule": "8.4.1", "value": 1},
    ]
    # dr − 1 + 1 = dr: 1 dead, 2–5 wounded, 6 lightly wounded
    assert by_outcome(kurz) == {"dead": "1/6", "wounded": "2/3", "lightly wounded": "1/6"}

    s.by(
        "rifles.casualties",
        dice={f"mission1/8.3/{s.sid('J')}": [3], f"mission1/8.3/{s.sid('D')}": [3]},
    )
    # both wounded: AP without the wounded 10 − 3 − 1 = 6 < 10 → the reinforcement roll is ahead
    (roll,) = odds.compute(s.campaign, "squad")["rolls"]
    assert roll["label"] == "Reinforcements from HQ" and roll["modifiers"] == []
    # dr 1–2: nothing (1/3); 3–5: 1 AP (1/2); 6 (1/6): 1d3 = 1, 2, 3 (1/3 each) and the additional die
    # gives 1 AP for equipment on a 6 (1/6): 1/6 · 1/3 · 5/6 = 5/108 without, 1/6 · 1/3 · 1/6 = 1/108 with
    assert by_outcome(roll) == {
        "no reinforcements": "1/3",
        "1 AP": "59/108",
        "1 AP and 1 AP for equipment only": "1/108",
        "2 AP": "5/108",
        "2 AP and 1 AP for equipment only": "1/108",
        "3 AP": "5/108",
        "3 AP and 1 AP for equipment only": "1/108",
    }


def test_no_odds_outside_a_briefing(club, people):
    s = Squad(club, people)
    assert odds.compute(s.campaign, "squad")["rolls"] == []
    s.create()
    assert odds.compute(s.campaign, "squad")["rolls"] == []
