"""The lists of a person's campaigns (the dashboard's, the club page's, "my campaigns"), paged in
SQL: each page read with a count of them all from the query that orders them (a window count over
the keys), then its rows by key; in the order the person expects: what waits for them first (their
open waiting notices, drawn from their own cut), then in play, being set up, finished, then the
latest public change (`updated_at`, which a side's hidden step leaves alone).

The lists' rows and their order are written once, as SQL (`mine_sql`, `ORDER`), which every list
reads: building the query with the ORM took longer than the database took to answer it. The
dashboard reads all its lists in one query over the same rows (campaigns.selectors.dashboard)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, Count, IntegerField, QuerySet, Value, When, Window

from campaigns.kept_answers import prepared

from ..models import Campaign, Membership, Notice, Side, SidePlayer

Person = AbstractBaseUser | AnonymousUser

# In play first, then being set up, then every other status (finished): the status names'
# alphabetical order put a new campaign after every finished one, off a page that shows the first.
STAGES = (Campaign.ACTIVE, Campaign.SETUP)

# A row's list: the person plays a side or referees; organizes its club only; neither (a member).
PLAYED, ORGANIZED, OTHER = range(3)

# The lists' order over the rows of `mine_sql`: what has waited longest for the person first, then
# by stage, then the latest public change first (the key last: the same order every time).
ORDER = "waited IS NULL, waited, stage, updated_at DESC, id DESC"


def mine_sql(where: str = "") -> str:
    """The person's campaigns out of the archive (of the clubs they are a member of, as
    `visibility.campaigns_for`), one row each: `id`, `updated_at`, `waited` (since when something
    has waited there for them: their oldest open waiting notice, else NULL), `listing` (PLAYED,
    ORGANIZED, OTHER), `in_play` (1 in play, else 0) and `stage` (the place of its status in
    STAGES). `where`: more conditions on the campaign `c`, each with its own parameters after
    `mine_params`."""
    from django.db import connection

    table = {m: m._meta.db_table for m in (Campaign, Notice, SidePlayer, Side, Membership)}
    stages = " ".join(f"WHEN '{status}' THEN {n}" for n, status in enumerate(STAGES))
    open_waiting = (
        f"FROM {table[Notice]} n WHERE n.recipient_id = %s AND n.waiting AND n.resolved_at IS NULL"
    )
    if connection.vendor == "postgresql":
        # The person's open waiting notices, read once (a join), not looked up row by row.
        waited, joined = (
            "w.waited",
            (
                f"LEFT JOIN (SELECT n.campaign_id, MIN(n.created_at) AS waited {open_waiting} "
                "GROUP BY n.campaign_id) w ON w.campaign_id = c.id "
            ),
        )
    else:
        # SQLite: looked up row by row, the first of the campaign's entries in the index
        # open_waiting_notices (the join had grouped them all, then built an index of its own).
        waited, joined = f"(SELECT MIN(n.created_at) {open_waiting} AND n.campaign_id = c.id)", ""
    return (
        "SELECT c.id, c.updated_at, "
        "CASE WHEN c.referee_id = %s OR c.id IN (SELECT sd.campaign_id FROM "
        f"{table[SidePlayer]} sp JOIN {table[Side]} sd ON sd.id = sp.side_id "
        f"WHERE sp.user_id = %s) THEN {PLAYED} WHEN c.club_id IN (SELECT o.club_id FROM "
        f"{table[Membership]} o WHERE o.user_id = %s AND o.role = %s) THEN {ORGANIZED} "
        f"ELSE {OTHER} END AS listing, "
        f"CASE WHEN c.status = '{Campaign.ACTIVE}' THEN 1 ELSE 0 END AS in_play, "
        f"CASE c.status {stages} ELSE {len(STAGES)} END AS stage, "
        f"{waited} AS waited "
        f"FROM {table[Campaign]} c {joined}"
        "WHERE c.archived_at IS NULL AND c.club_id IN "
        f"(SELECT m.club_id FROM {table[Membership]} m WHERE m.user_id = %s){where}"
    )


def mine_params(user: Person) -> list[Any]:
    """The parameters of `mine_sql`, before those of its `where`."""
    return [user.pk, user.pk, user.pk, Membership.ORGANIZER, user.pk, user.pk]


def club_list(user: Person, club: int, size: int) -> tuple[list[Campaign], int]:
    """The first `size` of the person's campaigns of the club `club` out of the archive, in the
    lists' order, and how many there are."""
    return _page(_SQL_OF["club"], [*mine_params(user), club], 0, size)


def played_or_organized(user: Person, start: int, size: int) -> tuple[list[Campaign], int]:
    """Rows `start` to `start + size` of the campaigns the person plays or referees, then of those
    they organize only (each in the lists' order), and how many there are (a start past the
    last: none, and how many)."""
    return _page(_SQL_OF["mine"], mine_params(user), start, size)


def _page(sql: str, params: list[Any], start: int, size: int) -> tuple[list[Campaign], int]:
    """Rows `start` to `start + size` of `sql` (rows of id, waited, how many in all), read by key
    with their club and referee, each with `waited`; and how many there are."""
    keys = prepared.rows(sql, [*params, size, start], {1: Notice._meta.get_field("created_at")})
    if not keys:
        if not start:
            return [], 0
        counted = prepared.rows(sql, [*params, 1, 0], {})
        return [], counted[0][2] if counted else 0
    # By key alone: these keys are of the person's campaigns (the query above chose them).
    by_pk = Campaign.objects.select_related("club", "referee").in_bulk([row[0] for row in keys])
    found = []
    for pk, waited, _ in keys:
        campaign = by_pk[pk]
        campaign.waited = waited  # type: ignore[attr-defined]  # since when it waits for them
        found.append(campaign)
    return found, keys[0][2]


def _sql_of() -> dict[str, str]:
    paged = " LIMIT %s OFFSET %s"
    return {
        "club": (
            f"WITH mine AS ({mine_sql(' AND c.club_id = %s')}) "
            f"SELECT id, waited, COUNT(*) OVER () FROM mine ORDER BY {ORDER}{paged}"
        ),
        "mine": (
            f"WITH mine AS ({mine_sql()}) SELECT id, waited, COUNT(*) OVER () FROM mine "
            f"WHERE listing <> {OTHER} ORDER BY listing, {ORDER}{paged}"
        ),
    }


_SQL_OF = _sql_of()  # written out once


def page_of(
    rows: QuerySet[Campaign], start: int, size: int, related: Sequence[str] = ("club", "referee")
) -> tuple[list[Campaign], int]:
    """Rows `start` to `start + size` of a queryset and how many there are, counted by the query
    that orders them (a window count), which reads only their keys: the page's rows are read
    after it, by key, with `related` (a second query, a count, for a start past the last row)."""
    keys = list(
        rows.annotate(listed_count=Window(Count("pk"))).values_list("pk", "listed_count")[
            start : start + size
        ]
    )
    if not keys:
        return [], rows.count() if start else 0
    # By key alone: these keys are of the person's campaigns (the query above chose them).
    by_pk = Campaign.objects.select_related(*related).in_bulk([row[0] for row in keys])
    return [by_pk[pk] for pk, _ in keys], keys[0][1]


def in_play_first() -> Case:
    """The stage of a campaign's status (STAGES) as an ORM expression, for lists ordered by it."""
    return Case(
        *(When(status=status, then=Value(n)) for n, status in enumerate(STAGES)),
        default=Value(len(STAGES)),
        output_field=IntegerField(),
    )
