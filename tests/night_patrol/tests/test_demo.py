"""Night Patrol's demo is found through the game (its `demo` hook, called by the demo command
for every game of the registry) and plays at the demo table like anybody."""

from campaigns.services.demo import DemoTable
from campaigns.services.state import current_state
from campaigns.systems import all_systems


def test_the_demo_campaign_is_in_its_first_night(club, people):
    system = all_systems()["night_patrol"]
    users = {
        "organizer": people["olga"],
        "alice": people["alice"],
        "bob": people["bob"],
        "referee": people["rita"],
    }
    campaign = system.demo(DemoTable(club, users, system))
    state = current_state(campaign)
    assert campaign.name == "Night patrol (demo)" and state["status"] == "active"
    assert len(state["game"]["public"]["ground"]) == 1 and state["current"] == 0
