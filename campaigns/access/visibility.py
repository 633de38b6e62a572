"""Who may see what. The one place that decides it: pages, API, exports,
sheets, tasks and the admin all ask these functions.

Three audiences: the club (public), one side (its players and the referee), the
referee alone. A non-member sees nothing of a club: lookups raise NotFound
(404), never Forbidden, so a club's existence does not leak. An organizer who
plays a side sees what that side sees, no more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from campaigns.errors import NotFound
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import HeldState, StateView, plain
from campaigns.kept_answers import prepared
from campaigns.models import Campaign, Club, Event, Membership, SidePlayer

if TYPE_CHECKING:
    from rosters.models import PrintJob, RosterEntry

# Whoever asks: a signed-in person, or nobody (AnonymousUser).
Person = AbstractBaseUser | AnonymousUser

# --- querysets scoped to the person asking ------------------------------------------------


def clubs_for(user: Person) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user.pk)


def campaigns_for(user: Person) -> QuerySet[Campaign]:
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(club__memberships__user=user.pk).select_related(
        "club", "referee"
    )


def get_club_for(user: Person, slug: str) -> Club:
    club = clubs_for(user).filter(slug=slug).first()
    if club is None:
        raise NotFound("club")
    return club


def get_campaign_for(user: Person, pk: object) -> Campaign:
    try:
        campaign = campaigns_for(user).filter(pk=int(pk)).first()  # type: ignore[call-overload]  # a TypeError is the answer for what int() cannot read
    except (TypeError, ValueError):
        campaign = None
    if campaign is None:
        raise NotFound("campaign")
    return campaign


def role_in(user: Person, club: Club) -> str | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user.pk).values_list("role", flat=True).first()


def is_organizer(user: Person, club: Club) -> bool:
    return role_in(user, club) == Membership.ORGANIZER


def organizer_since(campaign: Campaign, viewer: Viewer, seq: int | None) -> bool:
    """Has this viewer been an organizer of the campaign's club, without a break, since the
    campaign's event `seq` (read from the club log)? What the sides agreed to, or what play started
    with, was the organizers as they were: one made organizer afterwards (set_role, an invitation,
    the operator), a player of the other side or a fresh account named by one, never gains a path
    or a power by it. An organizer with no entry in the club log (made before the log
    existed) counts as before."""
    from campaigns.models import ClubLogEntry

    if not viewer.organizer or seq is None:
        return False
    since = Event.objects.filter(campaign=campaign, seq=seq).values("created_at")[:1]
    made = (
        Q(action="member.role", detail__username=viewer.username, detail__new=Membership.ORGANIZER)
        | Q(action="member.organizer", detail__username=viewer.username)
        | Q(
            action="invitation.accepted",
            actor__username=viewer.username,
            detail__role=Membership.ORGANIZER,
        )
        | Q(action="club.created", actor__username=viewer.username)
    )
    return not ClubLogEntry.objects.filter(made, club_id=campaign.club_id, at__gt=since).exists()


def organizer_when_export_agreed(
    campaign: Campaign, viewer: Viewer, approved_seq: int | None
) -> bool:
    """An organizer since the sides agreed to a full export (the event `approved_seq`, state
    "export_approved"): they agreed for the organizers as they were."""
    return organizer_since(campaign, viewer, approved_seq)


def organizer_since_start(campaign: Campaign, viewer: Viewer) -> bool:
    """An organizer since play started: one made organizer in play is nobody's neutral judge
    (settling disputes, seats.may_settle); a new judge is a referee the sides agree to."""
    started = campaign.events.filter(kind="campaign.started").values_list("seq", flat=True).first()
    return started is None or organizer_since(campaign, viewer, started)


def organizer_made_by_a_player(campaign: Campaign, viewer: Viewer, players: Iterable[str]) -> bool:
    """Was this organizer made organizer, while the campaign was being set up (from its creation
    to its start), by one of `players` (those who played a side of it: the state's "played")?
    From the club log: a role set to organizer (member.role, its actor), an invitation as
    organizer accepted (invitation.accepted, the invitation's creator). Such an organizer may be
    that side's choice of judge: no neutral party once play has started. Before the start, or
    made before the campaign was created, by the operator, or by one who never played it: no."""
    from campaigns.models import ClubLogEntry, Invitation

    who = set(players)
    if not viewer.organizer or not who:
        return False
    times = dict(
        campaign.events.filter(kind__in=("campaign.created", "campaign.started")).values_list(
            "kind", "created_at"
        )
    )
    if "campaign.started" not in times:
        return False
    made = ClubLogEntry.objects.filter(
        Q(action="member.role", detail__username=viewer.username, detail__new=Membership.ORGANIZER)
        | Q(
            action="invitation.accepted",
            actor__username=viewer.username,
            detail__role=Membership.ORGANIZER,
        ),
        club_id=campaign.club_id,
        at__gte=times.get("campaign.created", times["campaign.started"]),
        at__lte=times["campaign.started"],
    ).values_list("action", "actor__username", "detail")
    for action, actor, detail in made:
        maker: str | None = actor
        if action == "invitation.accepted":
            maker = (
                Invitation.objects.filter(pk=detail.get("invitation"))
                .values_list("created_by__username", flat=True)
                .first()
            )
        if maker in who:
            return True
    return False


def viewer_for(user: Person, campaign: Campaign) -> Viewer:
    role = role_in(user, campaign.club)
    if role is None:
        return Viewer(username=None)
    playing = (
        SidePlayer.objects.filter(side__campaign=campaign, user=user.pk)
        .values_list("side__slug", flat=True)
        .first()
    )
    if campaign.referee_id is not None and campaign.referee_id == user.pk:
        sides = frozenset(campaign.sides.values_list("slug", flat=True))
        return Viewer(
            user.get_username(),
            sides,
            referee=True,
            organizer=role == Membership.ORGANIZER,
            member=True,
        )
    return Viewer(
        user.get_username(),
        frozenset([playing]) if playing else frozenset(),
        playing=playing,
        organizer=role == Membership.ORGANIZER,
        member=True,
    )


def campaign_and_viewer(user: Person, pk: object, *, lock: bool = False) -> tuple[Campaign, Viewer]:
    """``get_campaign_for`` and ``viewer_for`` in one query: the campaign row with its club,
    the requester's membership (none: not found) and seat, and its people's names. Every
    request of a campaign's pages and API starts here, and an answer kept per audience costs
    little more, so the query is written once (``_campaign_sql``) rather than built each time.
    A referee reads every side of the system (the campaign's sides are the system's).
    `lock`: the campaign row is locked for the current transaction (the journal's writers)."""
    from django.db import connection

    if not user.is_authenticated:
        raise NotFound("campaign")
    pk = _campaign_pk(pk)
    kept = getattr(user, "signed_in_campaign", None)
    if kept is not None and kept[0] == pk and not lock:
        delattr(
            user, "signed_in_campaign"
        )  # read with the user (campaigns.access.signed_in): used once, by the first asking
        return kept[1], kept[2]
    sql = _campaign_sql("plain")
    if lock and connection.features.has_select_for_update_of:  # SQLite serialises writers by itself
        sql += " FOR UPDATE OF c"
    found = prepared.one(Campaign, sql, [user.pk, user.pk, pk], _extra("plain")) if pk else None
    if found is None:
        raise NotFound("campaign")
    return _campaign_and_viewer(found, user.pk, user.get_username())


def signed_in_campaign(
    user_id: object, pk: object, session_key: str, header: bool = True
) -> tuple[User, bool, Campaign, Viewer] | None:
    """``campaign_and_viewer`` for the user of a session, with what decides whether the session
    still signs them in (``campaigns.access.signed_in``): the user (their whole row) and whether the
    session's row is there and unexpired. One query for all. None where ``campaign_and_viewer``
    raises NotFound. `header`: with what a page's header and sheets panel read about the person
    (an API answer reads none of it, and its query is the cheaper without)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    pk = _campaign_pk(pk, missing=0)
    params = [user_id, session_key, timezone.now(), user_id, pk]
    kind = "signed_in" if header else "signed_in_bare"
    row = prepared.one(Campaign, _campaign_sql(kind), params, _extra(kind)) if pk else None
    if row is None:
        return None
    User = get_user_model()
    user = prepared.build(
        User, [getattr(row, f"me_{f.column}") for f in User._meta.concrete_fields]
    )
    if header:
        setattr(user, READ_WITH_SIGN_IN, {"unread": int(row.me_unread), "paper": row.me_paper})
        setattr(row, PRINT_JOBS_READ_WITH_SIGN_IN, bool(row.my_print_jobs))
    return (user, bool(row.session_live), *_campaign_and_viewer(row, user.pk, user.get_username()))


def signed_in_campaign_list(
    user_id: object, session_key: str, club_slug: str, limit: int
) -> tuple[User, bool, list[tuple[Any, ...]], int] | None:
    """The campaigns of the session user's clubs (of the club `club_slug`, or of all when it is
    empty), newest first: the first `limit` and how many in all, with what decides whether the
    session still signs them in (``campaigns.access.signed_in``): the user (id, password, active; the rest
    deferred) and whether the session's row is there and unexpired. Archived campaigns are left
    out, as the list leaves them out unless asked (api.filters.CampaignFilter). One query, whose
    cost does not follow the number of campaigns (the count reads an index). Rows are the values
    of the list's columns, in their order (``api.campaigns._SUMMARY_COLUMNS``: id, name, club slug
    and name, system, variant, status, referee's and creator's usernames, created_at,
    archived_at). None when the user is gone."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    User = get_user_model()
    # Only what decides the sign-in (every row repeats it): the user's row is not needed here.
    me = [User._meta.pk.column, "password", "is_active"]
    if "list" not in _SQL:
        _SQL["list"] = _list_sql(me)
    width = len(me)
    found = prepared.rows(
        _SQL["list"],
        [
            user_id,
            club_slug,
            club_slug,
            *[limit] * _SQL["list"].count("LIMIT %s"),
            session_key,
            timezone.now(),
            user_id,
        ],
        {
            width + 10: Campaign._meta.get_field("created_at"),
            width + 11: Campaign._meta.get_field("archived_at"),
        },
    )
    if not found:
        return None
    first = found[0]
    user = User.from_db(
        User.objects.db,
        [User._meta.pk.attname, "password", "is_active"],
        [first[0], first[1], bool(first[2])],
    )
    # Each row's list columns as read, in their order: no mapping made per row.
    campaigns = [row[width + 1 : width + 12] for row in found if row[width + 1]]
    return user, bool(first[width]), campaigns, first[width + 12]


def _list_sql(me: Sequence[str | None]) -> str:
    """The query of `signed_in_campaign_list` (`me`: the user's columns it reads)."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    User = get_user_model()
    table = {m: m._meta.db_table for m in (Campaign, Club, Membership, Session, User)}
    # The person's clubs first (one or a few rows), then the page of their campaigns and
    # the count of them all, each from the campaigns of those clubs alone (the index
    # campaigns_listed: the count reads its entries, not the rows; the page the first rows):
    # a count over the joined rows had joined and sorted every campaign to count them.
    return (
        "WITH clubs AS ("
        f"SELECT cl.id, cl.slug, cl.name FROM {table[Membership]} m "
        f"JOIN {table[Club]} cl ON cl.id = m.club_id "
        "WHERE m.user_id = %s AND (%s = '' OR cl.slug = %s)), "
        f"page AS ({_list_page_sql(table[Campaign])}) "
        f"SELECT {', '.join(f'me.{column}' for column in me)}, "
        f"EXISTS (SELECT 1 FROM {table[Session]} ds WHERE ds.session_key = %s AND ds.expire_date > %s), "
        "c.id, c.name, cl.slug, cl.name, c.system, c.variant, c.status, rf.username, cb.username, c.created_at, "
        "c.archived_at, "
        f"({_listed_count_sql(table[Campaign])}) "
        f"FROM {table[User]} me "
        "LEFT OUTER JOIN page c ON TRUE "
        "LEFT OUTER JOIN clubs cl ON cl.id = c.club_id "
        f"LEFT OUTER JOIN {table[User]} cb ON cb.id = c.created_by_id "
        f"LEFT OUTER JOIN {table[User]} rf ON rf.id = c.referee_id "
        "WHERE me.id = %s ORDER BY c.created_at DESC NULLS LAST, c.id DESC"
    )


def _listed_count_sql(campaigns: str) -> str:
    """How many campaigns of the clubs (the CTE `clubs`) are out of the archive: the entries of
    the index campaigns_listed, not the rows. SQLite's planner takes the plain index on the club
    (it does not see that the partial index holds every column the count reads) and reads each
    row for its archived_at: named, it counts the index's entries alone, in half the time."""
    from django.db import connection

    named = " INDEXED BY campaigns_listed" if connection.vendor == "sqlite" else ""
    return (
        f"SELECT COUNT(*) FROM {campaigns} n{named} "
        "WHERE n.club_id IN (SELECT id FROM clubs) AND n.archived_at IS NULL"
    )


def _list_page_sql(campaigns: str) -> str:
    """The page of the campaign list: the newest campaigns of the clubs (the CTE `clubs`) out of
    the archive. On PostgreSQL each club's newest are read from the index campaigns_listed, as
    many as the page holds, then the page taken from them (LATERAL): what it reads does not
    follow the number of campaigns. SQLite has no LATERAL: each club's newest are the keys of a
    subquery correlated with the club (`IN (... LIMIT)`), read from the same index, where a plain
    `IN` over the clubs had read and sorted every campaign of the club."""
    from django.db import connection

    columns = (
        "c.id, c.name, c.club_id, c.system, c.variant, c.status, c.referee_id, c.created_by_id, "
        "c.created_at, c.archived_at"
    )
    newest = "ORDER BY c.created_at DESC, c.id DESC LIMIT %s"
    if connection.vendor == "postgresql":
        return (
            f"SELECT p.* FROM clubs pc CROSS JOIN LATERAL (SELECT {columns} FROM {campaigns} c "
            f"WHERE c.club_id = pc.id AND c.archived_at IS NULL {newest}) p "
            "ORDER BY p.created_at DESC, p.id DESC LIMIT %s"
        )
    return (
        f"SELECT {columns} FROM clubs pc JOIN {campaigns} c ON c.id IN (SELECT n.id FROM "
        f"{campaigns} n WHERE n.club_id = pc.id AND n.archived_at IS NULL "
        f"ORDER BY n.created_at DESC, n.id DESC LIMIT %s) {newest}"
    )


def _campaign_pk(pk: object, missing: int | None = None) -> int:
    try:
        number: int = int(pk)  # type: ignore[call-overload]  # what int() cannot read is no campaign
    except (TypeError, ValueError):
        number = 0
    if 0 < number < 2**63:
        return number
    if missing is None:
        raise NotFound("campaign")
    return missing


def _campaign_and_viewer(campaign: Any, user_id: int, username: str) -> tuple[Campaign, Viewer]:
    """`campaign`: a row of _campaign_sql, the campaign with the columns of `_extra` set on it."""
    from django.contrib.auth import get_user_model

    from campaigns.systems import get_system

    User = get_user_model()
    campaign.club = Club.from_db(
        campaign._state.db,
        ["id", "name", "slug"],
        [campaign.club_id, campaign.club_name, campaign.club_slug],
    )
    campaign.created_by = User.from_db(
        campaign._state.db, ["id", "username"], [campaign.created_by_id, campaign.created_by_name]
    )
    if campaign.referee_id is not None:
        campaign.referee = User.from_db(
            campaign._state.db, ["id", "username"], [campaign.referee_id, campaign.referee_name]
        )
    organizer = campaign.my_role == Membership.ORGANIZER
    if campaign.referee_id is not None and campaign.referee_id == user_id:
        sides = frozenset(get_system(campaign.system).side_slugs())
        return campaign, Viewer(username, sides, referee=True, organizer=organizer, member=True)
    playing = campaign.my_side
    return campaign, Viewer(
        username,
        frozenset([playing]) if playing else frozenset(),
        playing=playing,
        organizer=organizer,
        member=True,
    )


# the lookups written once: "plain", "signed_in", "signed_in_bare" (_campaign_sql), "list"
_SQL: dict[str, str] = {}


def _extra(kind: str) -> tuple[str, ...]:
    """The columns of _campaign_sql(kind) after the campaign's own, in order."""
    from django.contrib.auth import get_user_model

    core = ("my_role", "club_name", "club_slug", "created_by_name", "referee_name", "my_side")
    if kind == "plain":
        return core
    me = (*(f"me_{f.column}" for f in get_user_model()._meta.concrete_fields), "session_live")
    if kind == "signed_in_bare":
        return (*core, *me)
    return (*core, *me, "me_unread", "me_paper", "my_print_jobs")


# What the header and the sheets panel of every page read about the person, read with the sign-in
# (`signed_in_campaign`): one round trip fewer each on a page served kept.
READ_WITH_SIGN_IN = "read_with_sign_in"
MISSING = object()  # what `read_with_sign_in` answers for a user not read with the sign-in


# Whether the campaign read with the sign-in holds a print job the viewer may read (set on that
# campaign row): the sheets panel of a page served kept makes no query when it holds none.
PRINT_JOBS_READ_WITH_SIGN_IN = "print_jobs_read_with_sign_in"


def read_with_sign_in(user: object, name: str) -> Any:
    """`name` ("unread": open notices unread; "paper": the paper chosen, None for none) as read with
    the request's sign-in, or MISSING when this request's user was not read that way."""
    return getattr(user, READ_WITH_SIGN_IN, {}).get(name, MISSING)


def _header_figures_sql() -> str:
    """The person's unread open notices (their inbox's index), the paper they chose and whether
    the campaign holds a print job they read (the printing app's tables, named through the app
    registry: the rules here never import it)."""
    from django.apps import apps

    from campaigns.models import Notice, Side

    papers = apps.get_model("rosters", "PaperChoice")._meta.db_table
    jobs = apps.get_model("rosters", "PrintJob")._meta.db_table
    # Whether the campaign holds a print job of an audience this viewer reads (_print_job_audiences
    # for the viewer _campaign_and_viewer makes: the referee every one; a player "public" and their
    # side's; a member who plays no side "public"): never whether another side printed anything.
    return (
        f", (SELECT COUNT(*) FROM {Notice._meta.db_table} n WHERE n.recipient_id = me.id "
        "AND n.resolved_at IS NULL AND n.read_at IS NULL) AS me_unread"
        f", (SELECT pc.paper FROM {papers} pc WHERE pc.user_id = me.id ORDER BY pc.id LIMIT 1) "
        "AS me_paper"
        f", EXISTS (SELECT 1 FROM {jobs} pj WHERE pj.campaign_id = c.id AND (c.referee_id = me.id "
        "OR pj.audience = 'public' OR pj.audience = 'side:' || "
        f"(SELECT s.slug FROM {SidePlayer._meta.db_table} sp INNER JOIN {Side._meta.db_table} s "
        "ON sp.side_id = s.id WHERE s.campaign_id = c.id AND sp.user_id = me.id ORDER BY sp.id "
        "LIMIT 1))) AS my_print_jobs"
    )


def _campaign_sql(kind: str) -> str:
    """The lookup of ``campaign_and_viewer`` (params: user, user, campaign), from the models' tables;
    "signed_in": with the user's own row and their session's (``signed_in_campaign``; params: user,
    session key, now, user, campaign) and the page header's figures; "signed_in_bare": without
    those figures."""
    if kind not in _SQL:
        signed_in = kind != "plain"
        from django.contrib.auth import get_user_model
        from django.contrib.sessions.models import Session

        from campaigns.models import Side

        table = {
            m: m._meta.db_table
            for m in (Campaign, Club, Membership, Side, SidePlayer, get_user_model())
        }
        columns = ", ".join(f"c.{f.column}" for f in Campaign._meta.concrete_fields)
        me = "".join(
            f", me.{f.column} AS me_{f.column}" for f in get_user_model()._meta.concrete_fields
        )
        me = (
            (
                f"{me}, EXISTS (SELECT 1 FROM {Session._meta.db_table} ds "
                "WHERE ds.session_key = %s AND ds.expire_date > %s) AS session_live"
                f"{_header_figures_sql() if kind == 'signed_in' else ''}"
            )
            if signed_in
            else ""
        )
        join_me = (
            f" INNER JOIN {table[get_user_model()]} me ON me.id = m.user_id" if signed_in else ""
        )
        _SQL[kind] = (
            f"SELECT {columns}, m.role AS my_role, cl.name AS club_name, cl.slug AS club_slug, "
            f"cb.username AS created_by_name, rf.username AS referee_name, "
            f"(SELECT s.slug FROM {table[SidePlayer]} sp INNER JOIN {table[Side]} s ON sp.side_id = s.id "
            f"WHERE s.campaign_id = c.id AND sp.user_id = %s ORDER BY sp.id LIMIT 1) AS my_side{me} "
            f"FROM {table[Campaign]} c INNER JOIN {table[Club]} cl ON cl.id = c.club_id "
            f"INNER JOIN {table[Membership]} m ON m.club_id = c.club_id AND m.user_id = %s{join_me} "
            f"INNER JOIN {table[get_user_model()]} cb ON cb.id = c.created_by_id "
            f"LEFT OUTER JOIN {table[get_user_model()]} rf ON rf.id = c.referee_id WHERE c.id = %s"
        )
    return _SQL[kind]


def viewers_for(user: Person, campaigns: Iterable[Campaign]) -> dict[int, Viewer]:
    """``viewer_for`` of many campaigns at once, in a fixed number of queries (for lists
    such as the dashboard's "what waits for me"); same answers, campaign pk -> Viewer."""
    from campaigns.models import Side

    listed = list(campaigns)
    if not listed or not user.is_authenticated:
        return {c.pk: Viewer(username=None) for c in listed}
    roles = dict(
        Membership.objects.filter(
            user=user.pk, club_id__in={c.club_id for c in listed}
        ).values_list("club_id", "role")
    )
    playing = _seats_in(user.pk, [c.pk for c in listed])
    refereed = [c.pk for c in listed if c.referee_id is not None and c.referee_id == user.pk]
    sides: dict[int, set[str]] = {pk: set() for pk in refereed}
    for campaign_id, slug in Side.objects.filter(campaign_id__in=refereed).values_list(
        "campaign_id", "slug"
    ):
        sides[campaign_id].add(slug)
    viewers = {}
    for campaign in listed:
        role = roles.get(campaign.club_id)
        organizer = role == Membership.ORGANIZER
        if role is None:
            viewers[campaign.pk] = Viewer(username=None)
        elif campaign.pk in sides:
            viewers[campaign.pk] = Viewer(
                user.get_username(),
                frozenset(sides[campaign.pk]),
                referee=True,
                organizer=organizer,
                member=True,
            )
        else:
            side = playing.get(campaign.pk)
            viewers[campaign.pk] = Viewer(
                user.get_username(),
                frozenset([side]) if side else frozenset(),
                playing=side,
                organizer=organizer,
                member=True,
            )
    return viewers


def _seats_in(user_id: int, campaign_pks: Sequence[int]) -> dict[int, str]:
    """Campaign pk -> the side the person plays there, of the campaigns `campaign_pks` (in
    several: the seat taken first)."""
    from django.db import connection

    if not campaign_pks:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(len(campaign_pks)), [*campaign_pks, user_id])
        return dict(cursor.fetchall())  # newest seat first: the first seat's side is kept


