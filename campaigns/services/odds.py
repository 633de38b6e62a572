"""Odds before rolling: the exact distribution of each of a side's upcoming rolls.

Computed in a background task after every change of a campaign (``enqueue``) and kept in the
Django cache (Redis in production) under campaign + side + that side's position
(campaigns.kept_answers.viewcache: a digest of *what that side can see*), so a stale answer is never shown
as current, and the other side's hidden steps never make a side's odds "pending" (the journal
position would count them). A side whose position did not move keeps its odds: no task runs
for it. ``odds_for`` is the read: it returns only the sides the viewer may read
(campaigns.access.visibility decides), and needs no state.

A task sent is noted for ASKED_FOR seconds (``asked_key``): reads and changes in that time send no
second one (a busy page polling a pending panel used to queue one per read). A task lost with the
broker (Redis restarted empty) is sent again once the note expires: by the next read, or by the
sweep of every worker (``sweep``: the campaigns played in the last half hour), without anyone
reading.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.dice.table_rolls import upcoming_odds
from campaigns.journal.context import Ctx
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import plain
from campaigns.kept_answers import audiences, viewcache
from muster import queues

from ..errors import Forbidden
from ..models import Campaign
from ..systems import get_system
from ..systems.base import GameSystem
from .folded_state import current_state

log = logging.getLogger(__name__)
TIMEOUT = 7 * 24 * 3600
ASKED_FOR = 10  # seconds a sent task is waited for before another is sent
SWEEP_WINDOW = timedelta(minutes=30)  # the sweep looks after campaigns changed this recently


def cache_key(campaign_id: int, side: str, at: str) -> str:
    return f"muster:odds:{campaign_id}:{side}:{at}"


def asked_key(campaign_id: int, side: str, at: str) -> str:
    return f"muster:odds-asked:{campaign_id}:{side}:{at}"


def compute(campaign: Campaign, side: str) -> dict[str, Any]:
    """The side's upcoming rolls with the exact chance of every outcome (pure reads, no dice)."""
    state = current_state(campaign)
    system = get_system(campaign.system)
    rolls: list[dict[str, Any]] = []
    if (
        state.get("status") == "active"
        and state.get("game") is not None
        and side in system.side_slugs()
    ):
        ctx = Ctx(
            system, state, Record(state["seq"], "odds", {}, ""), DicePool(), RefuseMissingDice()
        )
        upcoming = system.upcoming_rolls(plain(state), side, ctx)
        custom = getattr(system, "side_odds", None)  # a system may add value-after summaries
        rolls = (
            custom(state, side, ctx, upcoming)
            if custom
            else [upcoming_odds(ctx, r) for r in upcoming]
        )
    data = {"side": side, "rolls": rolls}
    stored = campaign.positions or {}
    at = stored if stored.get("seq") == state["seq"] else audiences.positions(campaign, state)
    viewcache.put(cache_key(campaign.pk, side, at[f"side:{side}"]), data, TIMEOUT)
    return data


def compute_and_store(campaign_id: int, side: str) -> dict[str, Any] | None:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return None
    return compute(campaign, side)


def has_odds(system: GameSystem) -> bool:
    """The game tells the odds of some upcoming roll (it draws `upcoming_rolls`)."""
    return type(system).upcoming_rolls is not GameSystem.upcoming_rolls


