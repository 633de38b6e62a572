"""The OpenAPI schema, and interactive API docs whose every asset is served from /static/
(drf-spectacular-sidecar): they work with no network and load nothing from a CDN."""

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.request import Request
from rest_framework.response import Response

from .renderers import JSONRenderer

if TYPE_CHECKING:
    from rest_framework.views import APIView

    _View = APIView  # what AnswersInJson is mixed into
else:
    _View = object


class AnswersInJson(_View):
    """The docs pages are HTML for GET only: their template renderer has no template for an
    OPTIONS answer or an error (a TemplateDoesNotExist, a 500), so those are JSON, as
    everywhere under /api/."""

    def options(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Response:
        self._in_json(self.request)  # DRF's request: the `request` handed here
        return super().options(self.request, *args, **kwargs)

    def handle_exception(self, exc: Exception) -> Response:
        self._in_json(self.request)
        return super().handle_exception(exc)

    @staticmethod
    def _in_json(request: Request) -> None:
        request.accepted_renderer, request.accepted_media_type = (
            JSONRenderer(),
            JSONRenderer.media_type,
        )


class SchemaView(AnswersInJson, SpectacularAPIView):
    """The OpenAPI schema (GET); any other method's refusal is JSON, not the schema's own type."""


class SwaggerDocsView(AnswersInJson, SpectacularSwaggerView):
    url_name = "api-schema"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # drf-spectacular leaves these two unannotated ("no-untyped-call" under --strict).
        response: Response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
        # Swagger UI would otherwise fetch a validity badge from validator.swagger.io.
        response.data["settings"] = self._dump(  # type: ignore[no-untyped-call]
            {**spectacular_settings.SWAGGER_UI_SETTINGS, "validatorUrl": None}
        )
        return response


class RedocDocsView(AnswersInJson, SpectacularRedocView):
    url_name = "api-schema"
    template_name = "api/redoc.html"  # drf-spectacular's, less its Google Fonts links
