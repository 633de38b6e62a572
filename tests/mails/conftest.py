"""Mails of notices: notices made the moment each change is written and planned into mails at
once (as the task after commit does), everyone's address confirmed unless a test says otherwise,
and the mails come due sent by `deliver` (what the sweep and the task do)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone


@pytest.fixture
def planned(monkeypatch):
    from campaigns.mails import outbox as mail_outbox
    from campaigns.notices import making, outbox

    def send(campaign_id):
        making.process(campaign_id)
        mail_outbox.plan(campaign_id)

    monkeypatch.setattr(outbox, "send", send)


@pytest.fixture
def confirmed(people):
    from campaigns.mails import addresses

    for user in people.values():
        assert addresses.confirm(user, user.email)
    return people


@pytest.fixture
def deliver(mailoutbox):
    """Send every mail come due (`later`: as if that much time had passed); the mails sent."""
    from campaigns.mails import outbox, sending
    from campaigns.models import NoticeMail

    def run(later: timedelta = timedelta(0)):
        if later:
            NoticeMail.objects.filter(sent_at=None).update(due_at=timezone.now() - later)
        start = len(mailoutbox)
        for mail_id in outbox.due_mails():
            sending.send(mail_id)
        return mailoutbox[start:]

    return run


def choose(user, campaign, choice):
    from campaigns.mails import choices

    choices.set_choice(user=user, campaign=campaign, choice=choice)


@pytest.fixture
def client_for(people):
    from django.test import Client

    def make(name: str) -> Client:
        client = Client()
        client.force_login(people[name])
        return client

    return make
