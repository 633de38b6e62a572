"""Sign-in throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one username
from one address, that username is locked for LOGIN_COOLOFF_MINUTES from that address, even
with the right password. Pages, the admin and the API token (api.auth) share the count."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def locked_out_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return (
        f"Too many failed sign-ins for this account from your address: try again in {minutes} minutes, "
        "or reset your password."
    )


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429, JSON under /api/, the page otherwise."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": locked_out_message()}, status=429)
    return render(
        request, "registration/locked_out.html", {"message": locked_out_message()}, status=429
    )