def _seats_sql(campaigns: int) -> str:
    """The query of `_seats_in` for `campaigns` campaigns: their sides, then those sides' seats
    (`CROSS JOIN` keeps that order on SQLite, whose planner otherwise walks every seat of the
    person, one for each campaign they play, to find the few asked)."""
    from campaigns.models import Side

    keys = ", ".join(["%s"] * campaigns)
    return (
        f"SELECT sd.campaign_id, sd.slug FROM {Side._meta.db_table} sd "
        f"CROSS JOIN {SidePlayer._meta.db_table} sp WHERE sd.campaign_id IN ({keys}) "
        "AND sp.side_id = sd.id AND sp.user_id = %s ORDER BY sp.id DESC"
    )


def operator_viewer() -> Viewer:
    """Site operators in the admin: they run the site, they do not referee it."""
    return Viewer(username=None, member=True)


# --- the journal ---------------------------------------------------------------------


def audience_q(viewer: Viewer) -> Q:
    if viewer.referee:
        return Q()
    if not viewer.member:
        return Q(pk__in=[])
    return Q(audience=Event.PUBLIC) | Q(audience=Event.SIDE, side__in=list(viewer.sides))


def events_for(viewer: Viewer, campaign: Campaign) -> QuerySet[Event]:
    return campaign.events.filter(audience_q(viewer)).select_related("actor")


