"""Stored campaigns carried to today's journal versions (campaigns.versions, docs/journal.md).

A campaign whose journal is at earlier versions (or was stored before journals had versions) is
upgraded the first time it is read by this code, or by `migrate` (which upgrades every campaign:
apps.py) and `manage.py upgrade_journals`. The upgrade runs under the campaign's lock, all or
nothing: the journal as it was is kept in a JournalArchive row, the upgraded events replace it
(every event keeps its uid, time, author and idempotency key), the `journal.upgraded` events say
what ran, and the snapshot and projections are rebuilt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import versions
from campaigns.journal import engine
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState
from campaigns.versions import upgrading

from ..errors import DomainError
from ..models import Campaign, Event, JournalArchive
from ..systems import get_system
from . import projections
from .snapshots import store_snapshot

log = logging.getLogger(__name__)
_FAILED: dict[
    int, int
] = {}  # campaign pk -> last_seq whose upgrade failed in this process: not retried per read


def needs_upgrade(campaign: Campaign) -> bool:
    return campaign.journal_versions != versions.current(get_system(campaign.system))


@dataclass
class Outcome:
    campaign: Campaign
    upgraded: upgrading.Upgraded | None  # None: the journal was already at today's versions
    written: bool

    @property
    def summary(self) -> str:
        if self.upgraded is None:
            return "at today's journal versions"
        today = ", ".join(
            f"{journal} v{version}" for journal, version in self.upgraded.versions.items()
        )
        return (
            self.upgraded.summary() or f"its journal fits today's versions ({today}), now recorded"
        )


def upgrade_campaign(campaign: Campaign, *, dry_run: bool = False) -> Outcome:
    """Carry `campaign`'s stored journal to today's versions. Raises DomainError (naming the event
    that does not fit, or the version no upgrade carries) and writes nothing when it cannot.
    `dry_run`: work it out, write nothing. `campaign` is updated in place (last_seq, versions …)."""
    system = get_system(campaign.system)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if not needs_upgrade(locked):
            _copy(locked, campaign)
            return Outcome(campaign, None, False)
        rows = list(locked.events.select_related("actor").order_by("seq"))
        records = [Record.from_event(event) for event in rows]
        start = None
        if locked.journal_versions is not None:
            start = versions.check_versions(
                locked.journal_versions, system, "journal_versions", locked.muster_release
            )
        upgraded, state = upgrading.carry(records, system, start, engine.fold)
        if dry_run:
            return Outcome(campaign, upgraded, False)
        _write(locked, rows, records, upgraded, state)
    _copy(locked, campaign)
    _FAILED.pop(campaign.pk, None)
    return Outcome(campaign, upgraded, True)


def upgrade_on_read(campaign: Campaign) -> None:
    """The first read of a campaign by this code upgrades it; a journal no upgrade carries is left
    as it is (its stored state is read: services.state) and said once in the log."""
    if _FAILED.get(campaign.pk) == campaign.last_seq:
        return
    try:
        upgrade_campaign(campaign)
    except DomainError as error:
        _FAILED[campaign.pk] = campaign.last_seq
        log.error(
            "campaign %s could not be upgraded to today's journal versions: %s: %s",
            campaign.pk,
            error.field,
            error.message,
        )


def upgrade_all(
    *,
    dry_run: bool = False,
    report: Callable[[Campaign, Outcome | DomainError], None] | None = None,
) -> list[tuple[Campaign, Outcome | DomainError]]:
    """Every stored campaign not at today's journal versions, upgraded (migrate, upgrade_journals).
    -> [(campaign, Outcome or DomainError)]; `report(campaign, outcome)` is told each as it goes."""
    from ..systems import all_systems

    done: list[tuple[Campaign, Outcome | DomainError]] = []
    for slug, system in sorted(all_systems().items()):
        stale = Campaign.objects.filter(system=slug).exclude(
            journal_versions=versions.current(system)
        )
        for campaign in stale.select_related("club").order_by("pk"):
            outcome: Outcome | DomainError
            try:
                outcome = upgrade_campaign(campaign, dry_run=dry_run)
            except DomainError as error:
                outcome = error
            if report is not None:
                report(campaign, outcome)
            done.append((campaign, outcome))
    return done


def _write(
    campaign: Campaign,
    rows: list[Event],
    records: list[Record],
    upgraded: upgrading.Upgraded,
    state: CampaignState,
) -> None:
    new = upgraded.records
    if upgraded.ran:
        JournalArchive.objects.create(
            campaign=campaign,
            journal_versions=campaign.journal_versions,
            muster_release=campaign.muster_release,
            upgraded_by=versions.release(),
            summary=upgraded.summary(),
            events=[_archived(event) for event in rows],
        )
        keys = {str(event.uid): event.idempotency_key for event in rows}
        users = {
            u.username: u
            for u in get_user_model().objects.filter(username__in={r.actor for r in new})
        }
        kept = len(records) <= len(new) and all(_same(a, b) for a, b in zip(records, new))
        if not kept:  # events inserted or rewritten: the journal is written again, in its new order
            campaign.events.all().delete()
        Event.objects.bulk_create(
            [
                Event(
                    campaign=campaign,
                    seq=r.seq,
                    uid=r.uid,
                    kind=r.kind,
                    data=r.data,
                    actor=users[r.actor],
                    side=r.side,
                    audience=r.audience,
                    created_at=datetime.fromisoformat(r.at),
                    idempotency_key=keys.get(r.uid),
                )
                for r in (new[len(records) :] if kept else new)
            ]
        )
    campaign.last_seq = new[-1].seq
    campaign.journal_versions = upgraded.versions
    campaign.muster_release = versions.release()
    campaign.save(update_fields=["last_seq", "journal_versions", "muster_release"])
    store_snapshot(campaign, state)
    # An upgrade is no news for anyone's list of campaigns (updated_at stays).
    projections.refresh(campaign, state, public_change=False)


def _same(a: Record, b: Record) -> bool:
    return (a.seq, a.uid, a.kind, a.data, a.side, a.audience) == (
        b.seq,
        b.uid,
        b.kind,
        b.data,
        b.side,
        b.audience,
    )


def _archived(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "uid": str(event.uid),
        "kind": event.kind,
        "at": event.created_at.isoformat(),
        "actor": event.actor.username,
        "side": event.side,
        "audience": event.audience,
        "data": event.data,
        "idempotency_key": event.idempotency_key,
    }


_FIELDS = (
    "last_seq",
    "journal_versions",
    "muster_release",
    "positions",
    "status",
    "referee_id",
    "updated_at",
)


def _copy(source: Campaign, target: Campaign) -> None:
    for name in _FIELDS:
        setattr(target, name, getattr(source, name))
