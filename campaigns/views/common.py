"""What every page shares: sign-in, the mapping of domain errors to HTTP, and
htmx-aware answers."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from campaigns.access import signed_in
from campaigns.errors import Forbidden, NotFound


def page(view):
    """A signed-in page. NotFound is a 404 (a stranger learns nothing), Forbidden a
    403 page with the service's reason. A campaign's page (`pk`) read by GET settles the
    session, the user and the campaign in one query first (campaigns.access.signed_in)."""

    @login_required
    @wraps(view)
    def guarded(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound:
            raise Http404("Not found.") from None
        except Forbidden as error:
            raise PermissionDenied(error.message) from None

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if "pk" in kwargs:
            signed_in.campaign(request, kwargs["pk"])
        return guarded(request, *args, **kwargs)

    return wrapped


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def done(request, url: str):
    """After a successful POST: redirect (htmx follows HX-Redirect)."""
    if is_htmx(request):
        response = HttpResponse(status=204)
        # Without the #fragment: a fragment-only change would not reload the page.
        response["HX-Redirect"] = url.split("#")[0]
        return response
    return redirect(url)


def invalid(request, template: str, context: dict, status: int = 400):
    """A form with errors, shown again; nothing was written."""
    return render(request, template, context, status=status)
