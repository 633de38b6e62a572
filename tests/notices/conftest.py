"""Notices made the moment each change is written (as a site without a broker makes them right
after its commit), so a test reads them step by step."""

from __future__ import annotations

import pytest


@pytest.fixture
def notices_inline(monkeypatch):
    """Each outbox row processed as soon as it is written; the campaign ids processed, in order.
    `after` (a list of callables) runs after each processing: a test's check at every step."""
    from campaigns.notices import making, outbox

    class Made(list):
        after: list = []

    made = Made()
    made.after = []

    def send(campaign_id):
        making.process(campaign_id)
        made.append(campaign_id)
        for check in made.after:
            check(campaign_id)

    monkeypatch.setattr(outbox, "send", send)
    return made


def open_notices(user, campaign=None, waiting=True):
    """(key, words, link) of `user`'s open notices, oldest first."""
    from campaigns.models import Notice

    found = Notice.objects.filter(recipient=user, resolved_at=None, waiting=waiting)
    if campaign is not None:
        found = found.filter(campaign=campaign)
    return [(n.key, n.words, n.link) for n in found.order_by("created_at", "pk")]


@pytest.fixture
def client_for(people):
    from django.test import Client

    def make(name: str) -> Client:
        client = Client()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make
