"""A mail's task run twice (redelivered, retried, sent again by the sweep) sends one mail; a mail
server that refuses takes the claim back, and the retry sends it, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.mail import EmailMessage

from campaigns import tasks
from campaigns.mails import outbox
from campaigns.models import NoticeMail
from campaigns.notices import making


@pytest.fixture
def owed(confirmed, skirmish, people):
    carol = people["carol"]
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    outbox.plan(skirmish.pk)
    NoticeMail.objects.update(due_at=NoticeMail.objects.get().created_at - timedelta(minutes=1))
    return NoticeMail.objects.get()


def test_the_task_run_twice_sends_one_mail(owed, mailoutbox):
    tasks.send_notice_mail.apply(args=(owed.pk,))
    tasks.send_notice_mail.apply(args=(owed.pk,))
    outbox.send_due()
    assert len(mailoutbox) == 1
    owed.refresh_from_db()
    assert owed.sent_at is not None and owed.notices_sent == 1 and not owed.skipped


def test_a_refused_mail_is_sent_by_the_retry_once(owed, mailoutbox, monkeypatch):
    from campaigns.mails import sending

    real = EmailMessage.send
    calls = []

    def refusing_once(self, *args, **kwargs):
        calls.append(self.to)
        if len(calls) == 1:
            raise OSError("the mail server is away")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", refusing_once)
    with pytest.raises(OSError):
        sending.send(owed.pk)
    owed.refresh_from_db()
    assert owed.sent_at is None  # the claim taken back
    assert sending.send(owed.pk) is True
    assert sending.send(owed.pk) is False
    assert len(mailoutbox) == 1 and len(calls) == 2


def test_planning_twice_puts_a_notice_in_one_mail(confirmed, skirmish, people):
    carol = people["carol"]
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    assert outbox.plan(skirmish.pk) == 1
    assert outbox.plan(skirmish.pk) == 0
    assert outbox.plan() == 0
    assert NoticeMail.objects.filter(recipient=carol).count() == 1