def enqueue(
    campaign: Campaign, *, known_only: bool = False, before: dict[str, Any] | None = None
) -> None:
    """After the current transaction commits, compute in the background the odds of every side
    that has none for where it now stands (`campaign.positions`, as the change left them), unless
    a task for it was sent less than ASKED_FOR seconds ago. `known_only`: only sides whose
    position is stored (the sweep).

    `before`: the positions before an append (the journal's writer). Then only the sides whose
    position the append moved are sent, each at once, without asking the cache what it holds:
    the work follows from what this append changed, never from what the other side did in
    secret (whose odds are kept or asked for is theirs). A game that tells no odds sends none."""
    stored = dict(campaign.positions or {})
    system = get_system(campaign.system)
    sides = system.side_slugs()
    campaign_id = campaign.pk
    if before is not None:
        if not has_odds(system) or stored.get("seq") != campaign.last_seq:
            return
        moved = [
            s
            for s in sides
            if stored.get(f"side:{s}") and before.get(f"side:{s}") != stored.get(f"side:{s}")
        ]
        if moved:
            transaction.on_commit(lambda: _send_moved(campaign_id, moved, stored))
        return

    def send() -> None:
        compute_odds = queues.task("campaigns.tasks.compute_odds")

        for side in sides:
            at = stored.get(f"side:{side}") if stored.get("seq") == campaign.last_seq else None
            if at is None and known_only:
                continue
            if at is not None and _kept(cache_key(campaign_id, side, at)) is not None:
                continue  # nothing this side can see has changed: its odds stand
            if at is not None and _kept(asked_key(campaign_id, side, at)) is not None:
                continue  # a task is on its way
            try:
                compute_odds.apply_async(args=(campaign_id, side), queue=settings.CELERY_ODDS_QUEUE)
            except (
                Exception
            ) as error:  # a broker outage must not fail the change that was just saved
                if known_only:  # the sweep: it tries again in a few seconds, one line is enough
                    log.warning(
                        "could not enqueue odds for campaign %s side %s: %s",
                        campaign_id,
                        side,
                        error,
                    )
                    return
                log.exception("could not enqueue odds for campaign %s side %s", campaign_id, side)
                continue
            if at is not None:
                viewcache.put(asked_key(campaign_id, side, at), True, ASKED_FOR)

    transaction.on_commit(send)


def _send_moved(campaign_id: int, sides: list[str], positions: dict[str, Any]) -> None:
    """The tasks of the sides an append moved (`positions`: as it left them)."""
    compute_odds = queues.task("campaigns.tasks.compute_odds")
    for side in sides:
        try:
            compute_odds.apply_async(args=(campaign_id, side), queue=settings.CELERY_ODDS_QUEUE)
        except Exception:  # a broker outage must not fail the change that was just saved
            log.exception("could not enqueue odds for campaign %s side %s", campaign_id, side)
            continue
        viewcache.put(asked_key(campaign_id, side, positions[f"side:{side}"]), True, ASKED_FOR)


def sweep(limit: int = 50) -> None:
    """Send again the odds tasks lost with the broker: every side of the campaigns changed in the
    last SWEEP_WINDOW whose odds are neither kept nor asked for (a worker runs this every few
    seconds: rosters.sweep)."""
    recent = Campaign.objects.filter(
        status=Campaign.ACTIVE, updated_at__gte=timezone.now() - SWEEP_WINDOW
    )
    for campaign in recent.order_by("-updated_at")[:limit]:
        enqueue(campaign, known_only=True)


def _kept(key: str) -> dict[str, Any] | None:
    """The odds kept under `key`; None when not computed yet or the cache is away (an outage reads
    as "computing", never as a failed page)."""
    found = viewcache.get(key)
    return None if found is viewcache.MISSING else found


def odds_for(
    campaign: Campaign, viewer: Viewer, side: str | None = None
) -> dict[str, dict[str, Any]]:
    """side -> odds for the sides the viewer may read (only `side` if given). A side whose odds are
    not computed yet for what it can now see gets {"status": "pending"} and is enqueued."""
    if side is not None and not viewer.can_read("side", side):
        raise Forbidden("You may not see another side's odds.")
    readable = [s for s in get_system(campaign.system).side_slugs() if viewer.can_read("side", s)]
    wanted = [side] if side is not None else readable
    result = {}
    for slug in wanted:
        at = viewcache.position(campaign, f"side:{slug}")
        data = _kept(cache_key(campaign.pk, slug, at)) if at else None
        result[slug] = (
            dict(data, status="ready") if data is not None else {"status": "pending", "side": slug}
        )
    if any(entry["status"] == "pending" for entry in result.values()):
        enqueue(campaign)  # e.g. the cache was cleared: computed again in the background
    return result
