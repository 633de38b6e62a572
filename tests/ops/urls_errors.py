"""A test-only URLconf: the site's, plus views that fail the ways a page can."""

from django.core.exceptions import PermissionDenied
from django.urls import include, path


def broken(request):
    raise RuntimeError(f"a bug, with a secret in its message: {request.path}")


def forbidden(request):
    raise PermissionDenied("Only the referee can do this.")


urlpatterns = [
    path("test-errors/broken/", broken),
    path("test-errors/forbidden/", forbidden),
    path("", include("muster.urls")),
]
