"""HTML -> PDF with WeasyPrint, fetching nothing but the project's own static files; long sheets
of plain tables with Typst (rosters/table_sheet.py, rosters/typst_render.py), which lays them out
several times faster and falls back to WeasyPrint whenever it cannot print.

Sheets are drawn from Django templates (templates/sheets/, a game's own in its folder).
WeasyPrint resolves every URL it meets (stylesheets, images, fonts) through ``StaticOnlyFetcher``
(rosters/weasyprint_render.py): ``data:`` URLs and files under the static URL, read
from the project's static directories, and nothing else: never the network, never an
arbitrary local file. Fonts come from the system (fontconfig: Debian's
fonts-dejavu-core), never fetched.

WeasyPrint needs Pango, a system library: it is imported only when a PDF is made, so
the site, its checks and migrations run without it (a web process whose sheets render
in a worker never needs it). Without it, a PDF asked for fails with ``PdfUnavailable``,
whose message names the missing library.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from django.template.loader import render_to_string

if TYPE_CHECKING:
    from .weasyprint_render import StaticOnlyFetcher


def debian_packages() -> list[str]:
    """What Debian needs for WeasyPrint: the one list, scripts/debian-packages.txt (also read by
    scripts/system-packages.sh, the README's test and CI)."""
    text = (Path(__file__).resolve().parent.parent / "scripts" / "debian-packages.txt").read_text()
    return [word for line in text.splitlines() for word in line.split("#", 1)[0].split()]


WEASYPRINT_PACKAGES = " ".join(debian_packages())


class Renderer(Protocol):
    """What rosters.weasyprint_render offers (the module itself is the renderer)."""

    def write_pdf(self, html: str, fetcher: StaticOnlyFetcher | None = None) -> bytes: ...

    def weasyprint_version(self) -> str: ...


class PdfUnavailable(RuntimeError):
    """WeasyPrint cannot be loaded in this process: no PDF can be made here. The message
    says what is missing; it holds nothing of any sheet, so users may read it."""


def sheet_html(template: str, context: dict[str, Any], *, for_browser: bool = False) -> str:
    return render_to_string(template, {**context, "for_browser": for_browser})


def html_to_pdf(html: str, fetcher: StaticOnlyFetcher | None = None) -> bytes:
    """The PDF of ``html``; deterministic: the same HTML gives the same bytes. A long sheet of
    plain tables is printed by Typst (rosters/typst_render.py), everything else by WeasyPrint."""
    if fetcher is None:
        from . import table_sheet, typst_render

        sheet = table_sheet.read(html)
        data = typst_render.write_pdf(sheet) if sheet is not None else None
        if data is not None:
            return data
    from . import long_words

    return renderer().write_pdf(long_words.mark(html), fetcher)


def renderer() -> Renderer:
    """rosters.weasyprint_render, imported now (WeasyPrint loads Pango when imported),
    or PdfUnavailable naming what is missing."""
    try:
        from . import weasyprint_render
    except (ImportError, OSError) as error:
        raise PdfUnavailable(unavailable_message(error)) from error
    return weasyprint_render


def weasyprint_version() -> tuple[str | None, str]:
    """(WeasyPrint's version, "") when PDFs can be made here, else (None, why not)."""
    try:
        return renderer().weasyprint_version(), ""
    except PdfUnavailable as error:
        return None, str(error)


def unavailable_message(error: Exception) -> str:
    library = re.search(r"cannot load library '([^']+)'", str(error))
    if library:
        missing = f"WeasyPrint needs the system library {library.group(1)}, which is missing"
    elif isinstance(error, ImportError) and (error.name or "").startswith("weasyprint"):
        missing = "the weasyprint package is not installed"
    else:
        missing = f"WeasyPrint could not be loaded ({type(error).__name__})"
    return (
        f"PDFs cannot be made on this server: {missing} "
        f"(Debian: apt-get install {WEASYPRINT_PACKAGES}, then restart). Tell the site operator."
    )
