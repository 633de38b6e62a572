"""Nothing is mailed to an address its owner has not confirmed. A confirm link is mailed when an
address is set (a GET shows a button, the POST confirms, without signing in); changing the address
takes the confirmation away; accepting an invitation mailed to an address confirms it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from campaigns.mails import addresses, outbox
from campaigns.notices import making


def _owed(carol, campaign):
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=campaign)
    outbox.plan(campaign.pk)


def test_no_mail_goes_to_an_unconfirmed_address(deliver, skirmish, people):
    _owed(people["carol"], skirmish)
    assert deliver(later=timedelta(minutes=1)) == []


def test_setting_an_address_mails_a_link_that_confirms_it_by_a_post(
    client_for, people, mailoutbox, django_capture_on_commit_callbacks, skirmish, deliver
):
    carol = people["carol"]
    client = client_for("carol")
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/accounts/settings/", {"action": "address", "email": "c@example.net"})
    assert answer.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["c@example.net"]
    assert b"Unconfirmed" in client.get("/accounts/settings/").content
    path = re.search(r"https?://[^/]+(/accounts/address/\S+/)", mail.body).group(1)
    stranger = Client()
    assert b"<button" in stranger.get(path).content
    carol.refresh_from_db()
    assert addresses.confirmed_address(carol) is None  # a GET confirms nothing
    assert stranger.post(path).status_code == 200
    assert addresses.confirmed_address(carol) == "c@example.net"
    assert b"Unconfirmed" not in client.get("/accounts/settings/").content
    _owed(carol, skirmish)
    assert [m.to for m in deliver(later=timedelta(minutes=1))] == [["c@example.net"]]


def test_changing_the_address_takes_the_confirmation_away_and_an_old_link_fails(
    client_for, people, django_capture_on_commit_callbacks
):
    carol = people["carol"]
    assert addresses.confirm(carol, carol.email)
    old_link = addresses.token_for(carol)
    addresses.set_address(user=carol, email="new@example.net")
    assert addresses.confirmed_address(carol) is None
    assert Client().post(f"/accounts/address/{old_link}/").status_code == 400
    assert addresses.confirmed_address(carol) is None


@pytest.mark.parametrize("same_address", [True, False])
def test_accepting_a_mailed_invitation_confirms_that_address(
    club, people, same_address, django_capture_on_commit_callbacks, mailoutbox
):
    from campaigns.services import clubs

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="new@example.org")
    invitation.refresh_from_db()
    assert invitation.mail_sent_at is not None
    email = "new@example.org" if same_address else "other@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        user = clubs.signup_with_invitation(
            code=invitation.code, username="newcomer", password="a long pass phrase 1", email=email
        )
    assert (addresses.confirmed_address(user) == email) is same_address
    asked = [m for m in mailoutbox if "Confirm your e-mail" in m.subject]
    assert len(asked) == (0 if same_address else 1)


def test_the_migration_confirms_addresses_whose_invitation_mail_was_accepted(club, people):
    from importlib import import_module

    from django.apps import apps
    from django.utils import timezone

    from campaigns.models import Invitation

    migration = import_module("campaigns.migrations.0010_confirm_invited_addresses")
    carol, bob = people["carol"], people["bob"]
    for user, email in ((carol, carol.email), (bob, "elsewhere@example.org")):
        Invitation.objects.create(
            club=club,
            created_by=people["olga"],
            email=email,
            accepted_by=user,
            accepted_at=timezone.now(),
            mail_sent_at=timezone.now(),
        )
    migration.confirm_invited(apps, None)
    assert addresses.confirmed_address(carol) == carol.email
    assert addresses.confirmed_address(bob) is None
