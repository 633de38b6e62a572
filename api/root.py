"""/api/v1/: what the API offers, as links (DRF's browsable root for a browser, JSON for a
client), with where its OpenAPI schema and docs are. Everyone may read it: it names
addresses, never data."""

from collections.abc import Callable

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

# The collections a client starts from; every other address is in "endpoints".
STARTS = ["api-token", "api-systems", "api-clubs", "api-campaigns", "api-invitation-accept"]


class ApiRoot(APIView):
    permission_classes = [AllowAny]
    # name -> path template of every endpoint; given by api.urls, which lists them (as_view).
    endpoints: Callable[[], dict[str, str]] = dict

    @extend_schema(
        operation_id="api_root",
        tags=["root"],
        summary="What the API offers: links, and where its docs are",
        responses=inline_serializer(
            "ApiRoot",
            {
                "docs": serializers.URLField(),
                "schema": serializers.URLField(),
                "links": serializers.DictField(child=serializers.URLField()),
                "endpoints": serializers.DictField(child=serializers.CharField()),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(
            {
                "docs": reverse("api-docs", request=request),
                "schema": reverse("api-schema", request=request),
                "links": {
                    name.removeprefix("api-"): reverse(name, request=request) for name in STARTS
                },
                "endpoints": {
                    name.removeprefix("api-"): path for name, path in self.endpoints().items()
                },
            }
        )
