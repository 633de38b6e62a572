"""Words too wide for any column of their table, marked so that only they break.

The tables a sheet template writes itself are laid out by the engine (WeasyPrint, or Chromium for
the print view): sheet.css keeps every word whole there (``overflow-wrap: break-word``), so that
headings, ids and ordinary words set each column's width and never break. A word so wide that the
table could not fit the page with it whole (a name typed without spaces) would push the table off
the page instead: those words, and only those, are wrapped in ``<span class="long-word">``, which
may break anywhere. Which words: the table's columns, each as wide as its widest word, must fit
the page (rosters/word_widths.py, ``breakable_width``); the words wider than that limit are marked.

Fixed-width tables (``class="fixed"``, the generic sheet tables) have their widths already
(word_widths.column_widths) and are left as they are. The text itself never changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from typing import TypedDict

from . import word_widths

_PAGE = re.compile(r"@page\s*\{\s*size:\s*(A4|letter)( landscape)?;")
_SKIPPED = {"style", "script", "title", "textarea"}
_WORD = re.compile(r"\S+")


def mark(html: str) -> str:
    """`html` with every word too wide for its table wrapped; the same text when there is none."""
    if "<table" not in html:
        return html
    size = _PAGE.search(html)
    room = word_widths.content_pt(size.group(1) if size else "A4", bool(size and size.group(2)))
    reader = _Reader(room)
    try:
        reader.feed(html)
        reader.close()
    except (ValueError, AssertionError):  # markup no template writes: printed as it is
        return html
    return _spliced(html, reader.line_starts(html), reader.edits)


class _Cell(TypedDict):
    column: int
    span: int
    bold: bool


class _Table:
    def __init__(self, fixed: bool) -> None:
        self.fixed = fixed
        self.column = 0
        self.widest: dict[int, float] = {}  # column -> its widest word, padding included
        self.texts: list[tuple[tuple[int, int], str, bool]] = []  # (position, raw text, bold)


class _Reader(HTMLParser):
    def __init__(self, room: float) -> None:
        super().__init__(convert_charrefs=False)
        self.room = room
        self.widths = word_widths.dejavu()
        self.tables: list[_Table] = []
        self.cell: _Cell | None = None
        self.skipping = 0
        self.edits: list[tuple[tuple[int, int], str, set[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag == "table":
            self.tables.append(_Table("fixed" in (values.get("class") or "").split()))
        elif tag == "tr" and self.tables:
            self.tables[-1].column = 0
        elif tag in ("td", "th") and self.tables:
            table = self.tables[-1]
            colspan = values.get("colspan") or ""
            span = int(colspan) if colspan.isdigit() else 1
            self.cell = {"column": table.column, "span": max(span, 1), "bold": tag == "th"}
            table.column += max(span, 1)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(self.skipping - 1, 0)
        elif tag in ("td", "th"):
            self.cell = None
        elif tag == "table" and self.tables:
            self._close(self.tables.pop())

    def handle_data(self, data: str) -> None:
        if self.skipping or self.cell is None or not self.tables or not data.strip():
            return
        table, cell = self.tables[-1], self.cell
        widest = self.widths.widest_word(data, cell["bold"]) + word_widths.CELL_EXTRA_PT
        if cell["span"] == 1:
            table.widest[cell["column"]] = max(table.widest.get(cell["column"], 0.0), widest)
        table.texts.append((self.getpos(), data, cell["bold"]))

    def _close(self, table: _Table) -> None:
        if table.fixed or not table.widest:
            return
        limit = (
            word_widths.breakable_width(list(table.widest.values()), self.room)
            - word_widths.CELL_EXTRA_PT
        )
        for position, data, bold in table.texts:
            wide = {word for word in _WORD.findall(data) if self.widths.word(word, bold) > limit}
            if wide:
                self.edits.append((position, data, wide))

    def line_starts(self, html: str) -> list[int]:
        starts = [0]
        for match in re.finditer("\n", html):
            starts.append(match.end())
        return starts


def _spliced(
    html: str, starts: list[int], edits: Iterable[tuple[tuple[int, int], str, set[str]]]
) -> str:
    out: list[str] = []
    at = 0
    for (line, offset), data, wide in sorted(edits, key=lambda e: e[0]):
        begin = starts[line - 1] + offset
        if html[begin : begin + len(data)] != data or begin < at:
            continue  # not where the parser said: leave it as it is
        out.append(html[at:begin])
        out.append(
            _WORD.sub(
                lambda m: (
                    f'<span class="long-word">{m.group(0)}</span>'
                    if m.group(0) in wide  # noqa: B023 - used at once, by this sub()
                    else m.group(0)
                ),
                data,
            )
        )
        at = begin + len(data)
    out.append(html[at:])
    return "".join(out)
