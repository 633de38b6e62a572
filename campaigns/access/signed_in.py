"""Who a request is signed in as, with the campaign it asks for, in one query.

Every page and API answer of a campaign starts with the session, the user's row and the campaign
row with the requester's membership and seat: three lookups (a cache read and two queries, each
built by the ORM) before anything is drawn. For a GET signed in with the session cookie, this
settles all three with one prepared query (``visibility.signed_in_campaign``), and checks what
``django.contrib.auth.get_user`` checks: the session is there and unexpired, the user active,
their password the one the session was signed in with. What a session key signs in (the user,
their password's hash) never changes while the key lives (Django gives a new key at every
sign-in), so it is remembered by this process; whether the session still lives is asked of the
database every time. Whatever it cannot settle is left to Django, which settles it as always.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.models import Campaign
from muster.memory import Recent
from muster.sessions import KEY

P = ParamSpec("P")
R = TypeVar("R")

MODEL_BACKENDS = ("muster.auth.ModelBackend", "django.contrib.auth.backends.ModelBackend")
# Stores whose sessions are rows of django_session (the lookup asks whether the row lives).
DATABASE_SESSIONS = (
    "muster.sessions",
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
)
# session key -> (user id, auth hash), as the session holds them
_SESSIONS: Recent[str, tuple[object, str]] = Recent(10_000)


def campaign(
    request: HttpRequest, pk: object, header: bool = True
) -> tuple[User, Campaign, Viewer] | None:
    """(user, campaign, viewer) of a signed-in GET, or None when it cannot settle them (then
    nothing is changed). Settled, the request is signed in as that user, and the campaign and
    viewer are handed to the request's first campaign lookup (visibility.campaign_and_viewer).
    `header`: read what a page's header shows of the person with them (a page; not an API answer)."""
    if request.method != "GET":
        return None
    signed_in = session(request)
    if signed_in is None:
        return None
    key, (user_id, session_hash) = signed_in
    found = without_health_check(visibility.signed_in_campaign, user_id, pk, key, header)
    if found is None:
        return None
    user, live, campaign_row, viewer = found
    if not still_signed_in(key, session_hash, live, user):
        return None
    request.user = request._cached_user = user  # type: ignore[attr-defined]  # what auth's lazy user reads
    request.session.accessed = (
        True  # the answer depends on the session: Vary: Cookie, as Django's path says
    )
    # Read once by campaign_and_viewer, which deletes it.
    user.signed_in_campaign = (campaign_row.pk, campaign_row, viewer)  # type: ignore[attr-defined]
    return user, campaign_row, viewer


def campaign_list(
    request: HttpRequest, club_slug: str, limit: int
) -> tuple[User, list[tuple[Any, ...]], int] | None:
    """(user, campaigns, count) of ``visibility.signed_in_campaign_list`` for a signed-in GET, or
    None when it cannot settle them."""
    signed_in = session(request) if request.method == "GET" else None
    if signed_in is None:
        return None
    key, (user_id, session_hash) = signed_in
    found = without_health_check(visibility.signed_in_campaign_list, user_id, key, club_slug, limit)
    if found is None:
        return None
    user, live, campaigns, count = found
    if not still_signed_in(key, session_hash, live, user):
        return None
    request.session.accessed = True
    return user, campaigns, count


def session(request: HttpRequest) -> tuple[str, tuple[object, str]] | None:
    """(session key, (user id, auth hash)) of a session signed in through the model backend, or None."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not key or not KEY.fullmatch(key) or settings.SESSION_ENGINE not in DATABASE_SESSIONS:
        return None
    found = _SESSIONS.get(key)
    if found is None:
        stored = request.session
        try:
            user_id = get_user_model()._meta.pk.to_python(stored[SESSION_KEY])
            backend, session_hash = stored[BACKEND_SESSION_KEY], stored[HASH_SESSION_KEY]
        except (KeyError, ValueError, TypeError, ValidationError):
            return None
        if (
            backend not in MODEL_BACKENDS
            or backend not in settings.AUTHENTICATION_BACKENDS
            or not session_hash
        ):
            return None
        found = (user_id, session_hash)
        _SESSIONS.put(key, found)
    return key, found


def still_signed_in(key: str, session_hash: str, live: bool, user: User) -> bool:
    """What django.contrib.auth.get_user settles, and the session store: a session not ended nor
    expired, of an active user whose password is the one it was signed in with (a fallback
    secret's hash is left to Django: it rotates the session)."""
    if (
        live
        and user.is_active
        and constant_time_compare(session_hash, user.get_session_auth_hash())
    ):
        return True
    _SESSIONS.drop(key)
    return False


def without_health_check(lookup: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`lookup(*args)` without Django's health check first (a SELECT 1 round trip per request,
    CONN_HEALTH_CHECKS): a connection that has died is found by the lookup itself, then closed
    and opened again, once, as the health check would have."""
    # Django's own flags, which the stubs leave out.
    if connection.health_check_enabled and not connection.in_atomic_block:  # type: ignore[attr-defined]
        connection.health_check_done = True  # type: ignore[attr-defined]
        try:
            return lookup(*args, **kwargs)
        except (InterfaceError, OperationalError):
            if connection.is_usable():
                raise
            connection.close()
    return lookup(*args, **kwargs)
