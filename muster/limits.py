"""Request bodies are bounded before any view reads them (settings.MUSTER_MAX_REQUEST_BYTES):
413 Request Entity Too Large, as JSON under /api/ and as text for the pages."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse


def too_large_message() -> str:
    return (
        f"The request body is too large (at most {settings.MUSTER_MAX_REQUEST_BYTES // 1024} KB)."
    )


class RequestBodyLimit:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MUSTER_MAX_REQUEST_BYTES:
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": too_large_message()}, status=413)
            return HttpResponse(
                too_large_message(), status=413, content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)
