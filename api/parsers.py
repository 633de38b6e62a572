"""The API's JSON parser: the body is parsed without ever exhausting the stack, and no
deeper than a request needs (a too-large body never gets here: muster.limits)."""

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from campaigns.schema.fields import parse_json

BODY_MAX_DEPTH = 32  # the deepest legitimate body (an event's data in a submission) is far less


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:  # the JSON body
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode("utf-8")
            return parse_json(text, max_depth=BODY_MAX_DEPTH)
        except UnicodeDecodeError:
            raise ParseError("The body is not UTF-8 text.") from None
        except ValueError as error:
            raise ParseError(f"Not valid JSON: {error}.") from None
