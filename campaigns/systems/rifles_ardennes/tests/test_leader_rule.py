"""Rule 6 at the end of a mission (RA-9, journal v2): "Any unit can be selected at this stage but at
the end of the Mission this temporary leadership is dropped if the unit cannot be designated as
Leader in the Army Sheet."

The rulebook's situation: 2.2's example squad (only the SMG may lead, RA-7) loses its Leader,
Sgt. Braun (SMG, A), in Mission 1; the LMG, Pvt. Kurz (J), takes command. Braun's casualty roll
wounds him (6 − 1 for the lost mission = 5, RA-3), so he sits Mission 2 out, and Kurz gives up the
command: nobody available may lead. A soldier who may not lead is named Leader only once
reinforcements from HQ (8.2), which may bring one who may, are settled, and only until the end of
the next mission. Journals written before (v1) keep the rule of their day: any soldier right after
the casualty rolls, for good."""

from __future__ import annotations

import contextlib

import pytest
from django.contrib.auth import get_user_model

from campaigns import versions
from campaigns.models import Campaign, Club
from campaigns.services import journal_files
from campaigns.services.state import current_state
from campaigns.systems.rifles_ardennes.procedure import actions, steps
from campaigns.systems.rifles_ardennes.system import RiflesArdennes

from .harness import Squad
from .test_squad_rules import refused


@pytest.fixture
def squad(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    s.plan(1, "Mission 02", 10)
    return s


def _leader_wounded(squad: Squad) -> None:
    squad.log("lost", 10, eliminated="A", new_leader="J")  # the LMG takes command (6)
    # Braun's roll: 6 − 1 for the lost mission = 5, wounded (RA-3): he sits Mission 2 out.
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    assert squad.soldier("A")["status"] == "wounded"
    assert squad.soldier("J")["designation"] != "Leader"  # the temporary leadership is dropped
    assert squad.squad_ap == 9  # 10 AP less Braun's SMG: reinforcements may be requested (8.2)


def _actions(squad: Squad) -> dict:
    return {a.kind: a for a in actions(squad.state, "squad")}


def _step(squad: Squad, step_id: str):
    return next(s for s in steps(squad.state) if s.id == step_id)


def test_one_who_may_not_lead_waits_for_reinforcements_then_leads_one_mission(squad):
    _leader_wounded(squad)
    # Before 8.2 is settled: refused with the reason, and not offered.
    error = refused(
        squad,
        "rifles.leader",
        {"soldier": squad.sid("B")},
        r"No available soldier may lead: request reinforcements from HQ first \(8\.2\)",
        "soldier",
    )
    assert "until the end of the next mission (6)" in error.message
    assert "rifles.leader" not in _actions(squad) and "rifles.reinforce" in _actions(squad)
    leader_step = _step(squad, "leader")
    assert (
        leader_step.status == "waiting"
        and "request reinforcements from HQ first" in leader_step.detail
    )
    assert [s.id for s in steps(squad.state)][-3:] == [
        "reinforce",
        "leader",
        "next",
    ]  # the Leader's after 8.2
    refused(squad, "rifles.next_mission", {}, r"Name the squad's Leader first \(6\)")
    squad.by(
        "rifles.reinforce", dice={"mission1/8.2/roll": [2]}
    )  # 1–2: no reinforcements available (RA-1)
    # 8.2 settled, still nobody available may lead: any soldier, until the end of Mission 2.
    offered = _actions(squad)["rifles.leader"]
    assert (
        "any soldier may be named, and he leads until the end of the next mission" in offered.help
    )
    done = squad.by("rifles.leader", {"soldier": squad.sid("B")})
    vogel = squad.soldier("B")
    assert (
        vogel["designation"] == "Leader" and squad.game["squad"]["temporary_leader"] == vogel["id"]
    )
    assert (
        "Vogel (B) is now the Leader until the end of the next mission"
        in squad.game["said"][str(done.events[0].uid)]
    )
    squad.by("rifles.next_mission")
    # Mission 2, nobody eliminated: at its end Vogel gives up the command (6), and Braun, recovered
    # at the briefing (8.3), may lead again: only he may be named.
    squad.log("accomplished", 7)
    assert squad.soldier("A")["status"] == "active"
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [2]})
    assert squad.soldier("B")["designation"] == "Assistant Leader"
    assert "Vogel (B) gives up the command" in squad.game["briefing"]["leader_note"]
    refused(squad, "rifles.next_mission", {}, r"Name the squad's Leader first \(6\)")
    refused(
        squad,
        "rifles.leader",
        {"soldier": squad.sid("B")},
        r"A Rifle may not be designated Leader \(6\); "
        r"these may: Sgt\. Braun \(A\)",
    )
    squad.by("rifles.leader", {"soldier": squad.sid("A")})
    assert (
        squad.soldier("A")["designation"] == "Leader"
        and squad.game["squad"]["temporary_leader"] is None
    )


