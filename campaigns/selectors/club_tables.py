"""The club page's tables across its campaigns (the comparisons, whom each waits for, the
standings and the chart of wins), kept per club position.

They are read from what any club member may see of every campaign, so they change only when the
club's cut of one of them moves: each campaign row carries the position of its "club" audience
(`Campaign.positions`, a digest of that cut, campaigns.kept_answers.viewcache). The tables are
drawn once per (club, the positions, names and statuses of its campaigns) and kept: a club of a
thousand campaigns reads their rows, not their states. A side's hidden step moves no club position,
so it neither changes the tables nor turns a kept answer into a fresh one (no timing tells it).
While a campaign's row has no position for its journal yet, the tables are drawn as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from django.db.models import Count, Max, Sum

from campaigns.kept_answers import audiences, viewcache

from ..models import Campaign

CLUB = "club"  # the audience every club member reads (campaigns.kept_answers.audiences)


@dataclass(frozen=True)
class Kept:
    """The tables with campaign primary keys in place of the rows (what the cache holds)."""

    comparisons: list[tuple[str, tuple[str, ...], list[tuple[int, str, str, tuple[Any, ...]]]]]
    waiting: dict[int, list[str]]
    standings: list[tuple[int, list[tuple[str, str]], str]]


def key(club_pk: int, campaigns: Sequence[Campaign], part: str = "all") -> str | None:
    """The key of the club's tables at its campaigns' club positions; None while a campaign's row
    has no position for its journal (the tables are then drawn, not kept). The club page's first
    campaigns (`part` "first") are in the order the person reads them (what waits for them
    first), a page of all the club's campaigns ("page") in the club's order, which their rows
    keep: that order is part of the key, so a person is never served the rows in another's
    order. "all": the campaigns in any order."""
    parts = []
    listed = sorted(campaigns, key=lambda c: c.pk) if part == "all" else campaigns
    for campaign in listed:
        positions = campaign.positions or {}
        if positions.get("seq") != campaign.last_seq or not positions.get(CLUB):
            return None
        parts.append(
            (
                campaign.pk,
                positions[CLUB],
                campaign.status,
                campaign.archived_at is None,
                campaign.name,
                campaign.system,
            )
        )
    digest = hashlib.sha256(orjson.dumps(parts)).hexdigest()[:32]
    return f"muster:club-tables:{audiences.BUILD}:{club_pk}:{part}:{digest}"


def position_key(campaign: Campaign, part: str) -> str | None:
    """The key of what `part` keeps of one campaign, drawn from what any club member may see of
    it, at its club position; None while its row has no position for its journal (drawn, not
    kept)."""
    positions = campaign.positions or {}
    if positions.get("seq") != campaign.last_seq or not positions.get(CLUB):
        return None
    at = (positions[CLUB], campaign.status, campaign.system)
    digest = hashlib.sha256(orjson.dumps(at)).hexdigest()[:32]
    return f"muster:club-{part}:{audiences.BUILD}:{campaign.pk}:{digest}"


def kept_or_drawn(
    club_pk: int, campaigns: Sequence[Campaign], draw: Callable[[], Kept], part: str = "all"
) -> Kept:
    """The tables of `campaigns` (`part`: "first", the club page's first campaigns; "page", a page
    of all the club's campaigns; see `key`), kept or drawn."""
    name = key(club_pk, campaigns, part)
    if name is None:
        return draw()
    found = viewcache.get(name)
    if isinstance(found, Kept):
        return found
    drawn = draw()
    viewcache.put(name, drawn)
    return drawn


def chart(club_pk: int, draw: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
    """The chart of wins across every campaign of the club, kept per the club's campaigns' last
    public changes: their number, the newest of their `updated_at` (a public change moves it, a
    side's hidden step never) and their keys, read in one aggregate query whatever their number."""
    seen = Campaign.objects.filter(club_id=club_pk).aggregate(
        n=Count("pk"), last=Max("updated_at"), top=Max("pk"), keys=Sum("pk")
    )
    last = seen["last"].isoformat() if seen["last"] else None
    digest = hashlib.sha256(
        orjson.dumps([seen["n"], last, seen["top"], int(seen["keys"] or 0)])
    ).hexdigest()[:32]
    name = f"muster:club-chart:{audiences.BUILD}:{club_pk}:{digest}"
    found = viewcache.get(name)
    if found is not viewcache.MISSING:
        return found  # type: ignore[no-any-return]
    drawn = draw()
    viewcache.put(name, drawn)
    return drawn
