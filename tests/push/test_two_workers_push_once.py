"""Two workers given the same push at once (a task redelivered while the first still sends it)
push it once: the row's lock and the claim committed before the post (PostgreSQL: SQLite has no
row locks, and the tests run there unless DATABASE_URL says otherwise)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from campaigns.models import NoticePush
from campaigns.notices import making
from campaigns.push import outbox, sending, subscriptions
from campaigns.webhooks import delivery

from .conftest import new_device


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_push_once(push_on, endpoint, skirmish, people, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only")
    carol = people["carol"]
    subscriptions.subscribe(carol, new_device(endpoint.base + "/push/carol").fields)
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    outbox.plan(skirmish.pk)
    push_id = NoticePush.objects.get(notice__recipient=carol, wanted=True).pk
    real_post = delivery.post_to

    def slow_post(*args, **kwargs):
        time.sleep(0.5)
        return real_post(*args, **kwargs)

    monkeypatch.setattr(delivery, "post_to", slow_post)

    def worker():
        try:
            sending.send(push_id)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(endpoint.received) == 1
