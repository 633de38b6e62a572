"""The inbox: a person's notices (what waits for them, news), opening one (which marks it read
and goes to the place to act), marking them all read; and the header's unread count on every
page (`unread`, a context processor: one indexed count, only when the header is drawn)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from campaigns.notices import inbox

from .common import AuthenticatedHttpRequest, done, page


def unread(request: HttpRequest) -> dict[str, Callable[[], int]]:
    """`unread_notices` for base.html: counted when the header asks, never for a page without it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notices": lambda: inbox.unread_count(user)}


@page
@require_GET
def notice_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "notices/inbox.html", {"notices": inbox.inbox(request.user)})


@page
@require_GET
def notice_open(request: AuthenticatedHttpRequest, notice_id: int) -> HttpResponseBase:
    """Opening a notice reads it and goes to the place to act (another person's: 404)."""
    link = str(inbox.mark_read(request.user, notice_id).link)
    if not url_has_allowed_host_and_scheme(link, allowed_hosts=None):
        return redirect("notices")  # never: links are paths Muster wrote
    return redirect(link)


@page
@require_POST
def notices_read(request: AuthenticatedHttpRequest) -> HttpResponse:
    inbox.mark_all_read(request.user)
    return done(request, reverse("notices"))
