"""Reading a campaign's state: the cached snapshot, or a fold of its journal."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import cast

import orjson
from django.db import connection

from campaigns.dice.pool import DicePool
from campaigns.journal import engine
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign, Snapshot
from .snapshots import store_snapshot


def load_records(
    campaign: Campaign, kinds: tuple[str, ...] | None = None, after: int | None = None
) -> list[Record]:
    """The journal as Records (plain rows: no model instances); only events of `kinds` if given,
    only those after seq `after` if given."""
    events = campaign.events.order_by("seq")
    if kinds is not None:
        events = events.filter(kind__in=kinds)
    if after is not None:
        events = events.filter(seq__gt=after)
    rows = events.values_list(
        "seq", "kind", "data", "actor__username", "side", "audience", "created_at", "uid"
    )
    return [
        Record(
            seq=seq,
            kind=kind,
            data=data,
            actor=actor,
            side=side,
            audience=audience,
            at=at.isoformat(),
            uid=str(uid),
        )
        for seq, kind, data, actor, side, audience, at, uid in rows
    ]


log = logging.getLogger(__name__)


def _fresh(snapshot: Snapshot | None, campaign: Campaign) -> bool:
    return (
        snapshot is not None
        and snapshot.seq == campaign.last_seq
        and snapshot.state.get("shape") == engine.STATE_SHAPE
    )


def current_state(campaign: Campaign) -> CampaignState:
    """The state after the whole journal; rebuilt (and cached) when stale or folded by older code.
    A campaign whose journal is at earlier versions is upgraded first (services.upgrades)."""
    if _stale_versions(campaign):
        from .upgrades import upgrade_on_read

        upgrade_on_read(campaign)
    snapshot = Snapshot.objects.filter(campaign=campaign).first()
    if snapshot is not None and _fresh(snapshot, campaign):
        return _stored(snapshot)
    try:
        state = engine.fold(load_records(campaign))
    except engine.JournalError:
        if snapshot is None or snapshot.seq != campaign.last_seq:
            raise
        # The journal no longer folds under today's rules: keep what was stored (the referee
        # corrects it by proposal) rather than break every page of the campaign.
        log.warning(
            "campaign %s no longer folds with this code; its stored state is kept", campaign.pk
        )
        return _stored(snapshot)
    store_snapshot(campaign, state)
    return state


_SNAPSHOT_AND_DICE = """SELECT s.seq, s.state::text, (
    SELECT coalesce(json_agg(json_build_array(e.seq, e.data, e.side) ORDER BY e.seq), '[]')::text
    FROM campaigns_event e WHERE e.campaign_id = s.campaign_id AND e.kind = 'dice.rolled'
) FROM campaigns_snapshot s WHERE s.campaign_id = %s"""


def state_and_dice(campaign: Campaign) -> tuple[CampaignState, DicePool]:
    """``current_state`` and the journal's dice (``DicePool``): what an append reads. On
    PostgreSQL both in one query when the snapshot is fresh (the dice as rows of seq, data and
    side, all a pool needs); otherwise as ``current_state`` and ``load_records`` read them."""
    if connection.vendor == "postgresql" and not _stale_versions(campaign):
        with connection.cursor() as cursor:
            cursor.execute(_SNAPSHOT_AND_DICE, [campaign.pk])
            row = cursor.fetchone()
        if row is not None and row[0] == campaign.last_seq:
            state = cast(CampaignState, orjson.loads(row[1]))
            if state.get("shape") == engine.STATE_SHAPE:
                dice = [
                    Record(seq, "dice.rolled", data, "", side, "side" if side else "public")
                    for seq, data, side in orjson.loads(row[2])
                ]
                return state, DicePool.from_records(dice)
    state = current_state(campaign)
    return state, DicePool.from_records(load_records(campaign, kinds=("dice.rolled",)))


def _stored(snapshot: Snapshot) -> CampaignState:
    """A snapshot's state, as the fold stored it (JSON)."""
    return cast(CampaignState, snapshot.state)


def _stale_versions(campaign: Campaign) -> bool:
    from .. import versions
    from ..systems import get_system

    return campaign.journal_versions != versions.current(get_system(campaign.system))


def current_states(campaigns: Iterable[Campaign]) -> dict[int, CampaignState]:
    """``current_state`` of many campaigns (pk -> state): their snapshots in one query;
    a stale one is rebuilt as current_state does."""
    campaigns = list(campaigns)
    snapshots = {
        s.campaign_id: s for s in Snapshot.objects.filter(campaign__in=[c.pk for c in campaigns])
    }
    states: dict[int, CampaignState] = {}
    for campaign in campaigns:
        snapshot = snapshots.get(campaign.pk)
        fresh = _fresh(snapshot, campaign) and not _stale_versions(campaign)
        states[campaign.pk] = (
            _stored(snapshot) if snapshot is not None and fresh else current_state(campaign)
        )
    return states
