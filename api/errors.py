"""Every error answer of the API in the shapes its schema documents (api.openapi):

- 400: field errors, ``{"<field path>": ["message", …]}``; nested fields are dotted
  paths (``data.red``, ``dice.5/supply/red[0]``), errors about no one field are under
  ``non_field_errors``, an unreadable body under ``body``;
- 403, 404, 405, 413, 415, 429: ``{"detail": "…"}``; 409 adds ``current_version``;
- 503 ``{"detail": "…"}`` with ``Retry-After``: the database was away (PostgreSQL restarting),
  or it stopped a query that took too long; nothing of the request is known to be stored, and
  sending it again with the same idempotency key never writes it twice.
"""

import logging
from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from campaigns.errors import Conflict, DiceNeeded, DomainError, Forbidden, NotFound, TooMany
from muster.connection_loss import DATABASE_ERRORS, drop_connection, timed_out

logger = logging.getLogger(__name__)
DATABASE_AWAY = (
    "The database was away for a moment. Send the request again; with the same "
    "idempotency key a submission is never written twice."
)
TOO_LONG = (
    "The database stopped this request: it took too long (the site is busy). Nothing of it was "
    "stored. Send it again in a moment; with the same idempotency key a submission is never "
    "written twice."
)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DiceNeeded):
        return Response(
            {**exc.as_dict(), "dice_needed": exc.needs}, status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, NotFound):
        return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, Forbidden):
        return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, TooMany):
        return Response(
            {"detail": exc.message},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(exc.retry_after)},
        )
    if isinstance(exc, Conflict):
        return Response(
            {"detail": exc.message, "current_version": exc.current_version},
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, DATABASE_ERRORS) and timed_out(exc):
        logger.warning("The database stopped a query of %s: %s", context["request"].path, exc)
        return Response(
            {"detail": TOO_LONG},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DATABASE_ERRORS):  # a lost connection: the next request gets a fresh one
        logger.warning("The database was away for %s: %s", context["request"].path, exc)
        drop_connection()
        return Response(
            {"detail": DATABASE_AWAY},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "2"},
        )
    if isinstance(exc, exceptions.ParseError):
        return Response({"body": [str(exc.detail)]}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ValidationError):
        response.data = field_errors(exc.detail)
    return response


def field_errors(detail: object, path: str = "") -> dict[str, list[str]]:
    """DRF's nested error details as one flat {path: [messages]}."""
    found: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, inner in detail.items():
            where = (
                f"{path}[{key}]"
                if isinstance(key, int)
                else (f"{path}.{key}" if path else str(key))
            )
            found.update(field_errors(inner, where))
    elif isinstance(detail, list) and any(isinstance(item, (dict, list)) for item in detail):
        for index, inner in enumerate(detail):
            if inner:
                found.update(field_errors(inner, f"{path}[{index}]"))
    elif isinstance(detail, list):
        found[path or "non_field_errors"] = [str(item) for item in detail]
    else:
        found[path or "non_field_errors"] = [str(detail)]
    return found
