"""What a sheet may fetch when WeasyPrint draws it: the project's static files, named under a
made-up origin, and nothing else (rosters/weasyprint_render.py's fetcher; rosters/pdf.py)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders

# Relative URLs in sheets resolve against this made-up origin, which the fetcher
# maps to the static directories; nothing is ever requested from it.
BASE_URL = "https://sheets.muster.invalid/"


class RefusedURL(ValueError):
    """A sheet asked for something outside the project's static files."""


def static_roots() -> list[Path]:
    roots = [
        Path(d if isinstance(d, (str, os.PathLike)) else d[1]) for d in settings.STATICFILES_DIRS
    ]
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT))
    return [r.resolve() for r in roots]


def static_file(url: str) -> Path:
    """The file a static URL of a sheet names, or RefusedURL."""
    parts = urlsplit(url)
    prefix = urlsplit(BASE_URL)
    static_path = "/" + settings.STATIC_URL.strip("/") + "/"
    if (parts.scheme, parts.netloc) != (prefix.scheme, prefix.netloc) or not parts.path.startswith(
        static_path
    ):
        raise RefusedURL(f"Sheets may only use the site's static files, not {url[:100]}")
    relative = unquote(parts.path[len(static_path) :])
    found = finders.find(relative) if relative and ".." not in Path(relative).parts else None
    candidates = [Path(found)] if found else [root / relative for root in static_roots()]
    for candidate in candidates:
        path = candidate.resolve()
        if path.is_file() and any(path.is_relative_to(root) for root in static_roots()):
            return path
    raise RefusedURL(f"No static file {relative[:100]}")
