"""Characters no database stores are refused at the door, before any view,
session or sign-in lookup can hand them to a query: PostgreSQL refuses NUL in text, and no
UTF-8 store takes a lone surrogate, so either one reaching a lookup would be a 500.

- the path: any control character (C0, DEL, C1) names no address: 404;
- the query string, form fields (names and values) of the pages, a JSON body under /api/ and the
  request's headers but cookies (a token, an Idempotency-Key): NUL or a lone surrogate is
  a 400 naming the field (the API's field-error shape under /api/, a body's value by its dotted
  path in the body; the 400 page otherwise). The API reads no forms (its parser takes JSON only
  and answers 415), so its form bodies are left to it unread.

Other control characters are the schema's business (campaigns.schema.fields.text_problem): they are
stored nowhere, but they can be looked up, so a lookup answers "not found" as for any other name."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.shortcuts import render

from campaigns.schema.fields import parse_json

UNSTORABLE_MESSAGE = "Contains a character that cannot be stored (a NUL byte or a lone surrogate)."
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# A JSON body's escapes, read left to right: "\\" is one escape, so "\\u0000" is no NUL.
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
_JSON_TYPES = ("application/json", "+json")


def unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


def path_has_controls(path: str) -> bool:
    return any(unicodedata.category(char) == "Cc" for char in path)


def json_text_unstorable(text: str) -> bool:
    """Whether a JSON text holds a NUL or a lone surrogate once parsed (raw, or as \\u escapes),
    without parsing it: the API's parser parses it once, later."""
    if "\x00" in text:
        return True
    if "\\u" not in text:
        return False
    high = False  # the previous escape was a high surrogate waiting for its low half
    last_end = -1
    for match in _JSON_ESCAPE.finditer(text):
        escape = match.group(1)
        code = int(escape[1:], 16) if escape[0] == "u" and len(escape) == 5 else None
        follows = match.start() == last_end
        last_end = match.end()
        if high and not (follows and code is not None and 0xDC00 <= code <= 0xDFFF):
            return True  # a high surrogate alone
        if high:
            high = False
            continue
        if code == 0:
            return True
        if code is not None and 0xD800 <= code <= 0xDBFF:
            high = True
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return True  # a low surrogate alone
    return high


class UnstorableCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        api = request.path.startswith("/api/")
        if path_has_controls(request.path_info):
            if api:
                return JsonResponse({"detail": "Not found."}, status=404)
            return render(request, "404.html", status=404)
        field = self.unstorable_field(request, api)
        if field is not None:
            if api:
                return JsonResponse({field: [UNSTORABLE_MESSAGE]}, status=400)
            return render(request, "400.html", status=400)
        return self.get_response(request)

    @staticmethod
    def unstorable_field(request: HttpRequest, api: bool) -> str | None:
        """The first field (query parameter, form field, header, "body") holding what cannot be stored."""
        for name, value in request.META.items():
            # Cookies are left out: a cookie the browser keeps would refuse every request of its
            # holder; an unreadable session cookie is no session (campaigns.access.signed_in).
            if (
                name.startswith("HTTP_")
                and name != "HTTP_COOKIE"
                and isinstance(value, str)
                and "\x00" in value
            ):
                return name[5:].lower().replace("_", "-")  # the header's name, as sent
        forms = (
            (request.GET, request.POST) if request.method == "POST" and not api else (request.GET,)
        )
        for values in forms:
            for name, items in values.lists():
                if unstorable(name) or any(unstorable(item) for item in items):
                    return name if not unstorable(name) else "non_field_errors"
        if api and request.method not in ("GET", "HEAD", "OPTIONS"):
            content_type = request.content_type or ""
            if content_type.startswith(_JSON_TYPES[0]) or content_type.endswith(_JSON_TYPES[1]):
                try:
                    text = request.body.decode("utf-8")
                except UnicodeDecodeError:
                    return None  # the parser answers that one
                if json_text_unstorable(text):
                    return json_unstorable_path(text)
        return None


def json_unstorable_path(text: str) -> str:
    """Where in a JSON body the unstorable text is, as the API names fields ("data.reason",
    "rows[2]"); "body" when the body is no JSON at all (its parser would say so anyway)."""
    try:
        value = parse_json(text, max_depth=64)
    except ValueError:
        return "body"
    stack = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str) and unstorable(item):
            return path or "body"
        if isinstance(item, dict):
            for key, inner in item.items():
                if unstorable(key):
                    return path or "body"
                stack.append((inner, f"{path}.{key}" if path else key))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{index}]") for index, inner in enumerate(item))
    return "body"
