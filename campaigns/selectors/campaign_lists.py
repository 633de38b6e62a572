"""The lists of a person's campaigns (the dashboard's, the club page's, "my campaigns"), paged in
SQL: each page read with a count of them all from the query that orders them (a window count over
the keys), then its rows by key; in the order the person expects: what waits for them first (their
open waiting notices, drawn from their own cut), then in play, being set up, finished, then the
latest public change (`updated_at`, which a side's hidden step leaves alone)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import (
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)

from campaigns.access import visibility

from ..models import Campaign, Notice, SidePlayer

Person = AbstractBaseUser | AnonymousUser


def listed(user: Person, clubs: Sequence[int] | None = None) -> QuerySet[Campaign]:
    """The person's campaigns out of the archive, each with `waited` (since when something has
    waited there for them: their oldest open waiting notice) and `played` (they play a side or
    referee it), in the lists' order: what has waited longest first, then in play, being set up,
    finished, then the latest public change first. `clubs`: the person's clubs, when the caller
    read them (the query then starts from their campaigns, not from every campaign's row)."""
    waited = (
        Notice.objects.filter(
            recipient=user.pk, campaign=OuterRef("pk"), waiting=True, resolved_at=None
        )
        .order_by()
        .values("campaign")
        .annotate(since=Min("created_at"))
        .values("since")
    )
    seats = SidePlayer.objects.filter(user=user.pk).values("side__campaign_id")
    mine = visibility.campaigns_for(user)
    if clubs is not None:
        mine = mine.filter(club_id__in=list(clubs))
    return (
        mine.filter(archived_at=None)
        .annotate(waited=Subquery(waited[:1]))
        .alias(
            played=ExpressionWrapper(
                # (a campaign without a referee is no NULL here: False, not unknown)
                Q(referee__isnull=False, referee=user.pk) | Q(pk__in=seats),
                output_field=BooleanField(),
            )
        )
        .order_by(F("waited").asc(nulls_last=True), in_play_first(), "-updated_at", "-pk")
    )


def page_of(
    rows: QuerySet[Campaign], start: int, size: int, related: Sequence[str] = ("club", "referee")
) -> tuple[list[Campaign], int]:
    """Rows `start` to `start + size` and how many there are, counted by the query that orders
    them (a window count), which reads only their keys (and `waited`, when `rows` has it): the
    page's rows are read after it, by key, with `related` (a second query, a count, for a start
    past the last row)."""
    waited = ["waited"] if "waited" in rows.query.annotations else []
    keys = list(
        rows.annotate(listed_count=Window(Count("pk"))).values_list("pk", "listed_count", *waited)[
            start : start + size
        ]
    )
    if not keys:
        return [], rows.count() if start else 0
    # By key alone: these keys are of the person's campaigns (the query above chose them).
    by_pk = Campaign.objects.select_related(*related).in_bulk([row[0] for row in keys])
    found = []
    for pk, _, *since in keys:
        campaign = by_pk[pk]
        campaign.waited = since[0] if since else None  # type: ignore[attr-defined]
        found.append(campaign)
    return found, keys[0][1]


def in_play_first() -> Case:
    """Campaigns in play first, then those being set up, then finished ones (the status names'
    alphabetical order put a new campaign after every finished one: off a page that shows the
    first few)."""
    return Case(
        When(status=Campaign.ACTIVE, then=Value(0)),
        When(status=Campaign.SETUP, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
