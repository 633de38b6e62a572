"""Kept answers, served before the API's machinery.

A campaign's detail and state answers are kept as JSON bytes per audience position
(``campaigns.viewcache``). Through the whole stack a kept answer still cost about ten times
what serving bytes costs: the session row, the user row, the campaign row, DRF's request,
negotiation and permission checks. For a plain GET of those URLs by a browser or client signed
in with the session cookie, this middleware answers with one cache read for the session
(``cached_db`` sessions), one query for the user's row, membership, seat and the campaign
(``visibility.signed_in_campaign``), and one cache read for the bytes.

It serves only what the full answer would be, byte for byte, and only when it can settle
everything the full path would: anything else (a token, a query string, the browsable API, a
session whose user is gone, inactive or has changed password, a campaign that is not theirs,
an answer not kept yet) goes on to the views, which answer as always, reusing the campaign and
viewer read here for the same user.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse
from django.utils.crypto import constant_time_compare

from campaigns import viewcache, visibility
from muster.memory import Recent

_ROUTE = re.compile(r"^/api/v1/campaigns/(?P<pk>[0-9]{1,18})/(?P<state>state/)?$")
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
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
        match = _ROUTE.match(request.path_info) if request.method == "GET" else None
        if match is not None and _plain(request):
            answer = _answer(request, match["pk"], bool(match["state"]))
            if answer is not None:
                return answer
        return self.get_response(request)


def _plain(request) -> bool:
    """A GET that DRF would answer with JSON, signed in by session only."""
    meta = request.META
    if meta.get("QUERY_STRING") or "HTTP_AUTHORIZATION" in meta:
        return False
    accept = meta.get("HTTP_ACCEPT", "")
    return all(part.split(";", 1)[0].strip() in _JSON_ACCEPTED for part in accept.split(",")) if accept else True


def _answer(request, pk: str, state: bool):
    signed_in = _session(request)
    if signed_in is None:
        return None
    session_key, (user_id, session_hash) = signed_in
    found = _signed_in_campaign(user_id, pk, session_key)
    if found is None:
        return None
    user, campaign, viewer = found
    # What django.contrib.auth.get_user settles, and the session store: a session not ended nor
    # expired, of an active user whose password is the one it was signed in with (a fallback
    # secret's hash is left to Django: it rotates the session).
    if not (user["session_live"] and user["is_active"] and constant_time_compare(session_hash, _auth_hash(user))):
        _SESSIONS.drop(session_key)
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
        if backend != _MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS or not session_hash:
            return None
        found = (user_id, session_hash)
        _SESSIONS.put(key, found)
    return key, found


def _signed_in_campaign(user_id, pk, session_key):
    """visibility.signed_in_campaign without Django's health check first (a SELECT 1 round trip
    per request, CONN_HEALTH_CHECKS): a connection that has died is found by the lookup itself,
    then closed and opened again, once, as the health check would have."""
    if connection.health_check_enabled and not connection.in_atomic_block:
        connection.health_check_done = True
        try:
            return visibility.signed_in_campaign(user_id, pk, session_key)
        except (InterfaceError, OperationalError):
            if connection.is_usable():
                raise
            connection.close()
    return visibility.signed_in_campaign(user_id, pk, session_key)


def _auth_hash(user: dict) -> str:
    """The user model's own session hash, from the row's password."""
    return get_user_model().from_db(None, ["id", "password"], [user["id"], user["password"]]).get_session_auth_hash()
