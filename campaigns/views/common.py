"""What every page shares: sign-in, the mapping of domain errors to HTTP, and
htmx-aware answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from campaigns.access import signed_in
from campaigns.errors import Forbidden, NotFound

Params = ParamSpec("Params")
T = TypeVar("T")


class AuthenticatedHttpRequest(HttpRequest):
    """The request a `page` view is given: sign-in is required, so `user` is a User."""

    user: User


# Any answer: a page, a redirect or a file (rosters' downloads).
PageView = Callable[Concatenate[AuthenticatedHttpRequest, Params], HttpResponseBase]


def page(
    view: PageView[Params],
) -> Callable[Concatenate[HttpRequest, Params], HttpResponseBase]:
    """A signed-in page. NotFound is a 404 (a stranger learns nothing), Forbidden a
    403 page with the service's reason. A campaign's page (`pk`) read by GET settles the
    session, the user and the campaign in one query first (campaigns.access.signed_in)."""

    @login_required
    @wraps(view)
    def guarded(
        request: HttpRequest, /, *args: Params.args, **kwargs: Params.kwargs
    ) -> HttpResponseBase:
        # login_required let only a signed-in User through.
        assert isinstance(request.user, User)
        try:
            return view(cast(AuthenticatedHttpRequest, request), *args, **kwargs)
        except NotFound:
            raise Http404("Not found.") from None
        except Forbidden as error:
            raise PermissionDenied(error.message) from None

    @wraps(view)
    def wrapped(
        request: HttpRequest, /, *args: Params.args, **kwargs: Params.kwargs
    ) -> HttpResponseBase:
        if "pk" in kwargs:
            signed_in.campaign(request, kwargs["pk"])
        return guarded(request, *args, **kwargs)

    return wrapped


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def done(request: HttpRequest, url: str) -> HttpResponse:
    """After a successful POST: redirect (htmx follows HX-Redirect)."""
    if is_htmx(request):
        response = HttpResponse(status=204)
        # Without the #fragment: a fragment-only change would not reload the page.
        response["HX-Redirect"] = url.split("#")[0]
        return response
    return redirect(url)


def invalid(
    request: HttpRequest, template: str, context: Mapping[str, object], status: int = 400
) -> HttpResponse:
    """A form with errors, shown again; nothing was written."""
    return render(request, template, context, status=status)


def page_number(request: HttpRequest) -> int:
    """The page asked for by ``?page=`` (1 when missing or not a number of a few digits)."""
    asked = request.GET.get("page", "")
    return int(asked) if asked.isdigit() and 0 < len(asked) < 7 and int(asked) > 0 else 1


def pager_of(items: Sequence[T], number: int, count: int, size: int) -> dict[str, Any]:
    """Page `number` (past the last: the last) of `count` rows, `size` a page, its rows `items`
    (read as such in SQL), with the numbers of the pages before and after it (None: none) for the
    Previous/Next links."""
    pages = max(1, -(-count // size))
    number = min(max(number, 1), pages)
    return {
        "items": list(items),
        "number": number,
        "pages": pages,
        "count": count,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
    }
