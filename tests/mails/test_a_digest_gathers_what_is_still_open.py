"""A digest gathers the day's notices of a campaign into one mail and leaves out those read or
resolved before it goes; with nothing left, no mail goes. A long one ends with "and N more"."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from campaigns.mails import outbox, sending
from campaigns.models import Notice, NoticeMail
from campaigns.notices import making


def _news(user, campaign, n):
    for i in range(n):
        making.news(
            user, f"sheet/{i}/done", f"Sheet {i} is ready", f"/sheets/{i}/", campaign=campaign
        )
    outbox.plan(campaign.pk)


def test_a_digest_gathers_the_open_notices_and_leaves_out_the_read_ones(
    confirmed, deliver, skirmish, people
):
    carol = people["carol"]
    _news(carol, skirmish, 3)
    Notice.objects.filter(recipient=carol, key="sheet/1/done").update(read_at=timezone.now())
    (mail,) = deliver(later=timedelta(minutes=1))
    assert mail.to == [carol.email]
    assert "Sheet 0 is ready" in mail.body and "Sheet 2 is ready" in mail.body
    assert "Sheet 1" not in mail.body
    assert "2 notices for you" in mail.subject


def test_no_mail_when_everything_was_read_before_it_went(confirmed, deliver, skirmish, people):
    carol = people["carol"]
    _news(carol, skirmish, 2)
    Notice.objects.filter(recipient=carol).update(read_at=timezone.now())
    assert deliver(later=timedelta(minutes=1)) == []
    assert NoticeMail.objects.get(recipient=carol).skipped


def test_a_long_digest_says_how_many_more_wait_in_the_inbox(
    confirmed, deliver, skirmish, people, settings
):
    carol = people["carol"]
    _news(carol, skirmish, sending.MAX_NOTICES + 3)
    (mail,) = deliver(later=timedelta(minutes=1))
    assert mail.body.count("is ready") == sending.MAX_NOTICES
    assert f"and 3 more: {settings.SITE_URL.rstrip('/')}/notices/" in mail.body


def test_a_site_without_workers_sends_its_digests_from_the_command(
    confirmed, skirmish, people, mailoutbox
):
    from django.core.management import call_command

    making.news(
        people["carol"], "sheet/1/done", "Sheet 1 is ready", "/sheets/1/", campaign=skirmish
    )
    call_command("send_notice_mails")
    assert mailoutbox == []  # the digest's hour has not come
    NoticeMail.objects.update(due_at=timezone.now() - timedelta(minutes=1))
    call_command("send_notice_mails")
    assert [m.to for m in mailoutbox] == [[people["carol"].email]]


def test_a_campaign_archived_before_its_mail_went_sends_none(confirmed, deliver, skirmish, people):
    _news(people["carol"], skirmish, 1)
    type(skirmish).objects.filter(pk=skirmish.pk).update(archived_at=timezone.now())
    assert deliver(later=timedelta(minutes=1)) == []
    assert NoticeMail.objects.get(recipient=people["carol"]).skipped
