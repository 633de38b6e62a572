"""Rifles in the Ardennes' corpus player (tests/journals/README.md): the campaigns its corpus
journals play, through the game's own harness, and the side values kept beside each journal.
`corpus` is the corpus's shared player (tests/journals/players.py); the same players run on the
working tree (TODAY) and in a worktree of an earlier commit (make_corpus.py --again)."""

from __future__ import annotations

TODAY = (  # a new corpus directory's journals
    "rifles-acceptance",
    "rifles-mid-briefing",
    "rifles-leader",
)
IN_PLAY = ("rifles-mid-briefing",)  # stopped mid-procedure (tests/ops: after an upgrade)
EARLIER_TESTS = "tests.rifles_ardennes"  # where its tests were before they moved to its folder


def _tests(corpus, module):
    return corpus.tests_of("rifles_ardennes", module, EARLIER_TESTS)


def rifles_acceptance(corpus):
    """The three-mission acceptance journal of the commit (dice entered; the campaign is over)."""
    Squad = _tests(corpus, "harness").Squad
    _play = _tests(corpus, "test_campaign_journal")._play

    club, named = corpus.people()
    squad = Squad(club, named, name="Kampfgruppe Braun")
    _play(squad)
    return squad.campaign


def rifles_mid_briefing(corpus):
    """Five missions, server dice: the first mission and its briefing, the second logged and its
    experience rolled; stopped before the casualty rolls."""
    Squad = _tests(corpus, "harness").Squad

    club, named = corpus.people()
    dice = corpus.core_module("campaigns.dice.expressions", "campaigns.dice")
    dice.secrets = corpus.SeededDice(5)
    squad = Squad(club, named, variant="five", dice_mode="server", name="Easy Company")
    squad.create()
    squad.plan(0, "Into the woods", 10)
    squad.log("accomplished", 7, eliminated="D")
    squad.by("rifles.xp")
    squad.by("rifles.casualties")
    if squad.game["briefing"]["reinforcement"] is None:
        squad.by("rifles.reinforce")
    squad.by("rifles.next_mission")
    squad.plan(1, "The crossroads", 12)
    squad.log("lost", 12, eliminated="AH", new_leader="B")
    squad.by("rifles.xp")
    return squad.campaign


def rifles_leader_v1(corpus):
    """Rule 6 as journal v1 read it (RA-9 before d3ae14d): 2.2's squad loses its Leader (SMG, A) in
    a lost Mission 1, the LMG (J) takes command; Braun's casualty roll wounds him (6 − 1 = 5), the
    LMG's temporary command is dropped, and a Rifle (B) is named Leader at once, before
    reinforcements (refused from v2 on), and keeps the role; then 8.2, Mission 2 (nobody eliminated)
    and its experience roll. Dice entered."""
    Squad = _tests(corpus, "harness").Squad

    club, named = corpus.people()
    squad = Squad(club, named, name="Kampfgruppe Vogel")
    squad.create()
    squad.plan(0, "Mission 01", 10)
    squad.plan(1, "Mission 02", 10)
    squad.log("lost", 10, eliminated="A", new_leader="J")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    squad.by("rifles.leader", {"soldier": squad.sid("B")})
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [4]})
    squad.by("rifles.next_mission")
    squad.log("accomplished", 7)
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [2]})
    return squad.campaign


