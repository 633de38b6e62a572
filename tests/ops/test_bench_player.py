"""The benchmark's A!P! player (benchmarks/apcg.py) keeps up with the Refit Phase.

`make bench` is not part of the suite, so a new step the player has no answer for would only
show when somebody benchmarks (it did: the losses step, 1.6066.losses). Two half-days here
cover every step of a Refit Phase the large club's 13 go through.
"""

import pytest

from benchmarks import apcg
from campaigns.services.state import current_state


@pytest.mark.django_db
def test_the_benchmark_player_carries_cg3_through_two_half_days(club, people):
    game = apcg.play(
        club,
        people["olga"],
        {"allied": people["olga"], "german": people["bob"]},
        people["rita"],
        half_days=2,
    )
    state = current_state(game.campaign)
    played = [s for s in state["scenarios"] if s["status"] == "played"]
    assert [s["label"] for s in played] == [
        "5/29A",
        "5/29P",
    ]  # the Initial Scenario is the first half-day
    assert state["game"]["public"]["phase"] != "refit"  # the last Refit Phase ran to its end
    bought = [p for p in state["game"]["sides"]["allied"]["purchases"] if not p.get("given")]
    assert bought, "the Allies' purchases were made"
