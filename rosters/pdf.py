"""HTML -> PDF with WeasyPrint, fetching nothing but the project's own static files.

Sheets are drawn from Django templates (templates/sheets/). WeasyPrint resolves
every URL it meets (stylesheets, images, fonts) through ``StaticOnlyFetcher``:
``data:`` URLs and files under the static URL, read from the project's static
directories, and nothing else: never the network, never an arbitrary local file.
Fonts come from the system (fontconfig: Debian's fonts-dejavu-core), never fetched.
"""

from __future__ import annotations

import logging
import mimetypes
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

logger = logging.getLogger(__name__)

# Relative URLs in sheets resolve against this made-up origin, which the fetcher
# maps to the static directories; nothing is ever requested from it.
BASE_URL = "https://sheets.muster.invalid/"


class RefusedURL(ValueError):
    """A sheet asked for something outside the project's static files."""


def static_roots() -> list[Path]:
    roots = [Path(d if isinstance(d, (str, os.PathLike)) else d[1]) for d in settings.STATICFILES_DIRS]
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT))
    return [r.resolve() for r in roots]


def static_file(url: str) -> Path:
    """The file a static URL of a sheet names, or RefusedURL."""
    parts = urlsplit(url)
    prefix = urlsplit(BASE_URL)
    static_path = "/" + settings.STATIC_URL.strip("/") + "/"
    if (parts.scheme, parts.netloc) != (prefix.scheme, prefix.netloc) or not parts.path.startswith(static_path):
        raise RefusedURL(f"Sheets may only use the site's static files, not {url[:100]}")
    relative = unquote(parts.path[len(static_path):])
    found = finders.find(relative) if relative and ".." not in Path(relative).parts else None
    candidates = [Path(found)] if found else [root / relative for root in static_roots()]
    for candidate in candidates:
        path = candidate.resolve()
        if path.is_file() and any(path.is_relative_to(root) for root in static_roots()):
            return path
    raise RefusedURL(f"No static file {relative[:100]}")


class StaticOnlyFetcher(URLFetcher):
    """WeasyPrint's URL fetcher, restricted to data: URLs and the static files."""

    def __init__(self):
        super().__init__(allowed_protocols=("data",), allow_redirects=False)
        self.refused: list[str] = []

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return super().fetch(url, headers)
        try:
            path = static_file(url)
        except RefusedURL:
            self.refused.append(url)
            logger.warning("Sheet render refused to fetch %.200s", url)
            raise
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


def sheet_html(template: str, context: dict, *, for_browser: bool = False) -> str:
    return render_to_string(template, {**context, "for_browser": for_browser})


def html_to_pdf(html: str, fetcher: StaticOnlyFetcher | None = None) -> bytes:
    """The PDF of ``html``; deterministic: the same HTML gives the same bytes."""
    fetcher = fetcher or StaticOnlyFetcher()
    return HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).write_pdf()
