"""Rule 6 at the end-mission briefing (RA-9, journal v3), in the rulebook's sequence: the mission
ends (7), "at the end of the Mission this temporary leadership is dropped if the unit cannot be
designated as Leader" (6), then the End Mission Briefing (8.3) and its experience (8.4), whose
XP buy skills: Battlefield control is "(Leader Only)" (8.4.1), and the soldier who led only until
the end of the mission is not the Leader there.

The rulebook's situation (as test_leader_rule.py): 2.2's example squad (only the SMG may lead,
RA-7) loses its Leader, Sgt. Braun (SMG, A), in a lost Mission 1; the LMG, Pvt. Kurz (J), takes
command for the rest of it. When the mission is logged Kurz gives the command up (his own
designation, Gunner, comes back; Braun had handed over his): the squad has no Leader until one is
named before the next mission, after the casualty rolls (RA-9), so nobody may take Battlefield
control in this briefing. Journals of v2 keep their reading: the temporary Leader held the role
until the casualty rolls, and could buy it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from campaigns import versions
from campaigns.services import journal_files
from campaigns.services.state import current_state
from campaigns.systems.rifles_ardennes.missions import log_sentence
from campaigns.systems.rifles_ardennes.procedure import steps

from .harness import Squad
from .test_forms import SYSTEM, view_of
from .test_leader_rule import muster_of
from .test_pages import visible
from .test_squad_rules import refused

CORPUS = Path(__file__).resolve().parents[1] / "journals"
BC = "battlefield_control"
KURZ_LED = (
    "Pvt. Kurz (J) led only until the end of the mission: a LMG may not be designated Leader (6), "
    "and the briefing comes after the mission (7, 8.3)."
)


@pytest.fixture
def squad(club, people):
    s = Squad(club, people)
    s.create()
    s.plan(0, "Mission 01", 10)
    s.plan(1, "Mission 02", 10)
    return s


def _buy(squad: Squad, letter: str, skill: str = BC) -> dict:
    return {"soldiers": [{"soldier": squad.sid(letter), "skill": skill}]}


def _skill_field(squad: Squad):
    (rows,) = SYSTEM.form_fields(view_of(squad), "squad", "rifles.spend_xp", {})
    return next(f for f in rows.item.fields if f.name == "skill")


def _leaders(squad: Squad) -> list[str]:
    return [s["letter"] for s in squad.game["squad"]["soldiers"] if s["designation"] == "Leader"]


def test_mission_end_then_the_briefing_then_skills(squad):
    # 7: Mission 1 is lost; Braun was eliminated and Kurz took command (6).
    squad.log("lost", 10, eliminated="A", new_leader="J")
    # 6: at the end of the Mission Kurz's temporary leadership is dropped, before the briefing.
    note = "Pvt. Kurz (J) gives up the command at the end of the mission: a LMG may not be the Leader (6)."
    assert squad.game["phase"] == "briefing" and squad.game["briefing"]["leader_note"] == note
    assert _leaders(squad) == [] and squad.game["squad"]["temporary_leader"] is None
    assert squad.soldier("J")["designation"] == "Gunner"  # his own designation comes back
    assert squad.soldier("A")["designation"] == "Gunner"  # Braun handed his over to Kurz
    assert log_sentence(squad.state, 0).endswith(f"Pvt. Kurz (J) took command (6). {note}")
    leader = next(s for s in steps(squad.state) if s.id == "leader")
    assert leader.status == "waiting" and leader.detail == note
    # 8.3, 8.4: the experience roll (3 − 1 for the lost mission = 2 XP), then skills.
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    error = refused(
        squad,
        "rifles.spend_xp",
        _buy(squad, "J"),
        re.escape(f"Battlefield control is for the Leader only (8.4.1); {KURZ_LED}"),
        "soldiers[0].skill",
    )
    assert error.message == f"Battlefield control is for the Leader only (8.4.1); {KURZ_LED}"
    refused(
        squad,
        "rifles.spend_xp",
        _buy(squad, "B"),
        re.escape(
            "Battlefield control is for the Leader only (8.4.1); Cpl. Vogel (B) is not the Leader, "
            "and the squad has none until one is named before the next mission, after the casualty "
            "rolls (6)."
        ),
        "soldiers[0].skill",
    )
    squad.by("rifles.spend_xp", _buy(squad, "J", "bull_strength"))  # any other skill is his
    assert squad.soldier("J")["skill_names"] == ["Bull Strength"] and squad.game["squad"]["xp"] == 0
    # 8.3's casualty roll (6 − 1 = 5: Braun wounded), 8.2 (a 2: nothing), then a Leader (RA-9):
    # nobody available may lead, so Vogel, until the end of Mission 2.
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    assert squad.game["briefing"]["leader_note"] == note  # said once, at the mission's end
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [2]})
    squad.by("rifles.leader", {"soldier": squad.sid("B")})
    squad.by("rifles.next_mission")
    assert _leaders(squad) == ["B"]
    # Mission 2: Lang eliminated; at its end Vogel gives up the command, before the briefing, where
    # Braun recovers (8.3) but is not the Leader until he is named again.
    squad.log("accomplished", 7, eliminated="G")
    assert _leaders(squad) == [] and squad.soldier("B")["designation"] == "Assistant Leader"
    assert squad.game["briefing"]["leader_note"] == (
        "Cpl. Vogel (B) gives up the command at the end of the mission: a Rifle may not be the "
        "Leader (6)."
    )
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [4]})
    refused(
        squad,
        "rifles.spend_xp",
        _buy(squad, "B"),
        re.escape("Cpl. Vogel (B) led only until the end of the mission: a Rifle may not be"),
    )
    refused(
        squad,
        "rifles.spend_xp",
        _buy(squad, "A"),
        re.escape("Sgt. Braun (A) is not the Leader, and the squad has none until one is named"),
    )
    squad.by("rifles.casualties", dice={f"mission2/8.3/{squad.sid('G')}": [6]})
    squad.by("rifles.leader", {"soldier": squad.sid("A")})
    assert _leaders(squad) == ["A"] and squad.game["squad"]["temporary_leader"] is None
    squad.by("rifles.next_mission")
    # Mission 3: Braun leads; Battlefield control is his to buy at its briefing.
    squad.plan(2, "Mission 03", 10)
    squad.log("accomplished", 5)
    squad.by("rifles.xp", dice={"mission3/8.4/xp": [1]})  # at least one XP: 2 + 1 = 3
    assert _skill_field(squad).disabled == ()
    squad.by("rifles.spend_xp", _buy(squad, "A"))
    assert squad.soldier("A")["skill_names"] == ["Battlefield control"]


def test_the_page_greys_battlefield_control_and_says_why(squad, client_for):
    squad.log("lost", 10, eliminated="A", new_leader="J")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    skill = _skill_field(squad)
    assert (BC, "Battlefield control (Leader only)") in skill.labels
    assert skill.disabled == (
        (BC, "no Leader now: Pvt. Kurz (J) led only until the end of the mission (6)"),
    )
    alice = client_for("alice")
    url = f"/campaigns/{squad.campaign.pk}/"
    html = alice.get(url).content.decode()
    drawn = re.findall(r'<option value="battlefield_control"[^>]*>[^<]*</option>', html)
    assert drawn and all(" disabled" in option for option in drawn)
    assert (
        "Battlefield control (Leader only) — no Leader now: Pvt. Kurz (J) led only until the end of "
        "the mission (6)" in (visible(html))
    )
    # Sent all the same (an old page, a hand-made post): refused on the skill's input, nothing written.
    before = squad.campaign.events.count()
    rows = SYSTEM.form_fields(view_of(squad), "squad", "rifles.spend_xp", {})[0].rows
    post = {"_kind": "rifles.spend_xp", "_side": "squad"}
    for index, row in enumerate(rows):  # every row as the page draws it: its soldier, no skill
        post |= {f"soldiers-{index}-soldier": row["soldier"], f"soldiers-{index}-skill": ""}
        if row["soldier"] == squad.sid("J"):
            post[f"soldiers-{index}-skill"] = BC
    answer = alice.post(f"{url}submit/", post)
    assert answer.status_code == 400
    assert f"Battlefield control is for the Leader only (8.4.1); {KURZ_LED}" in visible(
        answer.content.decode()
    )
    assert squad.campaign.events.count() == before


# --- journals of v2 keep their reading --------------------------------------------------------------


def test_a_v2_journal_where_temporary_leaders_bought_battlefield_control_still_replays(db):
    """The corpus's v2 journal (tests/corpus.py, rifles_leader_v2): Kurz, Leader until the casualty
    rolls under v2, bought Battlefield control in Mission 1's briefing, Vogel in Mission 2's."""
    document = json.loads((CORPUS / "v2-core-v2" / "rifles-leader-v2.json").read_text())
    assert document["journals"] == {"core": 2, "rifles_ardennes": 2}
    replayed = journal_files.replay_journal(document, create_club=True, create_people=True)
    assert [r.text() for r in replayed.upgraded.ran if r.journal == "rifles_ardennes"] == [
        "v2→v3: a temporary Leader who may not lead gives up the command at the end of the mission, "
        "before the end-mission briefing, and may not take the Leader's skill Battlefield control "
        "there (6, 7, 8.4.1) (earlier events keep the rules they were written under)"
    ]
    campaign = replayed.campaign
    assert campaign.journal_versions == {"core": versions.CORE_VERSION, "rifles_ardennes": 3}
    state = current_state(campaign)
    soldiers = {s["letter"]: s for s in state["game"]["public"]["squad"]["soldiers"]}
    assert soldiers["J"]["skill_names"] == soldiers["B"]["skill_names"] == ["Battlefield control"]
    assert soldiers["J"]["designation"] == "Gunner"
    assert soldiers["B"]["designation"] == "Assistant Leader"
    assert soldiers["A"]["designation"] == "Leader"
    # It plays on under today's rules: Mission 3, its briefing, the campaign's end.
    squad = Squad.__new__(Squad)
    squad.campaign, squad.people = (
        campaign,
        {"alice": get_user_model().objects.get(username="alice")},
    )
    squad.plan(2, "Mission 03", 10)
    squad.log("accomplished", 6)
    squad.by("rifles.xp", dice={"mission3/8.4/xp": [2]})
    squad.by("rifles.next_mission")
    assert squad.state["status"] == "finished"


def test_a_v2_campaign_stopped_in_the_briefing_keeps_its_leader_but_not_the_skill(club, people):
    with muster_of(2):
        squad = Squad(club, people)
        squad.create()
        squad.plan(0, "Mission 01", 10)
        squad.plan(1, "Mission 02", 10)
        squad.log("lost", 10, eliminated="A", new_leader="J")
        squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
        assert squad.campaign.journal_versions["rifles_ardennes"] == 2
        assert _leaders(squad) == ["J"]  # v2: the Leader until the casualty rolls
    # Read by today's Muster: the mission logged under v2 keeps Kurz in command until the rolls,
    # but what is written now follows v3: his command ended with the mission.
    assert _leaders(squad) == ["J"]
    assert squad.campaign.journal_versions["rifles_ardennes"] == 3
    refused(
        squad,
        "rifles.spend_xp",
        _buy(squad, "J"),
        re.escape(f"Battlefield control is for the Leader only (8.4.1); {KURZ_LED}"),
        "soldiers[0].skill",
    )
    assert _skill_field(squad).disabled == (
        (BC, "Pvt. Kurz (J) led only until the end of the mission (6)"),
    )
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    assert _leaders(squad) == [] and squad.game["briefing"]["leader_note"] == (
        "Pvt. Kurz (J) gives up the command: a LMG may not be the Leader (6)."
    )
