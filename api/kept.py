"""Kept answers and the campaign list, served before the API's machinery.

A campaign's detail and state answers are kept as JSON bytes per audience position
(``campaigns.viewcache``). Through the whole stack a kept answer still cost about ten times
what serving bytes costs: the session, the user row, the campaign row, DRF's request,
negotiation and permission checks. For a plain GET of those URLs, signed in with the session
cookie, this middleware answers with one prepared query (``visibility.signed_in_campaign``:
whether the session row lives, the user's row, membership, seat and the campaign) and the bytes
from the process's memory of kept answers (``muster.cache``; Redis behind it). What a session
key signs in (the user and their password's hash) is remembered by the process: Django gives a
new key at every sign-in. The campaign list's first page (``?club=`` or nothing) is drawn from
one query the same way (``visibility.signed_in_campaign_list``).

It serves only what the full answer would be, byte for byte, and only when it can settle
everything the full path would: anything else (a token, another query string, the browsable
API, a session ended or expired, a user gone, inactive or with a new password, a campaign that
is not theirs, an answer not kept yet, a list longer than a page) goes on to the views, which
answer as always, reusing the campaign and viewer read here for the same user.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse
from rest_framework.utils.urls import replace_query_param
from django.utils.crypto import constant_time_compare

from campaigns import viewcache, visibility
from muster.memory import Recent

from .pagination import Pagination
from .renderers import JSONRenderer

_LIST = "/api/v1/campaigns/"
_SLUG = re.compile(r"[-a-zA-Z0-9_]{0,100}")  # a club's slug, or nothing; anything else goes to the view
_ROUTE = re.compile(r"^/api/v1/campaigns/(?P<pk>[0-9]{1,18})/(?P<state>state/)?$")
_MODEL_BACKENDS = ("muster.auth.ModelBackend", "django.contrib.auth.backends.ModelBackend")
# Stores whose sessions are rows of django_session (the lookup asks whether the row lives).
_DATABASE_SESSIONS = ("django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db")
_JSON_ACCEPTED = {"application/json", "*/*", "application/*"}  # what DRF answers with its JSON renderer
# As DRF's views answer (finalize_response): the methods the views allow, and Vary.
_ALLOW = "GET, HEAD, OPTIONS"


_SESSIONS = Recent(10_000)  # session key -> (user id, auth hash), as the session holds them


class KeptAnswers:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and _plain(request):
            answer = None
            if request.path_info == _LIST:
                answer = _list(request)
            elif not request.META.get("QUERY_STRING"):
                match = _ROUTE.match(request.path_info)
                answer = _answer(request, match["pk"], bool(match["state"])) if match else None
            if answer is not None:
                return answer
        return self.get_response(request)


def _plain(request) -> bool:
    """A GET that DRF would answer with JSON, signed in by session only."""
    meta = request.META
    if "HTTP_AUTHORIZATION" in meta:
        return False
    accept = meta.get("HTTP_ACCEPT", "")
    return all(part.split(";", 1)[0].strip() in _JSON_ACCEPTED for part in accept.split(",")) if accept else True


def _answer(request, pk: str, state: bool):
    signed_in = _session(request)
    if signed_in is None:
        return None
    session_key, (user_id, session_hash) = signed_in
    found = _without_health_check(visibility.signed_in_campaign, user_id, pk, session_key)
    if found is None:
        return None
    user, campaign, viewer = found
    if not _still_signed_in(session_key, session_hash, user):
        return None
    request.kept_campaign = (user["id"], campaign, viewer)
    if state:
        representation = "api.state"
    else:
        from .campaigns import detail_representation

        representation = detail_representation(campaign)
    body = viewcache.kept(campaign, viewer, representation)
    if body is viewcache.MISSING:
        return None
    response = HttpResponse(body, content_type="application/json")
    response.headers["Vary"] = "Accept, Cookie"
    response.headers["Allow"] = _ALLOW
    return response


def _list(request):
    """The first page of the campaign list: all the user's clubs or one (``?club=``); any other
    question (filters, pages) goes to the view."""
    query = request.GET
    if set(query) - {"club"} or len(query.getlist("club")) > 1 or not _SLUG.fullmatch(query.get("club", "")):
        return None
    signed_in = _session(request)
    if signed_in is None:
        return None
    session_key, (user_id, session_hash) = signed_in
    page = Pagination.page_size  # the view's
    found = _without_health_check(visibility.signed_in_campaign_list, user_id, session_key, query.get("club", ""),
                                  page)
    if found is None or not _still_signed_in(session_key, session_hash, found[0]):
        return None
    user, rows, count = found
    from .campaigns import summaries

    # As PageNumberPagination links the next page.
    following = replace_query_param(request.build_absolute_uri(), "page", 2) if count > page else None
    body = {"count": count, "next": following, "previous": None, "results": summaries(rows)}
    response = HttpResponse(JSONRenderer().render(body), content_type="application/json")
    response.headers["Vary"] = "Accept, Cookie"
    response.headers["Allow"] = "GET, POST, HEAD, OPTIONS"
    return response


def _still_signed_in(session_key, session_hash, user: dict) -> bool:
    """What django.contrib.auth.get_user settles, and the session store: a session not ended nor
    expired, of an active user whose password is the one it was signed in with (a fallback
    secret's hash is left to Django: it rotates the session)."""
    if user["session_live"] and user["is_active"] and constant_time_compare(session_hash, _auth_hash(user)):
        return True
    _SESSIONS.drop(session_key)
    return False


def _session(request):
    """(session key, (user id, auth hash)) of a session signed in through the model backend, or None.

    What a session key signs in never changes while the key lives (Django gives a new key at
    every sign-in), so it is remembered by this process; whether the session still lives is
    asked of the database with the campaign (``visibility.signed_in_campaign``)."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not key or len(key) > 64 or settings.SESSION_ENGINE not in _DATABASE_SESSIONS:
        return None
    found = _SESSIONS.get(key)
    if found is None:
        session = request.session
        try:
            user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
            backend, session_hash = session[BACKEND_SESSION_KEY], session[HASH_SESSION_KEY]
        except (KeyError, ValueError, TypeError, ValidationError):
            return None
        if backend not in _MODEL_BACKENDS or backend not in settings.AUTHENTICATION_BACKENDS or not session_hash:
            return None
        found = (user_id, session_hash)
        _SESSIONS.put(key, found)
    return key, found


def _without_health_check(lookup, *args):
    """`lookup(*args)` without Django's health check first (a SELECT 1 round trip per request,
    CONN_HEALTH_CHECKS): a connection that has died is found by the lookup itself, then closed
    and opened again, once, as the health check would have."""
    if connection.health_check_enabled and not connection.in_atomic_block:
        connection.health_check_done = True
        try:
            return lookup(*args)
        except (InterfaceError, OperationalError):
            if connection.is_usable():
                raise
            connection.close()
    return lookup(*args)


def _auth_hash(user: dict) -> str:
    """The user model's own session hash, from the row's password."""
    return get_user_model().from_db(None, ["id", "password"], [user["id"], user["password"]]).get_session_auth_hash()
