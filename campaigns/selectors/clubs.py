"""A club's page: members, campaigns side by side, invitations (organizers only), and invitation codes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, F, QuerySet, Value, When

from campaigns.access import visibility
from campaigns.journal.records import Viewer

from ..errors import Forbidden, NotFound
from ..models import Campaign, Club, ClubLogEntry, Invitation, Membership
from ..services.state import current_states
from . import club_tables
from .campaign_lists import STAGES, club_list, in_play_first, page_of
from .club_standings import ClubStandings, club_standings, wins_chart
from .waiting import campaigns_waiting_on


def club_invitations(*, user: User, club: Club) -> QuerySet[Invitation]:
    """A club's invitations: organizers only (they hold the codes)."""
    if not visibility.is_organizer(user, club):
        raise Forbidden("Only a club organizer can see invitations.")
    return club.invitations.select_related("created_by", "accepted_by")


def invitation_by_code(code: str) -> tuple[Invitation, None] | tuple[None, str]:
    """(invitation, None) when the code can be used, else (None, why not) in words
    a visitor may read: the club of a dead code is not named."""
    from django.utils import timezone

    from ..models import Invitation

    invitation = Invitation.objects.select_related("club").filter(code=code).first()
    if invitation is None:
        return (
            None,
            "This invitation code is not known. Check the link, or ask the organizer for a new one.",
        )
    if invitation.revoked:
        return None, "This invitation was withdrawn by the club. Ask the organizer for a new one."
    if invitation.accepted_at is not None:
        return None, "This invitation has already been used. Each invitation admits one person."
    if invitation.expires_at <= timezone.now():
        return None, "This invitation has expired. Ask the organizer for a new one."
    return invitation, None


@dataclass
class ClubPage:
    club: Club
    role: str | None
    members: list[Membership]
    campaigns: list[Campaign]
    invitations: list[Invitation] | None  # organizers only
    log: list[ClubLogEntry] | None = (
        None  # organizers only: who changed members, roles, invitations
    )
    comparisons: list[Comparison] = field(default_factory=list)  # the club's campaigns side by side
    waiting: dict[int, list[str]] = field(
        default_factory=dict
    )  # campaign pk -> whom it waits for, in words
    standings: ClubStandings = field(default_factory=ClubStandings)  # across campaigns, over time
    archived: list[Campaign] = field(default_factory=list)  # out of the lists, newest first
    more: bool = False  # the page shows only the first of its lists (CLUB_SHOWN)
    count: int = 0  # the club's campaigns, archived ones included, when `more`
    archived_count: int = 0  # the club's archived campaigns, when `more`


@dataclass(frozen=True)
class Comparison:
    """The club's campaigns of one game system side by side (GameSystem.comparison_row)."""

    system: str
    columns: tuple[str, ...]
    rows: tuple[ComparisonRow, ...]


# (campaign, players, dice in words, values) per campaign
ComparisonRow = tuple[Campaign, str, str, tuple[Any, ...]]

DICE_WORDS = {
    frozenset(): "none rolled yet",
    frozenset({"server"}): "rolled by the server",
    frozenset({"entered"}): "entered from the table",
    frozenset({"server", "entered"}): "server and entered",
}


def club_comparisons(campaigns: Sequence[Campaign]) -> list[Comparison]:
    """For each game system that compares its campaigns, one table of the campaigns' rows, read
    from what any club member may see of each (never a side's private part), with who plays and
    how the public dice were rolled."""
    from ..models import Event, SidePlayer
    from ..systems import all_systems

    systems = all_systems()
    compared = [
        c
        for c in campaigns
        if c.system in systems
        and systems[c.system].comparison_columns
        and c.status != Campaign.SETUP
    ]
    if not compared:
        return []
    states = current_states(compared)
    sources: dict[int, set[str]] = {c.pk: set() for c in compared}
    for campaign_id, source in (
        Event.objects.filter(
            campaign__in=[c.pk for c in compared],
            kind="dice.rolled",
            audience=Event.PUBLIC,
        )
        .values_list("campaign_id", "data__source")
        .distinct()
    ):
        sources[campaign_id].add(source)
    players: dict[int, list[str]] = {c.pk: [] for c in compared}
    for campaign_id, username in (
        SidePlayer.objects.filter(side__campaign__in=compared)
        .order_by("user__username")
        .values_list("side__campaign_id", "user__username")
    ):
        players[campaign_id].append(username)
    member = Viewer.club_member()
    tables: list[Comparison] = []
    for slug in sorted({c.system for c in compared}):
        system = systems[slug]
        rows: list[ComparisonRow] = []
        for campaign in (c for c in compared if c.system == slug):
            values = system.comparison_row(visibility.view_state(states[campaign.pk], member))
            if values is not None:
                dice = DICE_WORDS.get(frozenset(sources[campaign.pk]), "")
                rows.append((campaign, ", ".join(players[campaign.pk]), dice, tuple(values)))
        if rows:
            tables.append(Comparison(system.name, tuple(system.comparison_columns), tuple(rows)))
    return tables


CLUB_LOG_SHOWN = 30
CLUB_SHOWN = 15  # of the club's campaigns and of its archived ones on the club page


