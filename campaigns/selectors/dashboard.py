"""A person's dashboard: their clubs, the campaigns they play or organize, what waits for them
(what has waited longest first, by their notices).

Paged in SQL: each list is its first few rows, in the order the person expects (what waits for
them first, by their open waiting notices; then campaigns in play, being set up, finished; then
the latest public change first), each taken with `ORDER BY ... LIMIT` (the database keeps the
best few as it reads, never sorting or numbering them all), with a count of them all from the
same query (sums over the same rows), so a person in a thousand campaigns costs little more than
a person in a dozen. Every order and count is
read from what the person may see: their own notices (drawn from their own cut) and each
campaign's last public change (`updated_at`, which a side's hidden step leaves alone)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.access import visibility
from campaigns.kept_answers import prepared

from ..models import Campaign, Club, Membership, Notice
from ..systems.base import Action
from .campaign_lists import (
    ORDER,
    ORGANIZED,
    OTHER,
    PLAYED,
    mine_params,
    mine_sql,
    played_or_organized,
)
from .todos import waiting_for
from .waiting import campaigns_waiting_on

SHOWN = 15  # of each list on the dashboard; the rest on the pages of "my campaigns"

Person = AbstractBaseUser | AnonymousUser


@dataclass
class Dashboard:
    clubs: list[tuple[Club, str | None]]  # (club, role)
    campaigns: list[Campaign]  # the campaigns one plays or referees (the first SHOWN)
    waiting: list[tuple[Campaign, list[Action]]]
    # campaigns of clubs one organizes, played by others (the first SHOWN)
    organized: list[Campaign] = field(default_factory=list)
    waits: dict[int, list[str]] = field(default_factory=dict)  # campaign pk -> whom it waits for
    played_count: int = 0  # all the campaigns one plays or referees
    organized_count: int = 0  # all those one organizes only
    waiting_count: int = 0  # the campaigns where something waits for the person (their notices)

    @property
    def count(self) -> int:
        return self.played_count + self.organized_count

    @property
    def more(self) -> bool:
        """Some list shows only its first rows."""
        return (
            self.played_count > len(self.campaigns)
            or self.organized_count > len(self.organized)
            or self.waiting_count > len(self.waiting)
        )


def dashboard(user: Person, shown: int = SHOWN) -> Dashboard:
    roles = dict(Membership.objects.filter(user=user.pk).values_list("club_id", "role"))
    played, organized, waited, counts = _first_pages(user, shown)
    viewers = visibility.viewers_for(user, _unique([*played, *organized, *waited]))
    since = {c.pk: getattr(c, "waited", None) for c in waited}
    return Dashboard(
        clubs=[(club, roles.get(club.pk)) for club in visibility.clubs_for(user).order_by("name")],
        campaigns=played,
        waiting=sorted(
            waiting_for(user, (waited, viewers)), key=lambda row: _waited(since, row[0])
        )[:shown],
        organized=organized,
        waits=campaigns_waiting_on(
            [c for c in _unique([*played, *organized]) if c.status == Campaign.ACTIVE]
        ),
        played_count=counts[PLAYED],
        organized_count=counts[ORGANIZED],
        waiting_count=counts[WAITING],
    )


WAITING = OTHER + 1  # the dashboard's list of what a notice names, beside campaign_lists'


def _first_pages(
    user: Person, shown: int
) -> tuple[list[Campaign], list[Campaign], list[Campaign], dict[int, int]]:
    """The first `shown` campaigns one plays or referees, of those one organizes only, and of
    those in play one may act in (a notice's first: what waits for the person); how many of each
    list there are (of the last, how many a notice names). One query reads every list's first
    keys, in order, each row with the counts; a second the rows shown."""
    rows = prepared.rows(
        _first_pages_sql(),
        [*mine_params(user), shown, shown, shown],
        {1: Notice._meta.get_field("created_at")},
    )
    # By key alone: these keys are of the person's campaigns (the query above chose them).
    by_pk = Campaign.objects.select_related("club", "referee").in_bulk([row[0] for row in rows])
    lists: dict[int, list[tuple[int, Campaign]]] = {PLAYED: [], ORGANIZED: [], WAITING: []}
    for pk, waited, list_, place, *_ in rows:
        campaign = by_pk[pk]
        campaign.waited = waited  # type: ignore[attr-defined]  # since when it waits for them
        lists[list_].append((place, campaign))
    # Every row carries the three counts; no row: every list is empty.
    counts = dict(
        zip((PLAYED, ORGANIZED, WAITING), rows[0][4:] if rows else (0, 0, 0), strict=True)
    )
    played, organized, waited_ = (
        [c for _, c in sorted(lists[n], key=lambda r: r[0])] for n in (PLAYED, ORGANIZED, WAITING)
    )
    return played, organized, waited_, counts


def mine(user: Person, number: int, size: int) -> tuple[list[Campaign], int, dict[int, list[str]]]:
    """Page `number` (from 1) of every campaign one plays, referees or organizes, `size` a page:
    those one plays first, each list in the dashboard's order; how many in all; whom each shown
    campaign waits for."""
    found, count = played_or_organized(user, (number - 1) * size, size)
    if not found and count:  # past the last page: the last
        last = -(-count // size)
        found, count = played_or_organized(user, (last - 1) * size, size)
    waits = campaigns_waiting_on([c for c in found if c.status == Campaign.ACTIVE])
    return found, count, waits


def _first_pages_sql() -> str:
    """The query of `_first_pages`, over the lists' rows and in their order (campaign_lists):
    the parameters of `mine_params`, then how many a list shows, once per list.

    Each list is its first rows alone (`ORDER BY ... LIMIT`: the database keeps the best few as
    it reads, it never sorts or numbers them all), numbered once taken; the counts are one pass
    of sums over the same rows, beside every row."""
    if "first" not in _SQL:
        lists = {
            PLAYED: f"listing = {PLAYED}",
            ORGANIZED: f"listing = {ORGANIZED}",
            WAITING: f"in_play = 1 AND (listing <> {OTHER} OR waited IS NOT NULL)",
        }
        firsts = " UNION ALL ".join(
            f"SELECT id, waited, {list_} AS list_, ROW_NUMBER() OVER (ORDER BY {ORDER}) AS place "
            f"FROM (SELECT * FROM mine WHERE {where} ORDER BY {ORDER} LIMIT %s) first_{list_}"
            for list_, where in lists.items()
        )
        _SQL["first"] = (
            f"WITH mine AS ({mine_sql()}), "
            f"counted AS (SELECT SUM(CASE WHEN listing = {PLAYED} THEN 1 ELSE 0 END) AS played, "
            f"SUM(CASE WHEN listing = {ORGANIZED} THEN 1 ELSE 0 END) AS organized, "
            "SUM(CASE WHEN in_play = 1 AND waited IS NOT NULL THEN 1 ELSE 0 END) AS named "
            "FROM mine) "
            "SELECT firsts.id, firsts.waited, firsts.list_, firsts.place, "
            "counted.played, counted.organized, counted.named "
            f"FROM ({firsts}) firsts CROSS JOIN counted"
        )
    return _SQL["first"]


_SQL: dict[str, str] = {}  # the queries written out, once


def _unique(campaigns: Sequence[Campaign]) -> list[Campaign]:
    seen: dict[int, Campaign] = {}
    for campaign in campaigns:
        seen.setdefault(campaign.pk, campaign)
    return list(seen.values())


def _waited(since: dict[int, datetime | None], campaign: Campaign) -> tuple[bool, float]:
    """Longest waiting first (by the person's notices); the others after them, in their order."""
    at = since.get(campaign.pk)
    return at is None, at.timestamp() if at else 0.0
