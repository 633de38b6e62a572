"""How fast a member may write: at most settings.MEMBER_WRITES_PER_MINUTE
requests that may change something (POST, PUT, PATCH, DELETE) per signed-in person per minute,
pages and API together. Counted at the door, in the cache (Redis: one count for every web worker),
per clock minute; never in the journal service, the fold or a replay, so a journal file or a
management command is never refused by it. Beyond it: 429 naming the limit and the wait
(`Retry-After`), JSON under /api/. Sign-in is throttled on its own (muster.signin)."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.html import format_html
from rest_framework.throttling import BaseThrottle

from campaigns.errors import TooMany

if TYPE_CHECKING:  # DRF imports this module while its views load: for the types only
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.request import Request
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

WRITES = ("POST", "PUT", "PATCH", "DELETE")


def count_write(user: AbstractBaseUser | AnonymousUser) -> None:
    """Count one write of `user`; TooMany past the limit. With the cache away (Redis restarting) the
    write is not counted and goes through: a limit must not turn an outage into refused writes."""
    limit = settings.MEMBER_WRITES_PER_MINUTE
    now = time.time()
    window = int(now // 60)
    key = f"muster:writes:{user.pk}:{window}"
    try:
        cache.add(key, 0, timeout=120)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr: this write starts the count again
            cache.add(key, 1, timeout=120)
            count = 1
    except Exception as error:  # noqa: BLE001 - the cache away: not counted (docs/operations.md, "Faults")
        logger.warning("Writes not counted, the cache is away: %s", error)
        return
    if count > limit:
        wait = max(1, math.ceil((window + 1) * 60 - now))
        raise TooMany(
            f"You may send at most {limit} changes a minute, and you have sent {limit} this minute: "
            f"try again in {wait} second{'s' if wait != 1 else ''}. Nothing was changed.",
            retry_after=wait,
        )


class PageWrites:
    """The pages' door (after sign-in is known): the API counts its own (MemberWrites), since a
    token is only read by DRF."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        """After CSRF's own check (an earlier middleware's process_view): a forged cross-site post
        is refused there and never counted, so another site cannot use up a member's writes."""
        if (
            request.method in WRITES
            and not request.path.startswith("/api/")
            and request.user.is_authenticated
        ):
            try:
                count_write(request.user)
            except TooMany as error:
                if request.headers.get("HX-Request") == "true":
                    # In place: the message goes before the form, which stays to be sent again.
                    response = HttpResponse(
                        format_html('<p class="error" role="alert">{}</p>', error.message),
                        status=429,
                    )
                    response["HX-Reswap"] = "beforebegin"
                else:
                    response = render(request, "429.html", {"message": error.message}, status=429)
                response["Retry-After"] = str(error.retry_after)
                return response
        return None


class MemberWrites(BaseThrottle):
    """The API's door: TooMany reaches api.errors, a 429 {"detail"} naming the limit."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in WRITES and request.user and request.user.is_authenticated:
            count_write(request.user)
        return True
