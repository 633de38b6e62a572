"""The part of the print pipeline that needs WeasyPrint, and so Pango: imported only
when a PDF is made (rosters.pdf.renderer), never when the site starts."""

from __future__ import annotations

import logging
import mimetypes

import weasyprint
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .pdf import BASE_URL, RefusedURL, static_file

logger = logging.getLogger("rosters.pdf")


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


def write_pdf(html: str, fetcher: StaticOnlyFetcher | None = None) -> bytes:
    fetcher = fetcher or StaticOnlyFetcher()
    return HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).write_pdf()


def weasyprint_version() -> str:
    return weasyprint.__version__
