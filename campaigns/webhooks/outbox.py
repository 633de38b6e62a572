"""The webhooks' outbox: a WebhookDelivery row per (webhook, event), written in the transaction of
the change that made the event (a campaign's journal append, through projections.refresh; a member
accepted into the club), so an event is never without its rows and a refused change leaves none.
One row per webhook and event key (a unique constraint): a write retried, a projection refreshed
again, a result undone and confirmed again, add nothing. After commit a task posts them
(campaigns.tasks.deliver_webhooks; inline without a broker); the workers' sweep sends again the
task of a row due and not being sent (a lost task, a retry's time come)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns.journal.state_shapes import HeldState
from campaigns.models import Campaign, Membership, Webhook, WebhookDelivery
from muster import queues

from . import events as club_events

log = logging.getLogger(__name__)
TASK = "campaigns.tasks.deliver_webhooks"


def note_campaign(campaign: Campaign, state: HeldState, *, was: str, played: list[int]) -> None:
    """In the change's transaction: the rows of its club events (`was`: the campaign's status
    before it; `played`: the scenarios whose result it confirmed)."""
    status = campaign.status
    if status == was and not played:
        return
    hooks = list(Webhook.objects.filter(club_id=campaign.club_id))
    if hooks:
        write(hooks, club_events.campaign_events(campaign, state, was=was, played=played))


def note_member(membership: Membership) -> None:
    """In the transaction that made `membership`: the club's new member, told to its webhooks."""
    hooks = list(Webhook.objects.filter(club_id=membership.club_id))
    if hooks:
        write(hooks, [club_events.member_event(membership)])


def write(hooks: list[Webhook], found: list[club_events.Event]) -> None:
    if not found:
        return
    WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(webhook=hook, event_key=key, event=event)
            for hook in hooks
            for key, event in found
        ],
        ignore_conflicts=True,  # the same event again: the row it has is kept
    )
    for hook in hooks:
        send(hook.pk)


def send(webhook_id: int, *, countdown: float = 0) -> None:
    """After commit, the task that posts a webhook's due rows (never fails the change)."""

    def enqueue() -> None:
        try:
            task = queues.task(TASK)
            queue = settings.CELERY_TASK_DEFAULT_QUEUE
            if countdown and not task.app.conf.task_always_eager:  # inline: no waiting
                task.apply_async((webhook_id,), countdown=countdown, queue=queue)
            elif not countdown:
                task.apply_async((webhook_id,), queue=queue)
        except Exception:  # a broker outage must not fail the change: the sweep sends it again
            log.exception("could not enqueue the deliveries of webhook %s", webhook_id)

    transaction.on_commit(enqueue)


def due() -> Q:
    """Rows to post now: waiting, their time come, nobody sending them."""
    now = timezone.now()
    return Q(status=WebhookDelivery.PENDING, next_attempt_at__lte=now) & (
        Q(claimed_until=None) | Q(claimed_until__lt=now)
    )


def sweep(limit: int = 50) -> None:
    """Send again the task of each webhook with a row due for a while (rosters.sweep runs this in
    every worker every few seconds); a task sent twice posts nothing twice."""
    late = timezone.now() - timedelta(seconds=30)
    hooks = (
        WebhookDelivery.objects.filter(due(), next_attempt_at__lt=late)
        .values_list("webhook_id", flat=True)
        .distinct()
        .order_by()
    )
    for webhook_id in list(hooks[:limit]):
        if not cache.add(f"muster:webhook-swept:{webhook_id}", True, 30):
            continue  # sent again a moment ago: give it time
        try:
            queues.task(TASK).apply_async((webhook_id,), queue=settings.CELERY_TASK_DEFAULT_QUEUE)
        except Exception as error:  # noqa: BLE001 - the broker away: the next sweep tries again
            log.warning("could not enqueue the deliveries of webhook %s: %s", webhook_id, error)
            return
