"""The settings page sets the default and each campaign's choice; a campaign's "Mails for this
campaign" sets its own; the campaign page links to it."""

from __future__ import annotations

from campaigns.mails import choices
from campaigns.models import MailChoice


def test_the_settings_page_sets_the_default_and_a_campaigns_choice(client_for, skirmish, people):
    bob, client = people["bob"], client_for("bob")
    page = client.get("/accounts/settings/").content.decode()
    assert "Test war" in page and "A daily digest" in page
    client.post("/accounts/settings/", {"action": "default", "choice": "nothing"})
    client.post(
        "/accounts/settings/", {"action": "campaign", "campaign": skirmish.pk, "choice": "at_once"}
    )
    assert choices.default_of(bob.pk) == MailChoice.NOTHING
    assert choices.choice_for(bob.pk, skirmish.pk) == MailChoice.AT_ONCE


def test_a_campaign_page_links_to_its_mails_which_set_that_campaigns_choice(
    client_for, skirmish, people
):
    client = client_for("alice")
    assert (
        f"/campaigns/{skirmish.pk}/mails/"
        in client.get(f"/campaigns/{skirmish.pk}/").content.decode()
    )
    answer = client.post(f"/campaigns/{skirmish.pk}/mails/", {"choice": "nothing"})
    assert answer.status_code == 302
    assert choices.choice_for(people["alice"].pk, skirmish.pk) == MailChoice.NOTHING
    assert client.post(f"/campaigns/{skirmish.pk}/mails/", {"choice": "often"}).status_code == 200


def test_a_stranger_cannot_set_mails_for_a_campaign_they_cannot_see(client_for, skirmish, people):
    answer = client_for("outsider").post(f"/campaigns/{skirmish.pk}/mails/", {"choice": "at_once"})
    assert answer.status_code == 404
