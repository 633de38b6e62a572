"""Error answers as the schema documents them (api.errors produces them)."""

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class DetailSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


class ConflictSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(help_text="The current version of your own stream.")


_FIELD_ERRORS = {
    "type": "object",
    "description": "Each refused field (dotted path for nested data) with its messages.",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}

_SUBMIT_ERRORS = {
    **_FIELD_ERRORS,
    "properties": {
        "dice_needed": {
            "type": "array",
            "description": "Present when the dice rolled at the table must be entered: resend with "
            "`dice` = {key: [faces]}.",
            "items": {
                "type": "object",
                "properties": {"key": {"type": "string"}, "expr": {"type": "string"}},
                "required": ["key", "expr"],
            },
        },
    },
}

RESPONSES = {
    400: OpenApiResponse(_FIELD_ERRORS, description="Bad input; nothing was changed."),
    403: OpenApiResponse(DetailSerializer, description="Not signed in, or not allowed to do this."),
    404: OpenApiResponse(
        DetailSerializer, description="No such thing for you (non-members never learn more)."
    ),
    409: OpenApiResponse(ConflictSerializer, description="Your stream moved since you loaded it."),
    429: OpenApiResponse(
        DetailSerializer, description="Too many failed sign-ins: locked for a while."
    ),
}

SUBMIT_400 = OpenApiResponse(
    _SUBMIT_ERRORS, description="Bad input or a refused event; nothing was changed."
)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an operation: `errors(400, 403, 404)`."""
    return {code: RESPONSES[code] for code in codes}


_DETAIL = {"type": "object", "properties": {"detail": {"type": "string"}}, "required": ["detail"]}
_COMMON = [
    (
        "400",
        "requestBody",
        "The body is not readable JSON (`{\"body\": [message]}`); nothing was changed.",
        _FIELD_ERRORS,
    ),
    (
        "400",
        "filters",
        "A filter given in the query is not valid (`{\"status\": [message]}`).",
        _FIELD_ERRORS,
    ),
    (
        "413",
        "requestBody",
        "The request body is too large (settings.MUSTER_MAX_REQUEST_BYTES); nothing was changed.",
        _DETAIL,
    ),
    (
        "404",
        "page",
        "No such page of results (the page number is past the last page), or no such thing for you.",
        _DETAIL,
    ),
    ("403", "security", "Not signed in.", _DETAIL),
    (
        "503",
        "requestBody",
        "The database was away for a moment (`Retry-After` says when to try again): send it "
        "again; with the same idempotency key a submission is never written twice.",
        _DETAIL,
    ),
    (
        "400",
        "always",
        "A query parameter, header or body holds what no database stores, a NUL byte or a lone "
        "surrogate (`{\"<parameter or header>\": [message]}`, a body's under `body`); nothing was changed.",
        _FIELD_ERRORS,
    ),
    (
        "404",
        "always",
        "An address holding a control character, or a `format` naming no representation, names "
        "nothing.",
        _DETAIL,
    ),
    (
        "429",
        "write",
        "More changes this minute than a member may send (`MEMBER_WRITES_PER_MINUTE`, 30 unless the "
        "site says otherwise): the message names the limit, `Retry-After` the seconds to wait; nothing was changed.",
        _DETAIL,
    ),
]
_NOT_FILTERS = ("page", "page_size", "format")


def document_common_errors(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """Answers every operation of a kind may give (SPECTACULAR_SETTINGS hook): 400 and 413 for a
    body that cannot be read or is over the size limit, wherever a body is read; 404 for a page
    number past the last page; 403 for a request not signed in; 400 for what no database stores and
    404 for a control character in the address, both refused at the door (muster.unstorable), or
    an unknown `format`; 429 for a write past the member's pace (muster.write_rate)."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            query = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
            applies = {
                "requestBody": "requestBody" in operation,
                "filters": any(p.get("name") not in _NOT_FILTERS for p in query),
                "page": any(p.get("name") == "page" for p in query),
                "security": bool(operation.get("security")) and {} not in operation["security"],
                "always": True,
                "write": method in ("post", "put", "patch", "delete"),
            }
            for code, marker, description, schema in _COMMON:
                if applies[marker] and code not in operation["responses"]:
                    operation["responses"][code] = {
                        "description": description,
                        "content": {"application/json": {"schema": schema}},
                    }
    return result
