"""Kept answers and the campaign list, served before the API's machinery.

A campaign's detail and state answers are kept as JSON bytes per audience position
(``campaigns.kept_answers.viewcache``). Through the whole stack a kept answer still cost about ten times
what serving bytes costs: the session, the user row, the campaign row, DRF's request,
negotiation and permission checks. For a plain GET of those URLs, signed in with the session
cookie, this middleware settles the session, the user and the campaign in one prepared query
(``campaigns.access.signed_in``) and answers with the bytes from the process's memory of kept answers
(``muster.cache``; Redis behind it). The campaign list's first page (``?club=`` or nothing) is
drawn from one query the same way (``visibility.signed_in_campaign_list``).

It serves only what the full answer would be, byte for byte, and only when it can settle
everything the full path would: anything else (a token, another query string, the browsable
API, a session ended or expired, a user gone, inactive or with a new password, a campaign that
is not theirs, an answer not kept yet) goes on to the views, which answer as always (signed in
as the user read here, their first campaign lookup answered by what was read with it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from campaigns.access import signed_in
from campaigns.kept_answers import viewcache

from .campaigns import (
    CampaignDetailApi,
    CampaignListCreateApi,
    detail_representation,
    summaries_of,
)
from .journal import StateApi
from .pagination import Pagination
from .renderers import JSONRenderer

_LIST = "/api/v1/campaigns/"
_SLUG = re.compile(
    r"[-a-zA-Z0-9_]{0,100}"
)  # a club's slug, or nothing; anything else goes to the view
_ROUTE = re.compile(r"/api/v1/campaigns/(?P<pk>[0-9]{1,18})/(?P<state>state/)?")
_JSON_ACCEPTED = {
    "application/json",
    "*/*",
    "application/*",
}  # what DRF answers with its JSON renderer


class KeptAnswers:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "GET" and _plain(request):
            answer: HttpResponse | None = None
            if request.path_info == _LIST:
                answer = _list(request)
            elif not request.META.get("QUERY_STRING"):
                match = _ROUTE.fullmatch(request.path_info)
                answer = _answer(request, match["pk"], bool(match["state"])) if match else None
            if answer is not None:
                return answer
        return self.get_response(request)


def _plain(request: HttpRequest) -> bool:
    """A GET that DRF would answer with JSON, signed in by session only."""
    meta = request.META
    if "HTTP_AUTHORIZATION" in meta:
        return False
    accept = meta.get("HTTP_ACCEPT", "")
    return (
        all(part.split(";", 1)[0].strip() in _JSON_ACCEPTED for part in accept.split(","))
        if accept
        else True
    )


def _answer(request: HttpRequest, pk: str, state: bool) -> HttpResponse | None:
    found = signed_in.campaign(request, pk, header=False)  # an answer has no page header
    if found is None:
        return None
    _, campaign, viewer = found
    representation = "api.state" if state else detail_representation(campaign)
    body = viewcache.kept(campaign, viewer, representation)
    if body is viewcache.MISSING:
        return None
    return _json(body, StateApi if state else CampaignDetailApi)


def _list(request: HttpRequest) -> HttpResponse | None:
    """The first page of the campaign list: all the user's clubs or one (``?club=``); any other
    question (filters, pages) goes to the view."""
    query = request.GET
    if (
        set(query) - {"club"}
        or len(query.getlist("club")) > 1
        or not _SLUG.fullmatch(query.get("club", ""))
    ):
        return None
    page = Pagination.page_size  # the view's
    found = signed_in.campaign_list(request, query.get("club", ""), page)
    if found is None:
        return None
    _, rows, count = found
    # As PageNumberPagination links the next page.
    following = (
        replace_query_param(request.build_absolute_uri(), "page", 2) if count > page else None
    )
    body = {"count": count, "next": following, "previous": None, "results": summaries_of(rows)}
    return _json(JSONRenderer().render(body), CampaignListCreateApi)


def _json(body: bytes, view: type[APIView]) -> HttpResponse:
    """JSON bytes with the headers the view's own answer carries (DRF's finalize_response: Allow
    and Vary: Accept; the session's Vary: Cookie)."""
    response = HttpResponse(body, content_type="application/json")
    response.headers["Vary"] = "Accept, Cookie"
    response.headers["Allow"] = _allowed(view)
    return response


_ALLOW: dict[type[APIView], str] = {}  # the Allow header of each view, worked out once


def _allowed(view: type[APIView]) -> str:
    if view not in _ALLOW:
        _ALLOW[view] = _allow(view)
    return _ALLOW[view]


def _allow(view: type[APIView]) -> str:
    """The view's Allow header: its methods, HEAD with GET (django.views.View.setup)."""
    methods = [
        m
        for m in view.http_method_names
        if hasattr(view, m) or (m == "head" and hasattr(view, "get"))
    ]
    return ", ".join(m.upper() for m in methods)
