"""The pages' answer when the database is away or stops a query (the API's is api/errors.py).

Without it a page asked while PostgreSQL restarts, or whose query the database stopped for taking
too long, answered Django's 500 "Something went wrong", which says nothing of what to do. Here it
answers 503 with Retry-After and a page that says what happened and that sending the form again
is safe (a form carries its idempotency key: campaigns.views, docs/architecture.md). The page is
plain HTML, rendered without a context: the database may still be away."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string

from .connection_loss import DATABASE_ERRORS, drop_connection, timed_out

logger = logging.getLogger(__name__)


class DatabaseAwayPages:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS) or request.path.startswith("/api/"):
            return None  # the API answers in its own shapes (api/errors.py)
        too_long = timed_out(exception)
        if too_long:
            logger.warning("The database stopped a query of %s: %s", request.path, exception)
        else:
            logger.warning("The database was away for %s: %s", request.path, exception)
            drop_connection()
        page = render_to_string("503.html", {"too_long": too_long})
        response = HttpResponse(page, status=503)
        response["Retry-After"] = "5" if too_long else "2"
        return response