def rifles_leader_v2(corpus):
    """Rule 6 as journal v2 read it (RA-9 before the temporary Leader stepped down at the mission's
    end): 2.2's squad loses its Leader (SMG, A) in a lost Mission 1, the LMG (J) takes command and,
    still the Leader at the briefing, buys Battlefield control (Leader only, 8.4.1; refused from v3
    on); Braun's casualty roll wounds him (6 − 1 = 5) and the LMG gives up the command; no
    reinforcements (8.2: a 2), so a Rifle (B) is named Leader until the end of Mission 2; in it Lang
    (G) is eliminated, and Vogel, still the Leader at the briefing, buys Battlefield control too;
    after Lang's roll (lightly wounded) he gives up the command and Braun, recovered, is named Leader.
    Stopped with Mission 3 to play. Dice entered."""
    Squad = _tests(corpus, "harness").Squad

    club, named = corpus.people()
    squad = Squad(club, named, name="Kampfgruppe Adler")
    squad.create()
    squad.plan(0, "Mission 01", 10)
    squad.plan(1, "Mission 02", 10)
    squad.log("lost", 10, eliminated="A", new_leader="J")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    squad.by(
        "rifles.spend_xp",
        {"soldiers": [{"soldier": squad.sid("J"), "skill": "battlefield_control"}]},
    )
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [2]})
    squad.by("rifles.leader", {"soldier": squad.sid("B")})
    squad.by("rifles.next_mission")
    squad.log("accomplished", 7, eliminated="G")
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [4]})
    squad.by(
        "rifles.spend_xp",
        {"soldiers": [{"soldier": squad.sid("B"), "skill": "battlefield_control"}]},
    )
    squad.by("rifles.casualties", dice={f"mission2/8.3/{squad.sid('G')}": [6]})
    squad.by("rifles.leader", {"soldier": squad.sid("A")})
    squad.by("rifles.next_mission")
    return squad.campaign


def rifles_leader(corpus):
    """Rule 6 as journal v3 reads it (RA-9): 2.2's squad loses its Leader (SMG, A) in a lost Mission
    1, the LMG (J) takes command and gives it up as the mission is logged, before the briefing, where
    nobody may take Battlefield control: Kurz buys Bull Strength; Braun's casualty roll wounds him
    (6 − 1 = 5); no reinforcements (8.2: a 2), so a Rifle (B) is named Leader until the end of Mission
    2, in which Lang (G) is eliminated: Vogel gives up the command as it is logged; Lang is made a
    Veteran, then only lightly wounded (6); Braun, recovered, is named Leader, and at Mission 3's
    briefing buys Battlefield control; the campaign closes. Dice entered."""
    Squad = _tests(corpus, "harness").Squad

    club, named = corpus.people()
    squad = Squad(club, named, name="Kampfgruppe Kurz")
    squad.create()
    squad.plan(0, "Mission 01", 10)
    squad.plan(1, "Mission 02", 10)
    squad.plan(2, "Mission 03", 10)
    squad.log("lost", 10, eliminated="A", new_leader="J")
    squad.by("rifles.xp", dice={"mission1/8.4/xp": [3]})
    squad.by(
        "rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("J"), "skill": "bull_strength"}]}
    )
    squad.by("rifles.casualties", dice={f"mission1/8.3/{squad.sid('A')}": [6]})
    squad.by("rifles.reinforce", dice={"mission1/8.2/roll": [2]})
    squad.by("rifles.leader", {"soldier": squad.sid("B")})
    squad.by("rifles.next_mission")
    squad.log("accomplished", 7, eliminated="G")
    squad.by("rifles.xp", dice={"mission2/8.4/xp": [4]})
    squad.by("rifles.spend_xp", {"soldiers": [{"soldier": squad.sid("G"), "veteran": True}]})
    squad.by("rifles.casualties", dice={f"mission2/8.3/{squad.sid('G')}": [6]})
    squad.by("rifles.leader", {"soldier": squad.sid("A")})
    squad.by("rifles.next_mission")
    squad.log("accomplished", 5)
    squad.by("rifles.xp", dice={"mission3/8.4/xp": [1]})
    squad.by(
        "rifles.spend_xp",
        {"soldiers": [{"soldier": squad.sid("A"), "skill": "battlefield_control"}]},
    )
    squad.by("rifles.next_mission")
    return squad.campaign


def players(corpus):
    return {
        "rifles-acceptance": lambda: rifles_acceptance(corpus),
        "rifles-mid-briefing": lambda: rifles_mid_briefing(corpus),
        "rifles-leader-v1": lambda: rifles_leader_v1(corpus),
        "rifles-leader-v2": lambda: rifles_leader_v2(corpus),
        "rifles-leader": lambda: rifles_leader(corpus),
    }


def side_values(state: dict) -> dict:
    """The squad's XP, the phase and each mission's outcome."""
    pub = state["game"]["public"]
    squad = pub["squad"]
    return {
        "xp": squad.get("xp"),
        "xp_earned": squad.get("xp_earned"),
        "phase": pub.get("phase"),
        "missions": [(m.get("log") or {}).get("outcome") for m in pub["missions"]],
    }