def visible_records(viewer: Viewer, records: Iterable[Record]) -> list[Record]:
    return [r for r in records if viewer.can_read(r.audience, r.side)]


# --- the state -------------------------------------------------------------------------

_PUBLIC_CORE = (
    "system",
    "variant",
    "name",
    "options",
    "status",
    "winner",
    "finish_reason",
    "sides",
    "referee",
    "house_rules",
    "scenarios",
    "current",
    "export_approved",
)


def view_state(held: HeldState, viewer: Viewer) -> StateView:
    """The part of a campaign state this viewer may read: a cut of its JSON."""
    state = plain(held)
    if not viewer.member and not viewer.referee:
        return {}
    out = {key: state[key] for key in _PUBLIC_CORE}
    if viewer.referee:
        out["seq"] = state["seq"]
    else:
        # Sequence numbers count every event, the other side's hidden ones too.
        out["export_approved"] = state["export_approved"] is not None
        out["house_rules"] = {
            key: {k: v for k, v in rule.items() if k != "seq"}
            for key, rule in state["house_rules"].items()
        }
    out["sealed"] = {key: _view_sealed(s, viewer) for key, s in state["sealed"].items()}
    # Sequence numbers would tell how many hidden events a side has: outside the
    # referee's view, proposals are known by their event's uid only.
    out["proposals"] = {p["uid"]: _view_proposal(p, viewer) for p in state["proposals"].values()}
    if viewer.referee:
        out["undone"], out["corrected"] = state["undone"], state["corrected"]
    out["streams"] = {
        key: n
        for key, n in state["streams"].items()
        if key == "campaign" or key.removeprefix("side:") in viewer.sides
    }
    out["notes"] = [
        n for n in state.get("notes", []) if not n["private"] or viewer.can_read("side", n["side"])
    ]
    out["game"] = view_game(state.get("game"), viewer)
    return out


