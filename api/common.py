"""Small pieces every API view shares."""

from collections.abc import Callable
from typing import Any, Protocol

import orjson
from django.contrib.auth.models import User
from django.http import HttpResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.journal.records import Viewer
from campaigns.kept_answers import viewcache
from campaigns.models import Campaign
from campaigns.selectors.campaign_page import campaign_for

from .renderers import JSONRenderer


def valid_input(
    serializer_class: type[serializers.Serializer[Any]], request: Request
) -> dict[str, Any]:
    """The request body checked by an input serializer (400 with field errors otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


def signed_in_user(request: Request) -> User:
    """The requester, signed in: the API lets no one else through (IsAuthenticated, the
    default permission) but where a view allows anyone."""
    user = request.user
    assert isinstance(user, User)
    return user


class _Scoped(Protocol):
    """What CampaignScoped needs of the API view it is mixed into."""

    request: Request
    kwargs: dict[str, Any]
    _campaign_and_viewer: tuple[Campaign, Viewer]


class CampaignScoped:
    """Views under /campaigns/{campaign_id}/: the campaign as the requester may see it.

    The lookup is visibility's (via campaign_for): a campaign of a club
    the requester is not a member of does not exist for them (404).
    """

    _campaign_and_viewer: tuple[Campaign, Viewer]

    def campaign_and_viewer(self: _Scoped) -> tuple[Campaign, Viewer]:
        if not hasattr(self, "_campaign_and_viewer"):
            self._campaign_and_viewer = campaign_for(self.request.user, self.kwargs["campaign_id"])
        return self._campaign_and_viewer


def cached_json(
    request: Request,
    campaign: Campaign,
    viewer: Viewer,
    representation: str,
    build: Callable[[], Any],
) -> HttpResponse | Response:
    """An answer kept as JSON bytes per audience position (campaigns.kept_answers.viewcache): `build()` gives
    the data, encoded once; later requests of the audience are served the bytes. The browsable
    API (asked for HTML) gets the same data as an ordinary Response."""
    # Through the renderer, so what orjson refuses (keys that are not text) falls back as in any answer.
    body = viewcache.cached(
        campaign, viewer, representation, lambda: JSONRenderer().render(build())
    )
    if (
        getattr(request, "accepted_renderer", None) is not None
        and request.accepted_renderer.format != "json"
    ):
        return Response(orjson.loads(body))
    return HttpResponse(body, content_type="application/json")
