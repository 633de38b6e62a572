"""The push outbox: a row per notice (`NoticePush`, unique per notice), written for each new open
notice of a campaign in one transaction after the notices are made (campaigns.tasks.make_notices)
and in the workers' sweep, which also finds what the first missed; a notice is planned once, so
it is pushed once at most. A row is wanted only when its recipient's e-mail choice for the
campaign is not "nothing" (push never tells more than mail may) and they have a device; its task
(campaigns.tasks.send_notice_push, the row's id only) is sent after commit and again by the
sweep while the row is unclaimed."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.mails.choices import choice_for
from campaigns.models import MailChoice, Notice, NoticePush, PushSubscription
from muster import queues

from . import keys

log = logging.getLogger(__name__)
PLAN_WITHIN = timedelta(days=1)  # older notices are not pushed (news a day late is no push)
PLAN_BATCH = 500
SEND_AGAIN_AFTER = timedelta(minutes=5)


def wanted(notice: Notice) -> bool:
    assert notice.campaign_id is not None
    if choice_for(notice.recipient_id, notice.campaign_id) == MailChoice.NOTHING:
        return False
    return PushSubscription.objects.filter(user_id=notice.recipient_id).exists()


def plan(campaign_id: int | None = None) -> int:
    """Every open, unread notice (of a campaign, or all) not yet planned given its row, in one
    transaction; how many. A concurrent planner's unique rows make this one give way."""
    if not keys.configured():
        return 0
    now = timezone.now()
    fresh = Notice.objects.filter(
        campaign__isnull=False,
        resolved_at=None,
        read_at=None,
        push_entry__isnull=True,
        created_at__gte=now - PLAN_WITHIN,
    ).order_by("pk")
    if campaign_id is not None:
        fresh = fresh.filter(campaign_id=campaign_id)
    try:
        with transaction.atomic():
            notices = list(fresh[:PLAN_BATCH])
            NoticePush.objects.bulk_create(
                [NoticePush(notice=n, wanted=wanted(n), created_at=now) for n in notices]
            )
    except IntegrityError:
        log.info("push planning met another planner; the next sweep goes on")
        return 0
    return len(notices)


def owed(limit: int = 100) -> list[int]:
    return list(
        NoticePush.objects.filter(
            sent_at=None, wanted=True, created_at__gte=timezone.now() - PLAN_WITHIN
        )
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )


def enqueue(push_id: int) -> bool:
    return queues.send_or_log("campaigns.tasks.send_notice_push", push_id)


def send_owed(*, again_after: timedelta = SEND_AGAIN_AFTER) -> int:
    """The task of every row not yet claimed (once per `again_after` each); how many."""
    return queues.send_each(
        "campaigns.tasks.send_notice_push", owed(), "muster:notice-push-sent:", again_after
    )


def after_notices(campaign_id: int) -> None:
    """After a campaign's notices are made: their rows planned, their tasks sent after commit."""
    if plan(campaign_id):
        transaction.on_commit(send_owed)


def sweep() -> None:
    """Run by every worker's sweep: at most once a minute site-wide."""
    if not keys.configured() or not cache.add("muster:notice-pushes-swept", True, 60):
        return
    plan()
    send_owed()
