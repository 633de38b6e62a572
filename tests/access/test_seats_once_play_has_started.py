"""Seats once play has started, against seat hopping.

The attack: the organizer who plays red takes herself off red, names herself referee, reads
blue's secrets and rejoins red. Once a campaign has started, someone who has played a side
can never referee it, and seating a new referee or someone who has seen another side's
secrets is a "seat" proposal that needs the other side's agreement, or the sitting referee's.
"""

import pytest

from campaigns.access import visibility
from campaigns.errors import DomainError, Forbidden
from campaigns.models import Event
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state


def _state(campaign):
    campaign.refresh_from_db()
    return current_state(campaign)


def _referee_taken_off(campaign, people):
    """Olga plays (or played) red: taking the referee off is her proposal, which rita agrees to."""
    made = svc.assign_referee(campaign, people["olga"], username=None)
    assert svc.is_proposal(made)
    submit(campaign, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert _state(campaign)["referee"] is None


def test_someone_who_played_a_side_can_never_referee(skirmish, people):
    olga = people["olga"]
    svc.remove_player(skirmish, olga, side="red", username="olga")  # leaving a side is plain
    _referee_taken_off(skirmish, people)
    with pytest.raises(DomainError) as error:
        svc.assign_referee(skirmish, olga, username="olga")
    assert "can never referee" in error.value.message
    with pytest.raises(DomainError) as error:  # not even by proposal
        submit(
            skirmish,
            olga,
            "proposal.made",
            {"action": "seat", "data": {"kind": "referee.assigned", "data": {"username": "olga"}}},
        )
    assert error.value.field == "data.username"
    with pytest.raises(DomainError):  # nor by the event itself
        submit(skirmish, olga, "referee.assigned", {"username": "olga"})
    assert _state(skirmish)["referee"] is None
    assert not visibility.viewer_for(olga, skirmish).can_read("side", "blue")
    # the only proposal: taking the referee off, which rita agreed to
    assert Event.objects.filter(kind="proposal.made").count() == 1


def test_before_the_start_the_organizer_seats_people_freely(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Setup"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.remove_player(campaign, olga, side="red", username="olga")
    svc.assign_referee(campaign, olga, username="olga")
    svc.assign_referee(campaign, olga, username=None)
    svc.assign_player(campaign, olga, side="blue", username="olga")
    assert _state(campaign)["sides"]["blue"]["players"] == ["olga"]
    assert not campaign.events.filter(kind="proposal.made").exists()


def test_a_new_referee_in_play_is_a_proposal_the_other_side_agrees_to(skirmish, people):
    olga, bob = people["olga"], people["bob"]
    made = svc.assign_referee(skirmish, olga, username="carol")
    assert svc.is_proposal(made) and made.events[0].data["action"] == "seat"
    assert _state(skirmish)["referee"] == "rita"
    proposal = _state(skirmish)["proposals"][str(made.events[0].seq)]
    assert proposal["needs"] == ["blue"]  # olga plays red: blue must agree (or rita)
    with pytest.raises(DomainError):  # red's own agreement is not needed
        submit(
            skirmish, people["alice"], "proposal.approved", {"proposal": str(made.events[0].uid)}
        )
    submit(skirmish, bob, "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert _state(skirmish)["referee"] == "carol"
    assert visibility.viewer_for(people["carol"], skirmish).referee


def test_the_sitting_referees_agreement_also_does(skirmish, people):
    made = svc.assign_referee(skirmish, people["olga"], username="carol")
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert _state(skirmish)["referee"] == "carol"


def test_moving_a_player_to_the_other_side_needs_that_sides_agreement(skirmish, people):
    olga = people["olga"]
    svc.remove_player(skirmish, olga, side="red", username="alice")
    with pytest.raises(DomainError) as error:  # directly: refused
        submit(skirmish, olga, "player.assigned", {"side": "blue", "username": "alice"})
    assert "another side's secrets" in error.value.message
    made = svc.assign_player(skirmish, olga, side="blue", username="alice")
    assert svc.is_proposal(made)
    assert "alice" not in _state(skirmish)["sides"]["blue"]["players"]
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert _state(skirmish)["sides"]["blue"]["players"] == ["bob", "alice"]


def test_a_newcomer_on_the_other_side_needs_that_sides_agreement(skirmish, people):
    """A fresh account seated on blue by red's organizer would be red's puppet there."""
    olga = people["olga"]
    made = svc.assign_player(skirmish, olga, side="blue", username="carol")
    assert svc.is_proposal(made)
    assert _state(skirmish)["proposals"][str(made.events[0].seq)]["needs"] == ["blue"]
    assert "carol" not in _state(skirmish)["sides"]["blue"]["players"]


def test_a_returning_player_of_the_organizers_own_side_is_seated_directly(skirmish, people):
    olga = people["olga"]
    svc.remove_player(skirmish, olga, side="red", username="alice")
    assert not svc.is_proposal(svc.assign_player(skirmish, olga, side="red", username="alice"))
    assert _state(skirmish)["sides"]["red"]["players"] == ["olga", "alice"]


def test_a_former_referee_taking_a_side_needs_agreement(skirmish, people):
    olga = people["olga"]
    _referee_taken_off(skirmish, people)
    made = svc.replace_player(skirmish, olga, side="blue", old="bob", new="rita")
    assert svc.is_proposal(made)
    assert _state(skirmish)["sides"]["blue"]["players"] == ["bob"]


def test_only_an_organizer_proposes_a_seat(skirmish, people):
    with pytest.raises(Forbidden):
        submit(
            skirmish,
            people["alice"],
            "proposal.made",
            {"action": "seat", "data": {"kind": "referee.assigned", "data": {"username": "carol"}}},
        )


def test_the_setup_page_says_a_new_referee_was_proposed(skirmish, people):
    from django.test import Client

    client = Client()
    client.force_login(people["olga"])
    answer = client.post(
        f"/campaigns/{skirmish.pk}/setup/referee/", {"username": "carol"}, follow=True
    )
    assert (
        answer.status_code == 200
        and "Proposed: it applies once Blue agrees (or the referee)." in answer.content.decode()
    )
    assert _state(skirmish)["referee"] == "rita"
    svc.remove_player(skirmish, people["olga"], side="red", username="alice")
    refused = client.post(f"/campaigns/{skirmish.pk}/setup/referee/", {"username": "alice"})
    assert refused.status_code == 400 and "can never referee" in refused.content.decode()
    assert _state(skirmish)["referee"] == "rita"