def view_game(game: dict[str, Any] | None, viewer: Viewer) -> dict[str, Any] | None:
    if game is None:
        return None
    out: dict[str, Any] = {"public": game.get("public", {}), "sides": {}}
    for side, private in game.get("sides", {}).items():
        if viewer.referee or side in viewer.sides:
            out["sides"][side] = private
    if viewer.referee:
        out["referee"] = game.get("referee", {})
    return out


def _view_sealed(sealed: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    shown = {k: v for k, v in sealed.items() if k != "choices"}
    shown["submitted"] = sorted(sealed["choices"])
    shown["choices"] = {
        side: choice
        for side, choice in sealed["choices"].items()
        if sealed["revealed"] or viewer.referee or side in viewer.sides
    }
    return shown


def _view_proposal(proposal: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    if viewer.can_read(proposal["audience"], proposal["target_side"]):
        shown = dict(proposal)
        if not viewer.referee:
            shown.pop("seq"), shown.pop("target"), shown.pop("applied", None)
        return shown
    keep = ("uid", "action", "by", "side", "needs", "approved", "status", "target_side")
    return {**{k: proposal[k] for k in keep}, "hidden": True}


def roster_entries_for(viewer: Viewer, campaign: Campaign) -> QuerySet[RosterEntry]:
    from rosters.models import RosterEntry

    if viewer.referee:
        return RosterEntry.objects.filter(campaign=campaign)
    if not viewer.member:
        return RosterEntry.objects.none()
    return RosterEntry.objects.filter(campaign=campaign).filter(
        Q(audience="public") | Q(audience="side", side__in=list(viewer.sides))
    )


def recent_print_jobs(viewer: Viewer, campaign: Campaign, limit: int) -> list[PrintJob]:
    """The newest `limit` of ``print_jobs_for``, their contexts not read: the campaign page's
    sheets panel, on every view of it, so one prepared query (campaigns.kept_answers.prepared) rather than
    the ORM's (whose building costs several times running it)."""
    from rosters.models import PrintJob

    audiences = _print_job_audiences(viewer)
    if audiences == [] or getattr(campaign, PRINT_JOBS_READ_WITH_SIGN_IN, True) is False:
        return []  # no member, or none the viewer reads (as read with the sign-in): none
    audiences = audiences or []  # None, the referee: every audience, no filter
    fields = [f for f in PrintJob._meta.concrete_fields if f.name != "context"]
    where = f" AND audience IN ({', '.join(['%s'] * len(audiences))})" if audiences else ""
    sql = (
        f"SELECT {', '.join(str(f.column) for f in fields)} FROM {PrintJob._meta.db_table} "
        f"WHERE campaign_id = %s{where} ORDER BY created_at DESC LIMIT %s"
    )
    found = prepared.rows(sql, [campaign.pk, *audiences, limit], dict(enumerate(fields)))
    names = [f.attname for f in fields]
    return [PrintJob.from_db(PrintJob.objects.db, names, row) for row in found]


def print_jobs_for(viewer: Viewer, campaign: Campaign) -> QuerySet[PrintJob]:
    """Print jobs (rosters.PrintJob) of the sheets this viewer may read: the club's,
    their side's, and for the referee every one. Audience keys: public | side:<slug> | referee."""
    from rosters.models import PrintJob

    audiences = _print_job_audiences(viewer)
    jobs = PrintJob.objects.filter(campaign=campaign)
    return jobs if audiences is None else jobs.filter(audience__in=audiences)


def _print_job_audiences(viewer: Viewer) -> list[str] | None:
    """The print-job audiences this viewer may read (one rule for the queryset and the panel's
    prepared query); None: every one (the referee)."""
    if viewer.referee:
        return None
    if not viewer.member:
        return []
    return ["public", *sorted(f"side:{side}" for side in viewer.sides)]
