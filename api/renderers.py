"""JSON for the API: DRF's JSONRenderer, encoded with orjson.

The output is DRF's (compact, UTF-8, U+2028/U+2029 escaped, dates and decimals through DRF's
encoder); only the encoder is faster (benchmarks/README.md, "JSON encoder": about 15× on a
campaign's state). Pretty-printing (``; indent=N``) and anything orjson refuses go to DRF's
own renderer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME  # dates as DRF writes them, through its encoder
_SEPARATORS = {"\u2028".encode(): b"\\u2028", "\u2029".encode(): b"\\u2029"}


def dumps(data: object) -> bytes:
    """`data` as the API's JSON (raises TypeError for what orjson cannot encode)."""
    out = orjson.dumps(data, default=JSONEncoder().default, option=_OPTIONS)
    for raw, escaped in _SEPARATORS.items():
        if raw in out:
            out = out.replace(raw, escaped)
    return out


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if (
            # DRF's get_indent reads no media type from None or "" alike (its stubs take str)
            self.get_indent(accepted_media_type or "", renderer_context or {}) is None
            and self.compact
            and not self.ensure_ascii
        ):
            try:
                return dumps(data)
            except (TypeError, orjson.JSONEncodeError):
                pass  # e.g. keys that are not text: DRF's encoder says what it makes of them
        return super().render(data, accepted_media_type, renderer_context)
