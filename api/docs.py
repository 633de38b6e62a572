"""Interactive API docs whose every asset is served from /static/
(drf-spectacular-sidecar): they work with no network and load nothing from a CDN."""

from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from .renderers import JSONRenderer


class AnswersInJson:
    """The docs pages are HTML for GET only: their template renderer has no template for an
    OPTIONS answer or an error (a TemplateDoesNotExist, a 500), so those are JSON, as
    everywhere under /api/."""

    def options(self, request, *args, **kwargs):
        self._in_json(request)
        return super().options(request, *args, **kwargs)

    def handle_exception(self, exc):
        self._in_json(self.request)
        return super().handle_exception(exc)

    @staticmethod
    def _in_json(request):
        request.accepted_renderer, request.accepted_media_type = (
            JSONRenderer(),
            JSONRenderer.media_type,
        )


class SwaggerDocsView(AnswersInJson, SpectacularSwaggerView):
    url_name = "api-schema"

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        # Swagger UI would otherwise fetch a validity badge from validator.swagger.io.
        response.data["settings"] = self._dump(
            {**spectacular_settings.SWAGGER_UI_SETTINGS, "validatorUrl": None}
        )
        return response


class RedocDocsView(AnswersInJson, SpectacularRedocView):
    url_name = "api-schema"
    template_name = "api/redoc.html"  # drf-spectacular's, less its Google Fonts links
