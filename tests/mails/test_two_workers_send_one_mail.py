"""Two workers given the same mail at once (a task redelivered while the first still sends it)
send it once: the row's lock and the claim written before the send (PostgreSQL: SQLite has no
row locks, and the tests run there unless DATABASE_URL says otherwise)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.core.mail import EmailMessage
from django.db import connection, connections
from django.utils import timezone

from campaigns.mails import addresses, outbox, sending
from campaigns.models import NoticeMail
from campaigns.notices import making


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_mail(skirmish, people, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only")
    carol = people["carol"]
    assert addresses.confirm(carol, carol.email)
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    outbox.plan(skirmish.pk)
    mine = NoticeMail.objects.filter(recipient=carol, sent_at=None)
    mine.update(due_at=timezone.now() - timedelta(minutes=1))
    mail_id = mine.get().pk
    sent = []

    def slow_send(self, *args, **kwargs):
        time.sleep(0.5)
        sent.append(self.to)
        return 1

    monkeypatch.setattr(EmailMessage, "send", slow_send)

    def worker():
        try:
            sending.send(mail_id)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sent == [[carol.email]]
