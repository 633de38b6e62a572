"""The notices' outbox: a row per change of a campaign's journal that moved some audience's
position, written in the change's own transaction (projections.refresh calls `note_change`), so a
change is never without its row and a refused one leaves none. After commit a task makes the
notices (campaigns.tasks.make_notices → campaigns.notices.making.process; inline when there is no
broker); the workers' sweep sends again the task of a row left unprocessed (a lost task, a broker
that was away). Processing is idempotent: a re-run row, or a retried write that appended
nothing (no row), never makes a second notice."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.sql import InsertQuery, UpdateQuery
from django.utils import timezone

from campaigns.models import Campaign, NoticeOutbox
from muster import queues

log = logging.getLogger(__name__)
SWEEP_AFTER = timedelta(seconds=30)  # a row older than this, unprocessed, lost its task


def audience_positions(positions: dict[str, Any]) -> dict[str, str]:
    """The audiences' positions of `Campaign.positions` ("club", "referee", "side:<slug>")."""
    return {
        name: value
        for name, value in positions.items()
        if name in ("club", "referee") or name.startswith("side:")
    }


def note_change(campaign: Campaign, before: dict[str, Any]) -> None:
    """In the change's transaction: a row when some audience's position moved from `before`
    (the positions stored before the change), and its task sent after commit."""
    if audience_positions(before) == audience_positions(campaign.positions or {}):
        return  # nobody can see anything new: nothing to make
    NoticeOutbox.objects.create(campaign=campaign, seq=campaign.last_seq)
    send(campaign.pk)


def save_noting_change(campaign: Campaign, before: dict[str, Any], fields: list[str]) -> None:
    """``campaign.save(update_fields=fields)`` and ``note_change``: on PostgreSQL in one statement
    (the row inserted in a WITH clause of the campaign's UPDATE), elsewhere one after the other."""
    moved = audience_positions(before) != audience_positions(campaign.positions or {})
    if not moved or connection.vendor != "postgresql":
        campaign.save(update_fields=fields)
        note_change(campaign, before)
        return
    update = UpdateQuery(Campaign)
    update.add_q(Q(pk=campaign.pk))
    update.add_update_values({name: getattr(campaign, name) for name in fields})
    update_sql, update_params = update.get_compiler(connection.alias).as_sql()
    row = NoticeOutbox(campaign=campaign, seq=campaign.last_seq)
    insert = InsertQuery(NoticeOutbox)
    insert.insert_values(
        [f for f in NoticeOutbox._meta.local_concrete_fields if not f.primary_key], [row]
    )
    [(insert_sql, insert_params)] = insert.get_compiler(connection.alias).as_sql()
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH noted AS ({insert_sql}) {update_sql}", [*insert_params, *update_params]
        )
    send(campaign.pk)


def send(campaign_id: int) -> None:
    """After commit, the task that makes the campaign's notices (never fails the change)."""

    def enqueue() -> None:
        try:
            _send(campaign_id)
        except Exception:  # a broker outage must not fail the change: the sweep sends it again
            log.exception("could not enqueue notices for campaign %s", campaign_id)

    transaction.on_commit(enqueue)


def _send(campaign_id: int) -> None:
    """The task, on the site's queue (as every task of the default queue is sent)."""
    queues.task("campaigns.tasks.make_notices").apply_async(
        args=(campaign_id,), queue=settings.CELERY_TASK_DEFAULT_QUEUE
    )


def sweep(limit: int = 50) -> None:
    """Send again the tasks of rows left unprocessed for SWEEP_AFTER (rosters.sweep runs this in
    every worker every few seconds); a task sent twice makes nothing twice."""
    stale = (
        NoticeOutbox.objects.filter(processed_at=None, created_at__lt=timezone.now() - SWEEP_AFTER)
        .values_list("campaign_id", flat=True)
        .distinct()
        .order_by()
    )
    for campaign_id in list(stale[:limit]):
        if not cache.add(f"muster:notices-swept:{campaign_id}", True, SWEEP_AFTER.seconds):
            continue  # sent again a moment ago: give it time
        try:
            _send(campaign_id)
        except Exception as error:  # noqa: BLE001 - the broker away: the next sweep tries again
            log.warning("could not enqueue notices for campaign %s: %s", campaign_id, error)
            return
