"""The part of the print pipeline that needs WeasyPrint, and so Pango: imported only
when a PDF is made (rosters.pdf.renderer), never when the site starts."""

from __future__ import annotations

import gc
import logging
import mimetypes
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import weasyprint
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import pdf_parts
from .static_files import BASE_URL, RefusedURL, static_file

logger = logging.getLogger("rosters.pdf")


# WeasyPrint ships no types, so its URLFetcher is Any to mypy ("misc": --strict's
# disallow_subclassing_any): the fetcher is WeasyPrint's own, narrowed.
class StaticOnlyFetcher(URLFetcher):  # type: ignore[misc]
    """WeasyPrint's URL fetcher, restricted to data: URLs and the static files."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("data",), allow_redirects=False)
        self.refused: list[str] = []

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
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
    """The sheet's PDF; a long one laid out in parts at once (rosters.pdf_parts) where this
    process may fork: one thread only (a Celery worker, a sync web worker), more than one CPU."""
    with _no_cycle_collection():
        parts = pdf_parts.split(html, _cpus()) if fetcher is None and _may_fork() else None
        if parts is None:
            return _one(html, fetcher)
        pdfs = _in_parallel(parts)
        stamp = _one(pdf_parts.stamp_html(html, sum(pdf_parts.page_count(p) for p in pdfs)))
        return pdf_parts.join(pdfs, stamp)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused for a render, run once after it. A layout makes millions of
    objects, almost all freed by their reference counts; the collector kept scanning them all
    (about a fifth of a long sheet's time). The few cycles wait for the end of the render."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect()


def _one(html: str, fetcher: StaticOnlyFetcher | None = None) -> bytes:
    fetcher = fetcher or StaticOnlyFetcher()
    pdf: bytes = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).write_pdf()
    return pdf


def _cpus() -> int:
    try:
        return min(4, len(os.sched_getaffinity(0)))
    except AttributeError:
        return min(4, os.cpu_count() or 1)


def _may_fork() -> bool:
    # Forking a process that runs other threads may copy a lock another thread holds; an inline
    # render's heartbeat holds none when a fork is made (rosters.heartbeat.beating).
    from .heartbeat import forks_safely_beside

    here = threading.current_thread()
    return hasattr(os, "fork") and all(
        thread is here or forks_safely_beside(thread) for thread in threading.enumerate()
    )


def _in_parallel(parts: list[str]) -> list[bytes]:
    """Each part but the first in a forked child (WeasyPrint and its fonts already loaded),
    the first here; the children's PDFs come back through pipes."""
    children: list[tuple[int, int]] = []  # (pid, the read end of its pipe)
    for part in parts[1:]:
        read, write = os.pipe()
        pid = os.fork()
        if (
            pid == 0
        ):  # the child: render, hand the bytes over, leave at once (no cleanup of the parent's)
            code = 0
            try:
                os.close(read)
                data = _one(part)
                with os.fdopen(write, "wb") as out:
                    out.write(data)
            except BaseException:  # noqa: BLE001 - the parent sees an empty answer and says so
                code = 1
            finally:
                os._exit(code)
        os.close(write)
        children.append((pid, read))
    try:
        first = _one(parts[0])
    finally:
        results: list[bytes | None] = []
        for pid, read in children:
            with os.fdopen(read, "rb") as source:
                results.append(source.read())
            _, status = os.waitpid(pid, 0)
            if status != 0 or not results[-1]:
                results[-1] = None
    rendered = [data for data in results if data is not None]
    if len(rendered) != len(results):
        raise RuntimeError("a part of the sheet could not be rendered")
    return [first, *rendered]


def weasyprint_version() -> str:
    return str(weasyprint.__version__)
