"""A long table sheet read back from its HTML as data, for the fast table engine (rosters/typst_render.py).

WeasyPrint lays out a table row in about 4 ms; a sheet of 2,000 rows took it seconds even
in parallel parts. A sheet made only of what the generic sheet templates write (the page header
and footer of sheets/base.html, headings, paragraphs and tables of plain-text cells) is read
here into a plain structure that Typst prints in a fraction of that; so is a trend chart
(templates/_trend_chart.html as a sheet prints it: the chart's SVG, drawn by pygal, and its
numbers in a fixed-width table), the SVG handed over as it is. Anything else in the markup
(another element, attribute or class, a cell holding markup) means "not a plain table sheet":
``read`` answers None and the sheet goes to WeasyPrint as before. The text is data, never
markup: the Typst template shows it as it is.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import NotRequired, Required, TypedDict

Run = list[str]  # [text, style]: style "", "bold" or "badge"


class Cell(TypedDict):
    """A cell that is not a bare string: a number, or spanning columns (or marked to fit)."""

    num: bool
    span: int
    text: NotRequired[str]  # set when the cell closes
    fit: NotRequired[bool]  # a word in it may be wider than its column (rosters.typst_render)
    th: NotRequired[bool]  # a heading of its row (a chart's numbers: the half-day, the turn)
    runs: NotRequired[list[Run]]  # a cell of several lines (<br>: "\n") or with bold words in it
    rowspan: NotRequired[int]  # a heading over both head rows (read; printed as "open" cells)
    open: NotRequired[str]  # "below": a heading open to the empty cell under it ("above")
    bare: NotRequired[bool]  # a cell of the table's foot: no zebra


Row = list[str | Cell]


class Block(TypedDict, total=False):
    """A heading, a paragraph (runs, lead), a table (widths, head, rows; a chart's numbers: its
    caption) or a chart (svg, width), by its kind."""

    kind: Required[str]  # "h1", "h2", "p", "table" or "chart"
    runs: list[Run]
    lead: bool
    widths: list[float]  # every column's share of the width, in %
    head: Row
    more_head: list[Row]  # a second head row (the first one's groups of columns split)
    rows: list[Row]
    foot: list[Row]  # the table's foot (a total)
    caption: str  # a chart's numbers: the table's caption (its figure's last block)
    svg: str  # a chart: the SVG as pygal drew it
    width: float  # a chart: its printed width, in pt


class Sheet(TypedDict):
    """A plain table sheet as data: what the Typst template prints."""

    title: str
    paper: str  # "a4" or "us-letter"
    landscape: bool
    header: list[list[Run]]
    footer: list[Run]
    blocks: list[Block]


# From about 20 rows Typst prints a plain table sheet faster than WeasyPrint (its child process
# costs 0.12-0.2 s): a 24-row ledger 0.2 s against 0.4-0.6 s; 100 rows 0.25 s against 0.6 s.
# Shorter sheets stay with WeasyPrint, unless they hold a trend chart (WeasyPrint takes 0.1-0.15 s
# for each: an RG Purchase Record of 15 rows and three charts, 0.25 s against 0.7 s).
MIN_ROWS = 20

_PAGE_SIZE = re.compile(r"@page\s*\{\s*size:\s*(A4|letter)( landscape)?;\s*\}")
_WIDTH = re.compile(r"width:\s*(\d{1,3}(?:\.\d{1,3})?)%")
_SPACE = re.compile(r"[ \t\n\r\f]+")  # HTML's white space: ASCII only (a no-break space stays)
_HTML_SPACE = " \t\n\r\f"
_CONTROLS = re.compile(
    r"[\x00-\x08\x0b\x0e-\x1f\x7f]"
)  # never printed by WeasyPrint's parser either
_COLSPAN = re.compile(r"[1-9][0-9]?")
_PAGE_RULE = re.compile(r"\s*@page\s*\{\s*size:[^{}]*\}\s*")
_STYLESHEET = "print/sheet.css"
# A trend chart's SVG (campaigns/charts.py) is taken out before the markup is read, a mark in its
# place. It must be one SVG that draws only itself: nothing it refers to (a link, an image, a
# font, another element to reuse), no script, no element from another vocabulary.
_SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)
_SVG_UNSAFE = re.compile(r"href|<image|<use\b|<foreignObject|<script|url\(|@import|<svg", re.I)
_SVG_MAX_WIDTH = re.compile(r'^<svg\b[^>]*\sstyle="[^"]*\bmax-width:\s*(\d{1,4})px', re.S)
CHART_WIDTH_PT = 100 * 72 / 25.4  # sheet.css: figure.trend-chart svg { width: 100mm }
_CHART_MARK = "data-chart"
_VOID = {"meta", "link", "col", "br"}
_LINE = "\u2028"  # a <br> while the text is read (HTML white space never holds it); "\n" after
# What a plain sheet may hold: element -> the elements it may hold.
_INLINE = {"strong", "span"}
_ALLOWED = {
    "html": {"head", "body"},
    "head": {"meta", "title", "link", "style"},
    "title": set(),
    "style": set(),
    "body": {"header", "footer", "main"},
    "header": {"div"},
    "div": _INLINE | {"figure", "p"},  # in the header: a line; in main: a ledger's charts
    "footer": _INLINE,
    "strong": set(),
    "span": set(),
    "main": {"h1", "h2", "p", "table", "figure", "div"},
    "figure": {"svg", "table"},
    "svg": set(),
    "caption": set(),
    "h1": set(),
    "h2": set(),
    "p": {"strong", "br"},
    "table": {"caption", "colgroup", "thead", "tbody", "tfoot"},
    "tfoot": {"tr"},
    "colgroup": {"col"},
    "thead": {"tr"},
    "tbody": {"tr"},
    "tr": {"th", "td"},
    "th": set(),
    "td": {"strong", "br"},
}
_ATTRIBUTES = {
    "class",
    "colspan",
    "rowspan",
    "scope",
    "style",
    "lang",
    "charset",
    "name",
    "content",
    "rel",
    "href",
    _CHART_MARK,
}
_CLASSES = {
    "body": None,
    "header": {"sheet-header"},
    "footer": {"sheet-footer"},
    "div": {"where", "what", "vl-charts"},
    "span": {"private"},
    "p": {"lead", "small"},
    "table": {"fixed", "trend-numbers", "small"},
    "figure": {"trend-chart"},
    "th": {"num"},
    "td": {"num"},
}


class NotPlain(ValueError):
    """The markup holds something the table engine does not print."""


def read(html: str, min_rows: int | None = None) -> Sheet | None:
    """The sheet as data when it is a plain table sheet of at least `min_rows` rows (MIN_ROWS when
    not given) or with a trend chart, else None."""
    min_rows = MIN_ROWS if min_rows is None else min_rows
    charted = '<figure class="trend-chart">' in html
    if html.count("<tr") < min_rows and not charted:
        return None  # cheap: most short sheets end here without being parsed
    reader = _Reader()
    try:
        html = _SVG.sub(reader.keep_chart, html)
        reader.feed(html)
        reader.close()
        sheet = reader.sheet()
    except ValueError:  # NotPlain, or markup no template writes: WeasyPrint prints it
        return None
    rows = sum(len(block["rows"]) for block in sheet["blocks"] if block["kind"] == "table")
    charts = any(block["kind"] == "chart" for block in sheet["blocks"])
    return sheet if rows >= min_rows or charts else None


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.title = ""
        self.page_size: re.Match[str] | None = None
        self.header: list[list[Run]] = []
        self.footer: list[Run] = []
        self.blocks: list[Block] = []
        self.runs: list[Run] | None = None  # the inline runs being read: [text, style]
        self.style = ""  # the inline run being read: "", "bold" or "badge"
        self.lead = False  # the block being read is p.lead
        self.text: list[str] | None = None  # the text of a cell, title or style being read
        self.cell: Cell | None = None
        self.row: Row | None = None
        self.charts: list[str] = []  # the SVGs taken out of the markup, by their marks
        self.ended = False

    def keep_chart(self, found: re.Match[str]) -> str:
        """A chart's SVG kept aside, a mark in its place (read before the markup is)."""
        svg = found[0]
        if _SVG_UNSAFE.search(svg, 4):
            raise NotPlain("an SVG that draws more than itself")
        self.charts.append(svg)
        return f'<svg {_CHART_MARK}="{len(self.charts) - 1}"></svg>'

    # --- the markup -----------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        parent = self.stack[-1] if self.stack else None
        misplaced = (
            tag != "html" or self.ended if parent is None else tag not in _ALLOWED.get(parent, ())
        )
        if misplaced:
            raise NotPlain(f"<{tag}> in <{parent}>")
        if tag in ("th", "td") and (tag == "th") != (self.stack[-2] == "thead"):
            # head cells are th, body cells td, as styled; a row's heading (its first cell) th in
            # a chart's numbers and in a table's foot
            row_heading = (
                tag == "th"
                and self.row == []
                and (self.stack[-4] == "figure" or self.stack[-2] == "tfoot")
            )
            if not row_heading:
                raise NotPlain(f"<{tag}> in <{self.stack[-2]}>")
        attributes = dict(attrs)
        if len(attributes) != len(attrs):
            raise NotPlain(f"an attribute twice on <{tag}>")
        self._check_attributes(tag, attributes)
        if tag in _VOID:
            if tag == "col":
                self._column(attributes)
            elif tag == "br":
                if self.runs is None:
                    raise NotPlain("<br> outside a block")
                self.runs.append([_LINE, self.style])
            return
        self.stack.append(tag)
        self._open(tag, attributes)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            raise NotPlain(f"<{tag}/>")  # HTML leaves it open
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            raise NotPlain(f"</{tag}> out of place")
        self.stack.pop()
        self.ended = not self.stack
        self._close(tag)

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)
        elif self.runs is not None:
            self.runs.append([data, self.style])
        elif data.strip():
            raise NotPlain("text outside a block")

    def handle_comment(self, data: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        raise NotPlain("processing instruction")

    def unknown_decl(self, data: str) -> None:
        raise NotPlain("declaration")

    def _check_attributes(self, tag: str, attributes: dict[str, str | None]) -> None:
        if set(attributes) - _ATTRIBUTES:
            raise NotPlain(f"attributes of <{tag}>")
        classes = set((attributes.get("class") or "").split())
        allowed_classes = _CLASSES.get(tag, set())
        if allowed_classes is not None and classes - allowed_classes:
            raise NotPlain(f"class of <{tag}>")
        if tag == "body" and "in-browser" in classes:
            raise NotPlain("the browser view")
        self._check_place(tag, classes)
        in_figure = bool(self.stack) and self.stack[-1] == "figure"
        table = {"fixed", "trend-numbers", "small"} if in_figure else {"fixed"}
        if (
            tag == "span"
            and classes != {"private"}
            or tag == "table"
            and classes != table
            or tag == "figure"
            and classes != {"trend-chart"}
            or tag == "caption"
            and self.stack[-2] != "figure"
        ):
            # only the side-only mark; only fixed-width tables; a chart's numbers, captioned
            raise NotPlain(f"<{tag}> of another kind")
        if (_CHART_MARK in attributes) != (tag == "svg"):
            raise NotPlain("a chart's mark")
        if tag == "link" and not (attributes.get("href") or "").endswith("/" + _STYLESHEET):
            raise NotPlain("another stylesheet")
        if "style" in attributes and tag != "col":
            raise NotPlain(f"style on <{tag}>")

    def _check_place(self, tag: str, classes: set[str]) -> None:
        """A div is a line of the page header, or a ledger's charts (one above the other, a title
        over them): each holds only its own."""
        parent = self.stack[-1] if self.stack else None
        if tag == "div" and (classes == {"vl-charts"}) != (parent == "main"):
            raise NotPlain("<div> of another kind")
        if parent == "div" and (tag in ("figure", "p")) != (self.stack[-2] == "main"):
            raise NotPlain(f"<{tag}> in <div>")

    # --- what each element makes ----------------------------------------------------------------

    def _open(self, tag: str, attributes: dict[str, str | None]) -> None:
        classes = (attributes.get("class") or "").split()
        if tag in ("title", "style", "caption"):
            self.text = []
        if tag in ("th", "td"):
            self.runs = []
            span = attributes.get("colspan") or "1"
            if not _COLSPAN.fullmatch(span):
                raise NotPlain("colspan")
            self.cell = {"num": "num" in classes, "span": int(span)}
            if tag == "th" and self.stack[-3] != "thead":
                self.cell["th"] = True
            if self.stack[-3] == "tfoot":
                self.cell["bare"] = True
            rowspan = attributes.get("rowspan")
            if rowspan is not None:
                if not (_COLSPAN.fullmatch(rowspan) and self.stack[-3] == "thead"):
                    raise NotPlain("rowspan")
                self.cell["rowspan"] = int(rowspan)
        elif tag == "svg":
            self._chart(attributes.get(_CHART_MARK) or "")
        elif tag == "tr":
            self.row = []
        elif tag in ("div", "footer", "h1", "h2", "p") and (tag, self.stack[-2]) != ("div", "main"):
            self.runs = []
            self.lead = "lead" in classes
        elif tag in ("strong", "span"):
            self.style = "badge" if "private" in classes else "bold"
        elif tag == "table":
            self.blocks.append({"kind": "table", "widths": [], "head": [], "rows": []})
            if self.stack[-2] == "figure":
                self.blocks[-1]["caption"] = ""

    def _chart(self, mark: str) -> None:
        if not mark.isdigit() or int(mark) >= len(self.charts):
            raise NotPlain("a chart's mark")
        svg = self.charts[int(mark)]
        # the SVG's own max-width (its style attribute) wins over sheet.css's, as in WeasyPrint
        most = _SVG_MAX_WIDTH.search(svg)
        width = min(CHART_WIDTH_PT, int(most[1]) * 0.75) if most else CHART_WIDTH_PT
        self.blocks.append({"kind": "chart", "svg": svg, "width": width})

    def _close(self, tag: str) -> None:
        if tag in ("title", "style"):
            text = self._take_text()
            if tag == "title":
                self.title = _collapse(text)
            elif _PAGE_RULE.fullmatch(text):
                if self.page_size is not None:
                    raise NotPlain("two page sizes")
                self.page_size = _PAGE_SIZE.search(text)
                if self.page_size is None:
                    raise NotPlain("a page size the sheets do not use")
            elif text.strip() != _sheet_css():
                raise NotPlain(
                    "a stylesheet of its own"
                )  # the benchmark inlines sheet.css; nothing else
        elif tag == "caption":
            self.blocks[-1]["caption"] = _collapse(self._take_text())
        elif tag in ("th", "td"):
            cell, row = self.cell, self.row
            if cell is None or row is None:  # never: the cell was opened in its row
                raise NotPlain(f"</{tag}> out of place")
            runs, self.runs = _runs(self.runs or []), None
            text = cell["text"] = "".join(words for words, _ in runs)
            if "\n" in text or any(style for _, style in runs):
                cell["runs"] = runs
            plain = not cell["num"] and cell["span"] == 1 and len(cell) == 3  # num, span, text
            row.append(text if plain else cell)  # most cells: a bare string
            self.cell = None
        elif tag == "tr":
            if self.row is None:  # never: the row was opened
                raise NotPlain("</tr> out of place")
            table = self.blocks[-1]
            if self.stack[-1] == "thead" and not table["head"]:
                table["head"] = self.row
            elif self.stack[-1] == "thead":
                if "more_head" in table:
                    raise NotPlain("three head rows")
                table["more_head"] = [self.row]
            elif self.stack[-1] == "tfoot":
                table.setdefault("foot", []).append(self.row)
            else:
                table["rows"].append(self.row)
            self.row = None
        elif tag in ("strong", "span"):
            self.style = ""
        elif tag == "div" and self.stack[-1] == "main":
            pass  # a ledger's charts: their blocks are read
        elif tag in ("div", "footer", "h1", "h2", "p"):
            if self.runs is None:  # never: the block was opened
                raise NotPlain(f"</{tag}> out of place")
            runs, self.runs = _runs(self.runs), None
            if tag == "div":
                self.header.append(runs)
            elif tag == "footer":
                self.footer = runs
            else:
                self.blocks.append({"kind": tag, "runs": runs, "lead": self.lead and tag == "p"})

    def _take_text(self) -> str:
        """The text read since the element opened (a title, a style or a cell), taken."""
        if self.text is None:  # never: the element was opened
            raise NotPlain("text out of place")
        text, self.text = "".join(self.text), None
        return text

    def _column(self, attributes: dict[str, str | None]) -> None:
        if self.stack[-1] != "colgroup":
            raise NotPlain("<col> outside a colgroup")
        width = _WIDTH.fullmatch((attributes.get("style") or "").strip().rstrip(";"))
        if not width or float(width.group(1)) > 100:
            raise NotPlain("column width")
        self.blocks[-1]["widths"].append(float(width.group(1)))

    def sheet(self) -> Sheet:
        if self.stack or self.page_size is None or len(self.header) != 2 or len(self.footer) == 0:
            raise NotPlain("not a whole sheet")
        paper = "us-letter" if self.page_size.group(1) == "letter" else "a4"
        landscape = bool(self.page_size.group(2))
        for block in self.blocks:
            if block["kind"] == "table":
                self._check_table(block)
        return {
            "title": self.title,
            "paper": paper,
            "landscape": landscape,
            "header": self.header,
            "footer": self.footer,
            "blocks": self.blocks,
        }

    @staticmethod
    def _check_table(table: Block) -> None:
        columns = _width(table["head"])
        if not columns or len(table["widths"]) != columns:
            raise NotPlain(
                "table columns"
            )  # every column's width given, as the generic tables give them
        tall = [cell for cell in table["head"] if isinstance(cell, dict) and "rowspan" in cell]
        if any(cell["rowspan"] != 2 for cell in tall) or (tall and "more_head" not in table):
            raise NotPlain("a heading over more than the head")
        below = columns - sum(cell["span"] for cell in tall)  # what the second head row holds
        if any(_width(row) != below for row in table.get("more_head", [])):
            raise NotPlain("a head row of another width")
        for row in [*table["rows"], *table.get("foot", [])]:
            if _width(row) != columns:
                raise NotPlain("a row of another width")
        if tall:
            table["more_head"] = [_under(table["head"], table["more_head"][0])]


def _under(head: Row, second: Row) -> Row:
    """The second head row with an empty cell under each heading of both rows, the line between
    them left out: it prints as one cell, and each engine writes its words in the same order (Typst
    writes a cell over two rows after the first row's others)."""
    out: Row = []
    rest = iter(second)
    for cell in head:
        if isinstance(cell, dict) and cell.pop("rowspan", 1) == 2:
            cell["open"] = "below"
            out.append({"num": False, "span": cell["span"], "text": "", "open": "above"})
            continue
        covered = 0
        while covered < (1 if isinstance(cell, str) else cell["span"]):
            below = next(rest, None)
            if below is None:
                raise NotPlain("a head row of another width")
            covered += 1 if isinstance(below, str) else below["span"]
            out.append(below)
    return out


def _width(row: Row) -> int:
    return sum(1 if isinstance(cell, str) else cell["span"] for cell in row)


def _collapse(text: str) -> str:
    return _SPACE.sub(" ", _CONTROLS.sub("", text)).strip(_HTML_SPACE)


def _sheet_css() -> str:
    from django.contrib.staticfiles import finders

    found = finders.find(_STYLESHEET)
    if not found:
        return ""
    with open(found, encoding="utf-8") as handle:
        return handle.read().strip()


def _runs(runs: list[Run]) -> list[Run]:
    """Runs with HTML's white-space collapsing: one space between words, none at the ends nor
    around a line break (<br>, "\n" in the runs), none after the last line."""
    out: list[Run] = []
    for text, style in runs:
        text = _SPACE.sub(" ", _CONTROLS.sub("", text))
        if out and out[-1][0].endswith((" ", _LINE)) and text.startswith(" "):
            text = text[1:]
        if out and text.startswith(_LINE) and out[-1][0].endswith(" "):
            out[-1][0] = out[-1][0][:-1]
        text = text.replace(" " + _LINE, _LINE).replace(_LINE + " ", _LINE)
        if text:
            if out and out[-1][1] == style:
                out[-1][0] += text
            else:
                out.append([text, style])
    if out:
        out[0][0] = out[0][0].lstrip(_HTML_SPACE)
        out[-1][0] = out[-1][0].rstrip(_HTML_SPACE + _LINE)
    return [[text.replace(_LINE, "\n"), style] for text, style in out if text]