def test_reinforcements_that_bring_one_who_may_lead_make_him_the_leader(squad):
    _leader_wounded(squad)
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [3]})  # one AP (RA-1)
    squad.by(
        "rifles.recruit",
        {
            "soldiers": [
                {"name": "Lt. Keller", "letter": "K", "unit": "smg", "designation": "Rifleman"}
            ]
        },
    )
    refused(
        squad,
        "rifles.leader",
        {"soldier": squad.sid("B")},
        r"A Rifle may not be designated Leader \(6\); "
        r"these may: Lt\. Keller \(K\)",
    )
    squad.by("rifles.leader", {"soldier": squad.sid("K")})
    assert (
        squad.soldier("K")["designation"] == "Leader"
        and squad.game["squad"]["temporary_leader"] is None
    )
    squad.by("rifles.next_mission")


def test_naming_one_who_may_not_lead_settles_reinforcements_and_the_ap_left_are_lost(squad):
    _leader_wounded(squad)
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [4]})  # one AP, not spent yet
    assert (
        "This settles reinforcements: the 1 AP left are lost (8.2)."
        in _actions(squad)["rifles.leader"].help
    )
    done = squad.by("rifles.leader", {"soldier": squad.sid("B")})
    assert "1 reinforcement AP left unspent (lost)" in squad.game["said"][str(done.events[0].uid)]
    assert "rifles.recruit" not in _actions(squad)
    refused(
        squad,
        "rifles.recruit",
        {
            "soldiers": [
                {"name": "Lt. Keller", "letter": "K", "unit": "smg", "designation": "Rifleman"}
            ]
        },
        r"Reinforcements are settled: Cpl\. Vogel \(B\) was named Leader though he may not lead",
    )
    closed = squad.by("rifles.next_mission")
    assert "left unspent" not in squad.game["said"].get(
        str(closed.events[0].uid), ""
    )  # said once, when settled


# --- journals of v1 keep their rule ----------------------------------------------------------------


@contextlib.contextmanager
def muster_of(version: int):
    """Muster of Rifles journal `version`: its upgrade steps up to it, none after."""
    saved = RiflesArdennes.journal_version, RiflesArdennes.journal_upgrades
    RiflesArdennes.journal_version = version
    RiflesArdennes.journal_upgrades = tuple(s for s in saved[1] if s.version < version)
    try:
        yield
    finally:
        RiflesArdennes.journal_version, RiflesArdennes.journal_upgrades = saved


def muster_of_v1():
    """Muster before this rule: Rifles journal v1, no upgrade step."""
    return muster_of(1)


def test_a_v1_campaign_that_named_one_who_may_not_lead_before_8_2_keeps_him_and_plays_on(
    club, people
):
    with muster_of_v1():
        squad = Squad(club, people)
        squad.create()
        squad.plan(0, "Mission 01", 10)
        squad.plan(1, "Mission 02", 10)
        _leader_wounded(squad)
        squad.by("rifles.leader", {"soldier": squad.sid("B")})  # v1: at once, before reinforcements
        assert squad.campaign.journal_versions == {
            "core": versions.CORE_VERSION,
            "rifles_ardennes": 1,
        }
        exported = journal_files.export_journal(squad.campaign)
    # Read by today's Muster: upgraded the "fold" way, the old naming keeps v1's rule.
    campaign = Campaign.objects.get(pk=squad.campaign.pk)
    state = current_state(campaign)
    campaign.refresh_from_db()
    assert campaign.journal_versions == {"core": versions.CORE_VERSION, "rifles_ardennes": 3}
    markers = campaign.events.filter(kind="journal.upgraded").order_by("seq")
    assert [(m.data["how"], m.data["from"], m.data["to"]) for m in markers] == [
        ("fold", 1, 2),
        ("fold", 2, 3),
    ]
    assert state["game"]["public"]["squad"]["temporary_leader"] is None
    assert squad.soldier("B")["designation"] == "Leader"
    # It plays on under today's rules: reinforcements, the next mission.
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [1]})
    squad.by("rifles.next_mission")
    assert squad.state["current"] == 1
    # The v1 file replayed today: the same, never refused for obeying the rules of its day.
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    replayed = journal_files.replay_journal(exported, create_club=True, create_people=True)
    assert [r.text() for r in replayed.upgraded.ran] == [
        "v1→v2: a soldier who may not lead is named Leader only once reinforcements from HQ are settled and still "
        "no available soldier may lead, and only until the end of the next mission (6, 8.2) (earlier events keep "
        "the rules they were written under)",
        "v2→v3: a temporary Leader who may not lead gives up the command at the end of the mission, before the "
        "end-mission briefing, and may not take the Leader's skill Battlefield control there (6, 7, 8.4.1) "
        "(earlier events keep the rules they were written under)",
    ]
    leaders = [
        s
        for s in current_state(replayed.campaign)["game"]["public"]["squad"]["soldiers"]
        if s["designation"] == "Leader"
    ]
    assert [s["letter"] for s in leaders] == ["B"]
