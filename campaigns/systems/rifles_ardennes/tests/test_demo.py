"""The demo club holds a Rifles in the Ardennes campaign after two missions (load_demo)."""

import pytest

from campaigns.models import Campaign
from campaigns.services.demo import load_demo
from campaigns.services.state import current_state


@pytest.mark.parametrize("attempt", range(3))  # server dice: a different story each time
def test_the_demo_club_holds_a_squad_after_two_missions(db, attempt):
    demo = load_demo()
    assert not [f for f in demo.failed if f.startswith("Rifles in the Ardennes")], demo.failed
    club = demo.club
    campaign = Campaign.objects.get(club=club, system="rifles_ardennes")
    state = current_state(campaign)
    game = state["game"]["public"]
    assert state["status"] == "active" and game["phase"] == "mission"
    assert [m["log"] is not None for m in game["missions"]] == [True, True, False, False, False]
    assert state["current"] == 2 and game["missions"][2]["name"] == "Mission 03"
    assert state["sides"]["squad"]["players"] == ["demo-alice"]
    leader = [
        s
        for s in game["squad"]["soldiers"]
        if s["designation"] == "Leader" and s["status"] == "active"
    ]
    assert len(leader) == 1
    assert game["squad"]["xp_earned"] >= 2  # at least one XP after each mission (8.4)
    load_demo()  # again: nothing is duplicated
    assert Campaign.objects.filter(club=club, system="rifles_ardennes").count() == 1
