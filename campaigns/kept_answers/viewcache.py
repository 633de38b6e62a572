"""Answers cut for an audience, kept in the cache under what that audience can see.

A campaign changes only when its journal grows, and a viewer's cut of it is the same for
everyone of the same audience: the club (a member who plays no side), one side (its players),
the referee. So the cut and what is drawn from it (API answers, page fragments) are computed
once per (campaign, the audience's position, audience, representation) and then served from
the cache (Redis in production, local memory embedded).

The **position** of an audience (``positions``) is a digest of its cut of the state
(``visibility.view_state``), of the projections it may read (roster entries, scenario
summaries) and of the newest journal entry it may read, computed after every append and
stored on the campaign row (``Campaign.positions``). It moves with everything that
audience can see, and only with that: the other side's hidden steps leave it, and so the
side's cache hits and timing, alone. Neither the journal position (``last_seq``) nor a
side's newest visible event alone would do: the first counts hidden events; the second misses
changes a side sees without reading the event that made them (the other side's sealed choice
being made, a proposal about a private event). A key never names a stale answer, so nothing
is ever invalidated; entries of old positions expire.

Keys also carry the organizer flag (the only part of a viewer beyond the audience that
changes an answer) and a digest of the code and templates that draw answers, so a deploy
never serves an old drawing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django.core.cache import cache

from campaigns.journal.records import Viewer
from campaigns.kept_answers import audiences

if TYPE_CHECKING:
    from campaigns.models import Campaign

log = logging.getLogger(__name__)
T = TypeVar("T")
TIMEOUT = 24 * 3600  # entries of positions passed long ago expire
MISSING = object()  # what `get` answers for a key the cache does not hold


def position(campaign: Campaign, name: str, *, refresh_missing: bool = True) -> str | None:
    """The stored position of audience `name`, or None while the row has none for its journal
    (computed and stored first unless `refresh_missing` is false)."""
    stored: dict[str, Any] = campaign.positions or {}
    if stored.get("seq") != campaign.last_seq:
        stored = refresh(campaign) if refresh_missing else {}
    at: str | None = stored.get(name)
    return at


def refresh(campaign: Campaign) -> dict[str, Any]:
    """Positions for a row that has none for its journal (written before they existed): computed
    from the current state and stored only if the journal has not moved meanwhile."""
    from campaigns.models import Campaign
    from campaigns.services.state import current_state

    state = current_state(campaign)
    found = audiences.positions(campaign, state)
    Campaign.objects.filter(pk=campaign.pk, last_seq=state["seq"]).update(positions=found)
    if state["seq"] == campaign.last_seq:
        campaign.positions = found
    return found if state["seq"] == campaign.last_seq else {}


def key(
    campaign: Campaign, viewer: Viewer, representation: str, *, refresh_missing: bool = True
) -> str | None:
    name = audiences.audience(viewer)
    at = position(campaign, name, refresh_missing=refresh_missing) if name else None
    if at is None:
        return None
    return f"muster:view:{audiences.BUILD}:{campaign.pk}:{name}:{at}:{'o' if viewer.organizer else 'm'}:{representation}"


def kept(campaign: Campaign, viewer: Viewer, representation: str) -> Any:
    """What `cached` keeps under this key, or MISSING: never computed here (the stored positions
    are used only when they are the journal's; a refresh is left to the full answer)."""
    name = key(campaign, viewer, representation, refresh_missing=False)
    return MISSING if name is None else get(name)


def cached(campaign: Campaign, viewer: Viewer, representation: str, build: Callable[[], T]) -> T:
    """`build()`, computed once per key; with no position (or the cache down) computed every time."""
    name = key(campaign, viewer, representation)
    if name is None:
        return build()
    found = get(name)
    if found is not MISSING:
        return cast(T, found)  # what `build` made for this key
    value = build()
    put(name, value)
    return value


def get(name: str) -> Any:  # what `put` kept, or MISSING
    try:
        return cache.get(name, MISSING)
    except Exception:  # a cache outage slows pages down; it must not take them down
        log.exception("cache read failed")
        return MISSING


def get_many(names: list[str]) -> dict[str, Any]:
    """What `put` kept under each of `names` (those it holds), in one round trip."""
    if not names:
        return {}
    try:
        return dict(cache.get_many(names))
    except Exception:
        log.exception("cache read failed")
        return {}


def put_many(values: dict[str, object], timeout: int = TIMEOUT) -> None:
    if not values:
        return
    try:
        cache.set_many(values, timeout)
    except Exception:
        log.exception("cache write failed")


def put(name: str, value: object, timeout: int = TIMEOUT) -> None:
    try:
        cache.set(name, value, timeout)
    except Exception:
        log.exception("cache write failed")