def club_page(user: User, club: Club, first: int = CLUB_SHOWN) -> ClubPage:
    """The club page as `user` sees it: the first `first` of its campaigns (what waits for the
    person first, then in play, then the latest public change; counted) and of its archived ones
    (the latest first; counted), read as such in SQL, their tables across campaigns with them, and
    the chart of wins across them all."""
    role = visibility.role_in(user, club)
    if role is None:
        raise NotFound("club")
    invitations: list[Invitation] | None = None
    log: list[ClubLogEntry] | None = None
    if role == "organizer":
        invitations = list(club_invitations(user=user, club=club).order_by("-created_at", "-pk"))
        log = list(club.log.select_related("actor")[:CLUB_LOG_SHOWN])
    campaigns, count = club_list(user, club.pk, first)
    archived, archived_count = page_of(
        visibility.campaigns_for(user)
        .filter(club=club, archived_at__isnull=False)
        .order_by("-archived_at", "-pk"),
        0,
        first,
        related=("club", "referee", "archived_by"),
    )
    chart = club_tables.chart(club.pk, _wins_chart_of(club))
    return replace(
        _with_tables(club, campaigns, archived, campaigns, "first", chart),
        role=role,
        members=list(club.memberships.select_related("user").order_by("user__username")),
        invitations=invitations,
        log=log,
        more=count > len(campaigns) or archived_count > len(archived),
        count=count + archived_count,
        archived_count=archived_count,
    )


def club_campaigns(user: User, club: Club, number: int, size: int) -> tuple[ClubPage, int]:
    """Page `number` (from 1; past the last: the last) of every campaign of the club, `size` a
    page, read as such in SQL: those out of the archive first (in play, being set up, finished;
    the latest public change first), then the archived ones (the latest archived first); with
    their tables across campaigns (no chart); and how many campaigns there are."""
    if visibility.role_in(user, club) is None:
        raise NotFound("club")
    rows = (
        visibility.campaigns_for(user)
        .filter(club=club)
        .order_by(
            Case(When(archived_at=None, then=Value(0)), default=Value(1)),
            Case(When(archived_at=None, then=in_play_first()), default=Value(0)),
            Case(When(archived_at=None, then=F("updated_at")), default=F("archived_at")).desc(),
            "-pk",
        )
    )
    related = ("club", "referee", "archived_by")
    found, count = page_of(rows, (number - 1) * size, size, related)
    if not found and count:  # past the last page: the last
        found, count = page_of(rows, (-(-count // size) - 1) * size, size, related)
    campaigns = [c for c in found if c.archived_at is None]
    archived = [c for c in found if c.archived_at is not None]
    # The standings in the club's order of every campaign, archived or not (in play first).
    tabled = sorted(found, key=lambda c: (STAGES_RANK.get(c.status, len(STAGES)), -_at(c), -c.pk))
    return _with_tables(club, campaigns, archived, tabled, "page", None), count


STAGES_RANK = {status: n for n, status in enumerate(STAGES)}


def _at(campaign: Campaign) -> float:
    return campaign.updated_at.timestamp()


def _with_tables(
    club: Club,
    campaigns: list[Campaign],
    archived: list[Campaign],
    tabled: list[Campaign],
    part: str,
    chart: dict[str, Any] | None,
) -> ClubPage:
    """A page of the club's `campaigns` (out of the archive) and `archived`, with the tables
    across them: comparisons and whom each waits for of `campaigns`, standings of `tabled` (an
    archived campaign's results still count), kept per their club positions (club_tables)."""

    def draw() -> club_tables.Kept:
        compared = club_comparisons(campaigns)
        standings = club_standings(tabled)
        return club_tables.Kept(
            comparisons=[
                (
                    t.system,
                    t.columns,
                    [(c.pk, players, dice, values) for c, players, dice, values in t.rows],
                )
                for t in compared
            ],
            waiting=campaigns_waiting_on([c for c in campaigns if c.status == Campaign.ACTIVE]),
            standings=[(c.pk, sides, result) for c, sides, result in standings.rows],
        )

    kept = club_tables.kept_or_drawn(club.pk, tabled, draw, part)
    by_pk = {c.pk: c for c in tabled}
    return ClubPage(
        club=club,
        role=None,
        members=[],
        campaigns=campaigns,
        invitations=None,
        comparisons=[
            Comparison(
                system,
                columns,
                tuple((by_pk[pk], players, dice, values) for pk, players, dice, values in rows),
            )
            for system, columns, rows in kept.comparisons
        ],
        waiting=kept.waiting,
        standings=ClubStandings(
            [(by_pk[pk], sides, result) for pk, sides, result in kept.standings], chart
        ),
        archived=archived,
    )


def _wins_chart_of(club: Club) -> Callable[[], dict[str, Any] | None]:
    """The chart of wins across every campaign of the club, archived ones too (read when not
    kept: every campaign's row, and the states of those whose part of it is not kept)."""

    def draw() -> dict[str, Any] | None:
        return wins_chart(
            list(
                Campaign.objects.filter(club=club).only(
                    "pk", "status", "system", "positions", "last_seq"
                )
            )
        )

    return draw


def members_of(club: Club) -> list[str]:
    return list(
        club.memberships.order_by("user__username").values_list("user__username", flat=True)
    )
