"""At most one mail a campaign an hour to a person, unless they chose each at once: notices that
come within the hour after a mail are gathered into the next one."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from campaigns.mails import outbox
from campaigns.models import MailChoice, Notice, NoticeMail
from campaigns.notices import making
from campaigns.services.journal import submit

from .conftest import choose


def _both_supply(skirmish, people):
    submit(skirmish, people["alice"], "skirmish.supply", side="red")
    submit(skirmish, people["bob"], "skirmish.supply", side="blue")


def _just_mailed(user, campaign, minutes_ago):
    NoticeMail.objects.create(
        recipient=user,
        campaign=campaign,
        window="earlier",
        due_at=timezone.now() - timedelta(minutes=minutes_ago),
        sent_at=timezone.now() - timedelta(minutes=minutes_ago),
    )


def test_notices_within_the_hour_after_a_mail_wait_for_the_hour_and_go_together(
    planned, confirmed, deliver, skirmish, people, settings
):
    bob = people["bob"]
    # The digest's hour comes in a few minutes: the cap, not the hour, sets when it goes.
    settings.MUSTER_MAIL_DIGEST_HOUR = (timezone.localtime().hour + 1) % 24
    NoticeMail.objects.filter(recipient=bob).delete()
    Notice.objects.filter(recipient=bob).update(read_at=timezone.now())
    _just_mailed(bob, skirmish, minutes_ago=5)
    _both_supply(skirmish, people)  # bob's stance is due: a new notice
    mail = NoticeMail.objects.get(recipient=bob, sent_at=None)
    assert mail.due_at >= timezone.now() + timedelta(minutes=54)
    making.news(bob, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    outbox.plan(skirmish.pk)
    assert [m for m in deliver() if m.to == [bob.email]] == []
    sent = [m for m in deliver(later=timedelta(seconds=1)) if m.to == [bob.email]]
    assert len(sent) == 1
    assert mail.entries.count() == 2
    assert "Your roster is ready" in sent[0].body and "2 notices" in sent[0].subject


def test_each_at_once_is_not_capped(planned, confirmed, deliver, skirmish, people):
    bob = people["bob"]
    choose(bob, skirmish, MailChoice.AT_ONCE)
    NoticeMail.objects.filter(recipient=bob).delete()
    Notice.objects.filter(recipient=bob).delete()
    _just_mailed(bob, skirmish, minutes_ago=5)
    _both_supply(skirmish, people)
    assert [m.to for m in deliver() if m.to == [bob.email]] == [[bob.email]]


def test_the_digest_hour_is_the_next_one_in_the_sites_time_zone(settings):
    settings.MUSTER_MAIL_DIGEST_HOUR = 7
    now = timezone.now()
    at = timezone.localtime(outbox.next_digest(now))
    assert (at.hour, at.minute) == (7, 0)
    assert timedelta(0) < at - now <= timedelta(days=1)
