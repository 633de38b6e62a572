"""Long sheets in parts: a sheet's table rows split into groups laid out at once, joined into
one PDF whose every page then gets its "Page X of Y" (rosters/weasyprint_render.py renders).

WeasyPrint lays a document out on one CPU, and a table of thousands of rows takes it seconds;
the parts of a long sheet are laid out side by side instead. Each part is the whole sheet (its
head, running header and footer, its stylesheet) with a share of the rows: tables keep their
head, rows are never split. The parts are printed without page numbers; a stamp document of
as many pages, with nothing but the page-number box of the sheet's own @page rules, is laid
over them, so the joined PDF reads "Page X of Y" over all its pages. Where one part ends, a
page may end early: the next part starts a fresh page, its table head repeated.

Sheets come from the project's own templates with every value escaped, so their markup is
found by plain patterns: ``<main>`` holds the content, tables hold ``<tbody>`` rows, and no
table is inside another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from io import BytesIO
from typing import Literal

# The content in order: ("html", text) between tables, ("row", (table start, table end), row).
_Html = tuple[Literal["html"], str]
_Row = tuple[Literal["row"], tuple[str, str], str]
_Item = _Html | _Row

MIN_ROWS = 400  # fewer table rows: one document (a part must be worth a process)
_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_ROW = re.compile(r"<tr\b.*?</tr>", re.S)
NO_PAGE_NUMBERS = "<style>@page { @bottom-right { content: none; } }</style>"
STAMP_ONLY = (
    "<style>@page { @top-left { content: none; } @bottom-left { content: none; } }"
    " .stamp { break-after: page; } .stamp:last-child { break-after: auto; }</style>"
)


def split(html: str, parts: int) -> list[str] | None:
    """`html` as up to `parts` documents of about as many rows each (None: keep it whole)."""
    start, end = html.find("<main>"), html.rfind("</main>")
    if parts < 2 or start < 0 or end < start or "</head>" not in html:
        return None
    head, main, tail = html[: start + len("<main>")], html[start + len("<main>") : end], html[end:]
    items, total = _items(main)
    if items is None or total < MIN_ROWS:
        return None
    head = head.replace("</head>", NO_PAGE_NUMBERS + "</head>", 1)
    share = -(-total // parts)
    documents: list[list[_Item]] = []
    current: list[_Item] = []
    rows = 0
    for item in items:
        if item[0] == "row" and rows >= share:
            documents.append(current)
            current, rows = [], 0
        current.append(item)
        rows += item[0] == "row"
    documents.append(current)
    return [head + _body(doc) + tail for doc in documents]


def _items(main: str) -> tuple[list[_Item] | None, int]:
    """The content as ("html", text) and ("row", table, text) items, and the number of rows."""
    items: list[_Item] = []
    total, at = 0, 0
    for table in _TABLE.finditer(main):
        text = table.group(0)
        body_at, body_end = text.find("<tbody>"), text.rfind("</tbody>")
        if "<table" in text[1:] or body_at < 0 or body_end < body_at:
            return None, 0  # a table in a table, or none with a body: keep the sheet whole
        rows = list(_ROW.finditer(text, body_at, body_end))
        items.append(("html", main[at : table.start()]))
        if not rows:
            items.append(("html", text))
        else:
            frame = (text[: rows[0].start()], text[rows[-1].end() :])
            items += [("row", frame, row.group(0)) for row in rows]
            total += len(rows)
        at = table.end()
    items.append(("html", main[at:]))
    return items, total


def _body(items: Sequence[_Item]) -> str:
    out: list[str] = []
    frame: tuple[str, str] | None = None
    for item in items:
        if item[0] == "row":
            if item[1] is not frame:
                if frame is not None:
                    out.append(frame[1])
                frame = item[1]
                out.append(frame[0])
            out.append(item[2])
        else:
            if frame is not None:
                out.append(frame[1])
                frame = None
            out.append(item[1])
    if frame is not None:
        out.append(frame[1])
    return "".join(out)


def stamp_html(html: str, pages: int) -> str:
    """A document of `pages` empty pages under the sheet's own @page rules: only "Page X of Y"."""
    head = html[: html.find("</head>")]
    return f"{head}{STAMP_ONLY}</head><body>{'<div class=stamp></div>' * pages}</body></html>"


def join(parts: list[bytes], stamp: bytes) -> bytes:
    """The parts' pages in order, each with its stamp page laid over it: one PDF."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(BytesIO(part)))
    numbers = PdfReader(BytesIO(stamp)).pages
    if len(numbers) != len(writer.pages):
        raise ValueError(f"{len(writer.pages)} pages, {len(numbers)} page numbers")
    for page, number in zip(writer.pages, numbers):
        page.merge_page(number)
        page.compress_content_streams()
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)
