"""The mail-outbox: notices gathered into mails, one row per (person, campaign, window).

Planning puts each new open notice of a campaign into its recipient's mail still to go for that
campaign, made when there is none, in one transaction with the notice's entry (a notice has one
entry, a unique row: it is in one mail at most, however often planning runs). Planning runs after
notices are made (campaigns.tasks.make_notices) and in the workers' sweep (rosters.sweep), which
also finds what the first missed (a worker killed between the two) and sends mails come due.

When a mail is due, by the recipient's choice for the campaign:
- each at once: now;
- a daily digest: at DIGEST_HOUR (MUSTER_MAIL_DIGEST_HOUR, the site's time zone) next;
- nothing: no mail (the notice's entry says so: it is not planned again).
And the hourly cap: unless they chose "each at once", a mail is never due within an hour of the
last mail of that campaign to that person; notices that come meanwhile join the mail still to go.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.models import MailChoice, Notice, NoticeMail, NoticeMailEntry
from muster import queues

from .choices import choice_for

log = logging.getLogger(__name__)
CAP = timedelta(hours=1)
PLAN_WITHIN = timedelta(days=2)  # older notices unplanned (before mails existed) stay unmailed
PLAN_BATCH = 500
SEND_AGAIN_AFTER = timedelta(minutes=15)  # a due mail's task sent again by the sweep (lost task)


def digest_hour() -> int:
    return int(getattr(settings, "MUSTER_MAIL_DIGEST_HOUR", 7))


def next_digest(now: datetime) -> datetime:
    """The next digest hour after `now`, in the site's time zone."""
    local = timezone.localtime(now)
    at = local.replace(hour=digest_hour(), minute=0, second=0, microsecond=0)
    return at if at > local else at + timedelta(days=1)


def _last_sent(user_id: int, campaign_id: int) -> datetime | None:
    return (
        NoticeMail.objects.filter(
            recipient_id=user_id, campaign_id=campaign_id, sent_at__isnull=False, skipped=False
        )
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)
        .first()
    )


def _due(choice: str, user_id: int, campaign_id: int, now: datetime) -> datetime:
    if choice == MailChoice.AT_ONCE:
        return now
    last = _last_sent(user_id, campaign_id)
    due = next_digest(now)
    return max(due, last + CAP) if last else due


def _window(choice: str, notice: Notice, due: datetime) -> str:
    if choice == MailChoice.AT_ONCE:
        return f"at-once/{notice.pk}"
    return f"digest/{timezone.localtime(due):%Y-%m-%d}/{notice.pk}"


def _put(notice: Notice, now: datetime) -> NoticeMail | None:
    """`notice` put in its recipient's mail to go (made when none); None: no mail wanted."""
    assert notice.campaign_id is not None
    user_id, campaign_id = notice.recipient_id, notice.campaign_id
    choice = choice_for(user_id, campaign_id)
    mail = None
    if choice != MailChoice.NOTHING:
        mail = NoticeMail.objects.filter(
            recipient_id=user_id, campaign_id=campaign_id, sent_at=None
        ).first()
        due = _due(choice, user_id, campaign_id, now)
        if mail is None:
            mail = NoticeMail.objects.create(
                recipient_id=user_id,
                campaign_id=campaign_id,
                window=_window(choice, notice, due),
                due_at=due,
            )
        elif choice == MailChoice.AT_ONCE and mail.due_at > now:
            NoticeMail.objects.filter(pk=mail.pk).update(due_at=now)
    NoticeMailEntry.objects.create(notice=notice, mail=mail)
    return mail


def plan(campaign_id: int | None = None) -> int:
    """Every open, unread notice of a campaign (of one, or all) not yet planned put in its mail,
    in one transaction; how many. A concurrent planner's unique rows make this one give way: the
    next sweep plans what is left."""
    now = timezone.now()
    fresh = Notice.objects.filter(
        campaign__isnull=False,
        resolved_at=None,
        read_at=None,
        mail_entry__isnull=True,
        created_at__gte=now - PLAN_WITHIN,
    ).order_by("pk")
    if campaign_id is not None:
        fresh = fresh.filter(campaign_id=campaign_id)
    try:
        with transaction.atomic():
            notices = list(fresh[:PLAN_BATCH])
            for notice in notices:
                _put(notice, now)
    except IntegrityError:
        log.info("mail planning met another planner; the next sweep goes on")
        return 0
    return len(notices)


def due_mails(limit: int = 100) -> list[int]:
    return list(
        NoticeMail.objects.filter(sent_at=None, due_at__lte=timezone.now())
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )


def enqueue(mail_id: int) -> bool:
    """The task that sends a mail (inline without a broker). A broker away: the sweep sends it."""
    return queues.send_or_log("campaigns.tasks.send_notice_mail", mail_id)


def send_due(*, again_after: timedelta = SEND_AGAIN_AFTER) -> int:
    """Send the task of every mail come due (once per `again_after` each: a task sent meanwhile
    may still be waiting or retrying; sent twice, it sends one mail); how many."""
    return queues.send_each(
        "campaigns.tasks.send_notice_mail", due_mails(), "muster:notice-mail-sent:", again_after
    )


def after_notices(campaign_id: int) -> None:
    """After a campaign's notices are made: plan them, and send what is due (each at once)."""
    plan(campaign_id)
    transaction.on_commit(send_due)


def sweep() -> None:
    """Run by every worker's sweep: at most once a minute site-wide, plan and send what is due."""
    if not cache.add("muster:notice-mails-swept", True, 60):
        return
    plan()
    send_due()
