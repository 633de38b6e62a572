"""The end-mission briefing's rules beyond the acceptance journal: when XP may be spent and what
it costs, the reinforcement cap and the equipment-only AP (8.2), a squad wiped out, house rules
on the lost die faces, and house rules fixed once the campaign has started."""

from __future__ import annotations

import pytest

from campaigns.errors import DomainError
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

from .harness import Squad


@pytest.fixture
def squad(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    s.plan(1, "Mission 02", 10)
    return s


def test_xp_are_spent_between_the_experience_roll_and_the_casualty_rolls(squad):
    squad.log("accomplished", 6, eliminated="D")
    with pytest.raises(DomainError, match=r"Roll for experience first \(8\.4\)"):
        squad.by("rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("B"), "veteran": True}]})
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})  # +3 XP
    with pytest.raises(DomainError, match=r"That costs 4 XP; the squad has 3"):
        squad.by(
            "rifles.spend_xp",
            {"soldiers": [{"soldier": squad.sid("B"), "veteran": True, "skill": "hunter"}]},
        )
    squad.by(
        "rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("B"), "veteran": True}]}
    )  # 3 − 2 = 1
    with pytest.raises(DomainError, match="already a Veteran"):
        squad.by("rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("B"), "veteran": True}]})
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('D')}": [4]})
    with pytest.raises(
        DomainError, match="before the casualty rolls; the rest waits for the next briefing"
    ):
        squad.by("rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("G"), "veteran": True}]})
    assert (
        squad.game["squad"]["xp"] == 1
    )  # kept for the next briefing (8.4: "Keep track of unused XP")


def test_reinforcements_fill_the_squad_up_to_its_maximum(squad):
    squad.log("lost", 10, eliminated="JD")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [2]})
    # LMG Kurz: 6 − 1 = 5 → wounded; Weber: 1 − 1 = 0 → dead
    squad.by(
        "rifles.casualties",
        dice={f"mission1/8.3/{squad.sid('J')}": [6], f"mission1/8.3/{squad.sid('D')}": [1]},
    )
    # AP without the wounded: SMG 1 + Rifles B G H I 4 = 5, + Grenades 1 = 6 < 10
    assert squad.squad_ap == 6
    squad.by(
        "rifles.reinforce",
        dice={"mission1/8.2/roll": [6], "mission1/8.2/ap": [6], "mission1/8.2/equipment": [6]},
    )
    grant = squad.game["briefing"]["reinforcement"]
    assert (grant["ap"], grant["equipment_ap"]) == (
        3,
        1,
    )  # 1d3: die 6 → 3; additional die 6 → 1 for equipment
    with pytest.raises(DomainError, match=r"New units cost 4 AP; HQ granted 3 more AP"):
        squad.by(
            "rifles.recruit",
            {
                "soldiers": [
                    {"letter": "K", "unit": "lmg", "designation": "Gunner"},
                    {"letter": "L", "unit": "rifle", "designation": "Rifleman"},
                ]
            },
        )
    # An LMG (3 AP) and a 5x Grenades (1 AP from the equipment-only AP): 6 + 4 = 10, the maximum
    squad.by(
        "rifles.recruit",
        {
            "soldiers": [
                {"name": "Pvt. Bauer", "letter": "K", "unit": "lmg", "designation": "Gunner"}
            ],
            "equipment": [{"item": "grenades", "quantity": 1}],
        },
    )
    assert squad.squad_ap == 10
    grant = squad.game["briefing"]["reinforcement"]
    assert (grant["spent"], grant["spent_equipment"]) == (3, 1)
    with pytest.raises(DomainError, match="HQ granted 0 more AP"):
        squad.by(
            "rifles.recruit",
            {"soldiers": [{"letter": "L", "unit": "rifle", "designation": "Rifleman"}]},
        )


