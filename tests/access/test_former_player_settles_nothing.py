"""An organizer who has played a side is no neutral party. Leaving her
side must not make her the one who settles the campaign's disputes (the referee's power), as
someone who played a side may never referee (campaigns.journal.core_events)."""

from __future__ import annotations

import pytest

from campaigns.access import visibility
from campaigns.errors import Forbidden
from campaigns.selectors.todos import actions_for
from campaigns.services import campaigns as svc, clubs
from campaigns.services.journal import submit
from campaigns.services.state import current_state


def _disputed(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="No judge"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    for who in ("alice", "bob"):
        submit(campaign, people[who], "skirmish.supply")
    submit(campaign, people["alice"], "sealed.submitted", {"key": "stance:0", "choice": "attack"})
    submit(campaign, people["bob"], "sealed.submitted", {"key": "stance:0", "choice": "hold"})
    submit(
        campaign,
        people["alice"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 3, "blue": 1}},
    )
    submit(campaign, people["bob"], "result.disputed", {"scenario": 0, "reason": "It was 1-3"})
    return campaign


def test_an_organizer_who_left_her_side_does_not_settle_its_dispute(club, people):
    olga = people["olga"]
    campaign = _disputed(club, people)
    svc.remove_player(campaign, olga, side="red", username="olga")  # her own side: direct
    with pytest.raises(Forbidden):
        submit(campaign, olga, "result.resolved", {"scenario": 0, "data": {"red": 3, "blue": 0}})
    campaign.refresh_from_db()
    assert current_state(campaign)["scenarios"][0]["status"] == "disputed"


def test_she_is_not_offered_to_settle_it_either(club, people):
    olga = people["olga"]
    campaign = _disputed(club, people)
    svc.remove_player(campaign, olga, side="red", username="olga")
    campaign.refresh_from_db()
    state = current_state(campaign)
    viewer = visibility.viewer_for(olga, campaign)
    assert viewer.organizer and viewer.playing is None
    assert "result.resolved" not in [todo.kind for todo in actions_for(state, viewer)]


def test_a_neutral_organizer_still_settles_where_there_is_no_referee(club, people):
    olga, carol = people["olga"], people["carol"]
    clubs.set_role(club=club, user=olga, member_username="carol", role="organizer")
    campaign = _disputed(club, people)
    submit(campaign, carol, "result.resolved", {"scenario": 0, "data": {"red": 1, "blue": 3}})
    campaign.refresh_from_db()
    assert current_state(campaign)["scenarios"][0]["status"] == "played"


def test_an_organizer_made_in_play_by_a_player_does_not_settle(club, people):
    """Olga plays red and makes a fresh account organizer once play has started: a judge of her
    own choosing is her puppet. Settling is for organizers who were organizers at the start (a new
    judge is a referee, whom the sides agree to)."""
    from django.contrib.auth import get_user_model

    campaign = _disputed(club, people)
    code = clubs.invite(club=club, user=people["olga"], role="organizer").code
    puppet = clubs.signup_with_invitation(
        code=code, username="judge", password="a long pass phrase 77"
    )
    puppet = get_user_model().objects.get(pk=puppet.pk)
    with pytest.raises(Forbidden):
        submit(campaign, puppet, "result.resolved", {"scenario": 0, "data": {"red": 3, "blue": 0}})
    clubs.set_role(club=club, user=people["olga"], member_username="carol", role="organizer")
    with pytest.raises(Forbidden):
        submit(
            campaign,
            people["carol"],
            "result.resolved",
            {"scenario": 0, "data": {"red": 3, "blue": 0}},
        )
    campaign.refresh_from_db()
    state = current_state(campaign)
    assert state["scenarios"][0]["status"] == "disputed"
