"""Small pieces every API view shares."""

import orjson
from django.http import HttpResponse
from rest_framework.response import Response

from campaigns.kept_answers import viewcache
from campaigns.selectors.campaign_page import campaign_for

from .renderers import JSONRenderer


def valid_input(serializer_class, request) -> dict:
    """The request body checked by an input serializer (400 with field errors otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class CampaignScoped:
    """Views under /campaigns/{campaign_id}/: the campaign as the requester may see it.

    The lookup is visibility's (via campaign_for): a campaign of a club
    the requester is not a member of does not exist for them (404).
    """

    def campaign_and_viewer(self):
        if not hasattr(self, "_campaign_and_viewer"):
            self._campaign_and_viewer = campaign_for(self.request.user, self.kwargs["campaign_id"])
        return self._campaign_and_viewer


def cached_json(request, campaign, viewer, representation: str, build):
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