def test_reinforcements_never_take_the_squad_over_its_maximum(squad):
    squad.log("lost", 10, eliminated="D")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [2]})
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('D')}": [1]})  # 1 − 1 = 0 → dead
    assert squad.squad_ap == 9
    squad.by(
        "rifles.reinforce",
        dice={"mission1/8.2/roll": [6], "mission1/8.2/ap": [5], "mission1/8.2/equipment": [1]},
    )
    assert squad.game["briefing"]["reinforcement"]["ap"] == 3  # die 5 → 3
    with pytest.raises(
        DomainError,
        match=r"would have 11 AP without its wounded; reinforcements fill it up to the "
        r"Army's maximum of 10 AP \(8\.2\)",
    ):
        squad.by(
            "rifles.recruit",
            {
                "soldiers": [
                    {"letter": "K", "unit": "rifle", "designation": "Rifleman"},
                    {"letter": "L", "unit": "rifle", "designation": "Rifleman"},
                ]
            },
        )
    squad.by(
        "rifles.recruit",
        {"soldiers": [{"letter": "K", "unit": "rifle", "designation": "Rifleman"}]},
    )
    squad.by("rifles.next_mission")
    closed = squad.campaign.events.get(kind="rifles.next_mission")
    # 3 granted, 1 spent: 2 left, lost when the next mission begins (RA-10)
    assert "2 reinforcement AP left unspent (lost)" in squad.game["said"][str(closed.uid)]


def test_no_reinforcements_for_a_full_squad_or_after_the_last_mission(club, people):
    short = Squad(club, people, variant="three")
    short.create()
    short.plan(0, "Mission 01", 10)
    short.log("accomplished", 4)
    short.by("rifles.xp", dice={"mission1/8.4/xp": [1]})
    with pytest.raises(
        DomainError, match=r"The squad has 10 AP without its wounded, the Army's maximum is 10"
    ):
        short.by("rifles.reinforce")


def test_a_squad_wiped_out_ends_the_campaign(club, people):
    s = Squad(club, people)
    s.create(
        [{"name": "Sgt. Last", "letter": "A", "unit": "smg", "designation": "Leader"}], equipment=[]
    )
    s.plan(0, "Mission 01", 10)
    s.log("lost", 3, eliminated="A")
    s.by("rifles.xp", dice={"mission1/8.4/xp": [6]})
    s.by("rifles.casualties", dice={f"mission1/8.3/{s.sid('A')}": [2]})  # 2 − 1 = 1 → dead
    state = s.state
    assert state["status"] == "finished"
    assert state["finish_reason"] == "The squad was wiped out in Mission 1: Mission 01."


def test_a_house_rule_on_a_lost_die_face_decides_and_is_named(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club,
        user=olga,
        system="rifles_ardennes",
        variant="three",
        name="House",
        options={"dice_mode": "entered", "army": "german", "enemy": "russian"},
    )
    with pytest.raises(DomainError, match="one of: dead, wounded, lightly wounded"):
        submit(campaign, olga, "house_rule.set", {"key": "8.3:2:result", "value": "missing"})
    submit(
        campaign,
        olga,
        "house_rule.set",
        {"key": "8.3:2:result", "value": "dead", "note": "our club's reading"},
    )
    svc.assign_player(campaign, olga, side="squad", username="alice")
    submit(campaign, olga, "campaign.started")
    s = Squad.__new__(Squad)
    s.people, s.campaign = people, campaign
    s.create()
    s.plan(0, "Mission 01", 10)
    s.log("accomplished", 4, eliminated="D")
    s.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    s.by("rifles.casualties", dice={f"mission1/8.3/{s.sid('D')}": [2]})
    assert s.soldier("D")["status"] == "dead"
    assert s.game["rolls"][-1]["text"] == (
        "Casualty roll for Pvt. Weber (D): dr 2 → dead (house rule; Muster's default: wounded)"
    )
    # House rules are fixed once the campaign has started (club comparisons stay fair).
    with pytest.raises(DomainError, match="house rules are fixed when the campaign starts"):
        submit(
            campaign,
            people["alice"],
            "proposal.made",
            {"action": "house_rule", "data": {"key": "8.3:3:result", "value": "dead"}},
        )


def test_a_correction_by_the_solitaire_player_applies_at_once_and_reuses_the_dice(squad, people):
    squad.log("accomplished", 6, eliminated="D")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [4]})
    result = squad.campaign.events.get(kind="result.submitted")
    corrected = {
        "scenario": 0,
        "data": {"outcome": "lost", "turns_used": 10, "eliminated": [squad.sid("D")]},
    }
    squad.by("proposal.made", {"action": "correct", "target": str(result.uid), "data": corrected})
    # Nobody else must agree in a solitaire campaign: applied at once; the XP die 4 now gets −1 (lost)
    assert squad.game["missions"][0]["log"]["outcome"] == "lost"
    assert squad.game["squad"]["xp"] == 3
    assert (
        squad.game["rolls"][-1]["text"]
        == "Experience roll: dr 4 − 1 (mission lost) = 3 → +3 XP; the squad's XP 0 → 3"
    )
