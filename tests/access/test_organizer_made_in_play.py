"""A neutral organizer takes a side's player off directly, but one
made organizer once play has started may be a side's puppet (the organizer who plays red invites
a fresh account as organizer): it takes nobody off another side alone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaigns.errors import Forbidden
from campaigns.services import campaigns as svc, clubs
from campaigns.services.journal import submit
from campaigns.services.state import current_state


def _started(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Puppets"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    return campaign


def _puppet(club, people):
    code = clubs.invite(club=club, user=people["olga"], role="organizer").code
    made = clubs.signup_with_invitation(
        code=code, username="puppet", password="a long pass phrase 77"
    )
    return get_user_model().objects.get(pk=made.pk)


def test_a_puppet_organizer_takes_nobody_off_the_other_side(club, people):
    campaign = _started(club, people)
    puppet = _puppet(club, people)
    with pytest.raises(Forbidden):
        svc.remove_player(campaign, puppet, side="blue", username="bob")
    with pytest.raises(Forbidden):
        submit(
            campaign,
            puppet,
            "proposal.made",
            {
                "action": "seat",
                "data": {"kind": "player.removed", "data": {"side": "blue", "username": "bob"}},
            },
        )
    campaign.refresh_from_db()
    assert current_state(campaign)["sides"]["blue"]["players"] == ["bob"]


def test_nor_through_the_api(club, people):
    campaign = _started(club, people)
    api = APIClient()
    api.force_login(_puppet(club, people))
    answer = api.post(
        f"/api/v1/campaigns/{campaign.pk}/players/remove/",
        {"side": "blue", "username": "bob"},
        format="json",
    )
    assert answer.status_code == 403, answer.json()
    campaign.refresh_from_db()
    assert current_state(campaign)["sides"]["blue"]["players"] == ["bob"]


def test_an_organizer_from_before_the_start_still_does(club, people):
    olga = people["olga"]
    clubs.set_role(club=club, user=olga, member_username="carol", role="organizer")
    campaign = _started(club, people)
    svc.remove_player(campaign, people["carol"], side="blue", username="bob")
    campaign.refresh_from_db()
    assert current_state(campaign)["sides"]["blue"]["players"] == []


def test_nor_through_the_page(club, people):
    from django.test import Client

    campaign = _started(club, people)
    page = Client()
    page.force_login(_puppet(club, people))
    answer = page.post(
        f"/campaigns/{campaign.pk}/setup/players/remove/", {"side": "blue", "username": "bob"}
    )
    assert answer.status_code == 403
    campaign.refresh_from_db()
    assert current_state(campaign)["sides"]["blue"]["players"] == ["bob"]
