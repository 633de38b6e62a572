"""Reading a campaign's state: the cached snapshot, or a fold of its journal."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from typing import Any, NamedTuple, cast

import orjson
from django.db import connection

from campaigns.dice.pool import DicePool
from campaigns.journal import engine
from campaigns.journal.records import Record
from campaigns.journal.state_copy import copy_json
from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign
from . import snapshots


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


def _fresh(kept: snapshots.Kept | None, state: CampaignState, campaign: Campaign) -> bool:
    return (
        kept is not None
        and kept.seq == campaign.last_seq
        and state.get("shape") == engine.STATE_SHAPE
    )


def current_state(campaign: Campaign) -> CampaignState:
    """The state after the whole journal; rebuilt (and cached) when stale or folded by older code.
    A campaign whose journal is at earlier versions is upgraded first (services.upgrades)."""
    if stale_versions(campaign):
        from .upgrades import upgrade_on_read

        upgrade_on_read(campaign)
    kept = snapshots.stored([campaign.pk]).get(campaign.pk)
    state = kept.state() if kept is not None else None
    if state is not None and _fresh(kept, state, campaign):
        return state
    try:
        folded = engine.fold(load_records(campaign))
    except engine.JournalError:
        if kept is None or state is None or kept.seq != campaign.last_seq:
            raise
        # The journal no longer folds under today's rules: keep what was stored (the referee
        # corrects it by proposal) rather than break every page of the campaign.
        log.warning(
            "campaign %s no longer folds with this code; its stored state is kept", campaign.pk
        )
        return state
    snapshots.store_snapshot(campaign, folded)
    return folded


# The journal's dice: rows of seq, data and side, all a pool needs.
_DICE = """SELECT coalesce(
        json_agg(json_build_array(e.seq, e.data, e.side) ORDER BY e.seq), '[]'
    )::text FROM campaigns_event e WHERE e.campaign_id = %s AND e.kind = 'dice.rolled'"""


def _dice(campaign_id: int) -> list[Record]:
    with connection.cursor() as cursor:
        cursor.execute(_DICE, [campaign_id])
        (rows,) = cursor.fetchone()
    return [
        Record(seq, "dice.rolled", data, "", side, "side" if side else "public")
        for seq, data, side in orjson.loads(rows)
    ]


class ForAppend(NamedTuple):
    """What an append reads."""

    state: CampaignState  # current_state
    pool: DicePool  # the journal's dice, read when a roll is first looked up
    working: CampaignState  # a copy of `state` to fold onto (side parts shared: ``unshare``)
    digests: dict[str, str]  # each side's part of `state`: its digest as stored, where known
    parts_as_read: Callable[[Collection[str]], dict[str, Any]]  # these sides' parts, read again


def state_and_dice(campaign: Campaign) -> ForAppend:
    """What an append reads (``ForAppend``): the state from one query when the snapshot is fresh
    (the copy parsed again from the text read, cheaper than copying, its side parts parsed once
    and shared with `state` until the fold is done: ``snapshots.unshare``), and the journal's
    dice in another once a roll is looked up or made (most appends roll nothing; the writer holds
    the campaign's lock, so no die is added in between); otherwise as ``current_state`` reads
    it, onto a copy."""
    if not stale_versions(campaign):
        kept = snapshots.stored([campaign.pk]).get(campaign.pk)
        if kept is not None:
            state, working = kept.state_twice()
            if _fresh(kept, state, campaign):
                pool = _dice_pool(campaign)
                return ForAppend(state, pool, working, kept.digests, kept.parts_as_read)
    state = current_state(campaign)
    return ForAppend(
        state, _dice_pool(campaign), copy_json(state), {}, lambda sides: _parts_of(state, sides)
    )


def _dice_pool(campaign: Campaign) -> DicePool:
    """The journal's dice, read once a roll is looked up or made (on PostgreSQL as JSON)."""
    if connection.vendor == "postgresql":
        return DicePool.later(lambda: _dice(campaign.pk))
    return DicePool.later(lambda: load_records(campaign, kinds=("dice.rolled",)))


def _parts_of(state: CampaignState, sides: Collection[str]) -> dict[str, Any]:
    """Copies of these sides' parts of `state` (a state folded onto a copy of its own: nothing
    shared, nothing to give back, but correct if asked)."""
    game = cast(dict[str, Any], state).get("game") or {}
    return {side: copy_json(part) for side, part in game.get("sides", {}).items() if side in sides}


def stale_versions(campaign: Campaign) -> bool:
    """The campaign's journal is at earlier versions than this code's (it is upgraded first)."""
    from .. import versions
    from ..systems import get_system

    return campaign.journal_versions != versions.current(get_system(campaign.system))


def current_states(campaigns: Iterable[Campaign]) -> dict[int, CampaignState]:
    """``current_state`` of many campaigns (pk -> state): their snapshots in one query;
    a stale one is rebuilt as current_state does."""
    campaigns = list(campaigns)
    kept = snapshots.stored([c.pk for c in campaigns])
    states: dict[int, CampaignState] = {}
    for campaign in campaigns:
        found = kept.get(campaign.pk)
        state = found.state() if found is not None else None
        fresh = state is not None and _fresh(found, state, campaign)
        if state is not None and fresh and not stale_versions(campaign):
            states[campaign.pk] = state
        else:
            states[campaign.pk] = current_state(campaign)
    return states
