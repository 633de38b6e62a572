"""How wide words print on a sheet, and how wide a sheet's columns must be for them.

Sheets print in DejaVu Sans at 9.5 pt (static/print/sheet.css, rosters/typst/table_sheet.typ).
Its advance widths, read once per process from the font files (found the way Typst finds them),
tell how wide a word prints without laying anything out; a glyph the font lacks counts 1 em.

``column_widths`` gives a fixed-width table (the generic sheet tables) columns in which every
heading, id and ordinary word fits whole, with the room left shared by how much text each column
holds; ``breakable_width`` tells, for a table laid out by the engine (a sheet template's own
tables), above which width a word may break anywhere so that the table fits the page. Only a
word wider than its column ever breaks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Typst is imported only where a sheet is measured
    from typst import FontInfo

FONT_PT = 9.5
# The width tables may take (the page less its 14 mm side margins), in points, by paper.
CONTENT_PT = {
    ("a4", False): 515.9,
    ("a4", True): 762.5,
    ("us-letter", False): 532.6,
    ("us-letter", True): 712.6,
}
CELL_PADDING_PT = 8.5  # 1.5 mm on either side
CELL_EXTRA_PT = CELL_PADDING_PT + 1.0  # and the collapsed borders, with a little room for kerning
LONGEST_TEXT = 40  # characters of a cell that count for its column's share of the room left
_FALLBACK_EM = 0.62  # a DejaVu Sans character is about this wide on average (no font found)


def content_pt(paper: str, landscape: bool) -> float:
    """The width a table may take on this paper ("A4", "Letter" or Typst's "us-letter")."""
    key = "us-letter" if paper.lower() in ("letter", "us-letter") else "a4"
    return CONTENT_PT[key, bool(landscape)]


class Widths:
    """Word widths at 9.5 pt from DejaVu Sans's advance widths. ``strict``: with no DejaVu Sans,
    every word counts as too wide (the Typst engine then lets every word break); otherwise an
    average character width stands in."""

    def __init__(self, fonts: Iterable[FontInfo] = (), strict: bool = False) -> None:
        from fontTools.ttLib import TTFont

        self.strict = strict
        self.advances: dict[bool, dict[int, float]] = {}
        for info in fonts:
            if (
                info.family == "DejaVu Sans"
                and info.style == "normal"
                and info.stretch == 1.0
                and info.weight in (400, 700)
            ):
                font = TTFont(info.path, fontNumber=info.index, lazy=True)
                scale = FONT_PT / font["head"].unitsPerEm
                metrics = font["hmtx"].metrics
                self.advances[info.weight == 700] = {
                    code: metrics[name][0] * scale for code, name in font.getBestCmap().items()
                }

    def word(self, word: str, bold: bool = False, size: float = FONT_PT) -> float:
        advances = self.advances.get(bold)
        if advances is None:
            return float("inf") if self.strict else len(word) * _FALLBACK_EM * size
        return sum(advances.get(ord(c), FONT_PT) for c in word) * size / FONT_PT

    def widest_word(self, text: str, bold: bool = False, size: float = FONT_PT) -> float:
        return max((self.word(word, bold, size) for word in text.split()), default=0.0)


@lru_cache(maxsize=1)
def dejavu() -> Widths:
    """The sheets' font widths, for this process (about 0.1 s the first time)."""
    fonts: Sequence[FontInfo]
    try:
        import typst

        fonts = typst.Fonts(include_embedded_fonts=False).fonts()
    except Exception:  # noqa: BLE001  (no Typst here: an average width stands in)
        fonts = ()
    return Widths(fonts)


def breakable_width(columns: list[float], room: float) -> float:
    """The widest a word may be and stay whole, for columns whose widest words are `columns` (pt,
    padding included): the largest width at which every column fits `room`, or no limit."""
    if sum(columns) <= room:
        return float("inf")
    low, high = 0.0, max(columns)
    for _ in range(40):  # a width to within a hundredth of a point
        middle = (low + high) / 2
        if sum(min(c, middle) for c in columns) <= room:
            low = middle
        else:
            high = middle
    return low


def column_widths(
    columns: list[str],
    rows: list[list[object]],
    paper: str = "A4",
    landscape: bool = False,
    widths: Widths | None = None,
) -> list[float]:
    """Each column's share (%) of a fixed-width table: first the room its widest word needs (the
    heading's in bold), then the room left by how much text it holds. A word that cannot fit even
    then (the needs exceed the page) is the only one that breaks."""
    widths = widths or dejavu()
    room = content_pt(paper, landscape)
    count = len(columns)
    if not count:
        return []
    need = [widths.widest_word(str(name), bold=True) + CELL_EXTRA_PT for name in columns]
    text = list(need)  # how wide its text is, up to LONGEST_TEXT characters
    for row in rows:
        for index, cell in enumerate(row[:count]):
            cell = str(cell)
            need[index] = max(need[index], widths.widest_word(cell) + CELL_EXTRA_PT)
            text[index] = max(text[index], widths.word(cell[:LONGEST_TEXT]) + CELL_EXTRA_PT)
    limit = breakable_width(need, room)
    need = [min(n, limit) for n in need]
    left = max(room - sum(need), 0.0)
    weights = [max(t - n, 0.0) for t, n in zip(text, need)]
    total = sum(weights)
    if total == 0:
        weights, total = need, sum(need)
    return [100 * (n + left * w / total) / room for n, w in zip(need, weights)]
