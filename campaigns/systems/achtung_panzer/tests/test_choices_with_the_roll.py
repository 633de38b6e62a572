"""1.6112 and 1.6113 with the choice given with the DR (journal v6, R-A26): the DR settles it in
one submission; left open, the choice is asked after the DR as before; v5 journals fold as played."""

from __future__ import annotations

import pytest

from campaigns.systems.achtung_panzer import common
from campaigns.systems.achtung_panzer.steps import hardening
from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War, refused

BOTH = {"allied": QUIET, "german": QUIET}


def at(club, people, step):
    """Entered dice: threes for every DR, sixes for the leader's (campaign_harness.default_faces)."""
    war = War(club, people)
    war.walk_both(answers=BOTH)
    war.result({"allied_objectives_end": "hill_520"})  # an Allied win: −3 (1.6112), −2 (1.6113)
    war.walk_both(until=step, answers=BOTH)
    assert war.current("allied").id == step
    return war


@pytest.mark.django_db
def test_the_mmc_named_with_the_dr_harden_in_their_order(club, people):
    war = at(club, people, "1.6112")
    squads = [u for u in war.side("allied")["retained"] if u["kind"] == "squad"][:3]
    order = [
        {"unit": squads[0]["id"], "becomes": "468"},
        {"unit": squads[1]["id"], "becomes": "468"},
        {"unit": squads[2]["id"], "becomes": "468", "priority": 1},
    ]
    war.by("allied", "ap.1.6112", {"action": "roll", "hardened": order})
    # DR 6 − 3 (won) = 3: two MMC (TH1.6112 "2-3"); the one put first, then the first listed.
    units = {u["id"]: u for u in war.side("allied")["retained"]}
    assert [units[s["id"]]["type"] for s in squads] == ["468", squads[1]["type"], "468"]
    assert "1.6112" not in war.side("allied").get("pending", {})
    assert war.current("allied").id != "1.6112"


@pytest.mark.django_db
def test_an_mmc_named_with_the_dr_is_checked_before_it(club, people):
    war = at(club, people, "1.6112")
    leader = next(u for u in war.side("allied")["retained"] if u["kind"] == "leader")
    error = refused(
        war.by,
        "allied",
        "ap.1.6112",
        {"action": "roll", "hardened": [{"unit": leader["id"], "becomes": "9-2"}]},
    )
    assert error.field == "hardened[0].unit" and "not a retained infantry MMC" in error.message
    assert not war.campaign.events.filter(kind="ap.1.6112").exists()


@pytest.mark.django_db
def test_the_leaders_result_given_with_the_dr_is_settled_with_it(club, people):
    war = at(club, people, "1.6113")
    mine = war.side("allied")["retained"]
    sevens = [u for u in mine if u["kind"] == "leader" and u["type"] == "7-0"]
    orders = [{"leader": u["id"], "becomes": "8-0"} for u in reversed(sevens)]
    war.by(
        "allied",
        "ap.1.6113",
        {"action": "roll", "nationality": "french", "win_drm": "full", "if_hardened": orders},
    )
    # DR 12 − 2 = 10: the French table names a 6+1; none retained, so the lowest grade, a 7-0: the
    # first 7-0 the player listed.
    after = {u["id"]: u["type"] for u in war.side("allied")["retained"]}
    assert after[sevens[-1]["id"]] == "8-0"
    assert all(after[u["id"]] == "7-0" for u in sevens[:-1])
    assert "1.6113" not in war.side("allied").get("pending", {})


@pytest.mark.django_db
def test_the_win_drm_left_for_after_the_dr_is_asked_after_it(club, people):
    war = at(club, people, "1.6113")
    leader = next(u for u in war.side("allied")["retained"] if u["kind"] == "leader")
    war.by(
        "allied",
        "ap.1.6113",
        {"action": "roll", "if_hardened": [{"leader": leader["id"], "becomes": "9-2"}]},
    )
    assert set(war.side("allied")["pending"]["1.6113"]["outcomes"]) == {
        "full",
        "reduced",
        "ignore",
    }


@pytest.mark.django_db
def test_journals_before_v6_roll_1_6112_with_the_steps_before_it(club, people):
    war = at(club, people, "1.6112")
    state = war.state
    assert hardening.auto(state, "allied") is None  # v6: the MMC may be named with the DR
    state["journals"]["achtung_panzer"] = 5
    assert not common.choices_before_roll(state)
    assert hardening.auto(state, "allied") == {"action": "roll"}  # v5: rolled by "Continue"
