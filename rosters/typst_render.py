"""Plain table sheets printed by Typst: the fast engine for long tables.

``rosters.table_sheet`` reads a long sheet made only of headings, paragraphs and tables of plain
text into data; the template beside this module (typst/table_sheet.typ) prints that data the way
static/print/sheet.css prints the HTML with WeasyPrint. Typst lays out 2,000 rows in well under a
second where WeasyPrint took several, and numbers the pages of the one document itself.

Each render runs in a child process (``python -m rosters.typst_render``, the sheet's JSON on
stdin, the PDF on stdout): Typst keeps what it memoised from the last renders in its process
(about 90 MB for each 2,000-row sheet), which a long-lived worker must not accumulate, and a
child holds none of the worker's threads or locks. Where Typst cannot print (not installed, a
failure, too slow), ``write_pdf`` answers None and the sheet goes to WeasyPrint as before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from . import word_widths

if TYPE_CHECKING:
    from .table_sheet import Cell, Sheet

logger = logging.getLogger("rosters.pdf")

TEMPLATE = Path(__file__).resolve().parent / "typst" / "table_sheet.typ"
PROJECT = TEMPLATE.parents[2]
TIMEOUT_SECONDS = 120
MEMORY_BYTES = 4 << 30  # the child's own limits: it ends even if its parent was killed first
COMMAND = (
    sys.executable,
    "-m",
    "rosters.typst_render",
)  # the child: the sheet's JSON in, the PDF out


def write_pdf(sheet: Sheet) -> bytes | None:
    """The sheet's PDF, or None when Typst could not make it here (the caller uses WeasyPrint)."""
    try:
        out = subprocess.run(
            COMMAND,
            input=json.dumps(sheet).encode(),
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            cwd=PROJECT,
            env=_child_environment(),
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        logger.warning(
            "Typst could not print a table sheet (%s); WeasyPrint prints it", type(error).__name__
        )
        return None
    if out.returncode != 0 or not out.stdout.startswith(b"%PDF-"):
        last = (out.stderr.decode(errors="replace").strip().splitlines() or [""])[-1]
        logger.warning(
            "Typst could not print a table sheet (exit %s: %.500s); WeasyPrint prints it",
            out.returncode,
            last,
        )
        return None
    return out.stdout


def _child_environment() -> dict[str, str]:
    """What the child needs of the environment: where programs are and the locale; none of the
    worker's settings or secrets."""
    return {
        name: os.environ[name]
        for name in ("PATH", "LANG", "LC_ALL", "TMPDIR")
        if name in os.environ
    }


def version() -> str:
    """A digest of what a Typst sheet is printed with (the template, this module and the reader, the
    Typst release): part of a sheet's content hash, so that changing any of them prints new PDFs."""
    from . import table_sheet

    digest = hashlib.sha256(TEMPLATE.read_bytes())
    for module in (__file__, table_sheet.__file__, word_widths.__file__):
        digest.update(Path(module).read_bytes())
    try:
        digest.update(metadata.version("typst").encode())
    except metadata.PackageNotFoundError:
        digest.update(b"no typst")
    return digest.hexdigest()


class TypstWarned(RuntimeError):
    """Typst warned (a font missing, say): the sheet would not look as WeasyPrint prints it."""


def compile_pdf(sheet_json: str) -> bytes:
    """The PDF of the sheet data, in this process (the child's work)."""
    import typst

    sheet: Sheet = json.loads(sheet_json)  # what write_pdf sent
    mark_long_words(
        sheet, word_widths.Widths(typst.Fonts(include_embedded_fonts=False).fonts(), strict=True)
    )
    compiler = typst.Compiler(str(TEMPLATE), root=str(TEMPLATE.parent))
    pdf, warnings = compiler.compile_with_warnings(
        sys_inputs={"sheet": json.dumps(sheet)}, pdf_tags=False
    )
    if warnings:
        raise TypstWarned("; ".join(str(warning) for warning in warnings)[:500])
    if not isinstance(pdf, bytes):  # never for a PDF: one document, not one image per page
        raise RuntimeError("Typst gave no PDF")
    return pdf


def mark_long_words(sheet: Sheet, widths: word_widths.Widths) -> None:
    """Mark "fit" the cells holding a word that may be wider than its column: the template measures
    those words and lets the ones that do not fit break anywhere (overflow-wrap: anywhere, as in
    sheet.css). Measuring every cell in Typst would take four times as long; the font's advance
    widths here tell the few cells that need it (with a margin for kerning)."""
    content = word_widths.content_pt(sheet["paper"], sheet["landscape"])
    for table in (block for block in sheet["blocks"] if block["kind"] == "table"):
        shares = table["widths"]  # every column's, in % (rosters.table_sheet requires them)
        for bold, row in ((True, table["head"]), *((False, row) for row in table["rows"])):
            at = 0
            for i, cell in enumerate(row):
                span = 1 if isinstance(cell, str) else cell["span"]
                text = cell if isinstance(cell, str) else cell["text"]
                room = content * sum(shares[at : at + span]) / 100 - word_widths.CELL_PADDING_PT
                if widths.widest_word(text, bold) * 1.05 > room:
                    marked: Cell = (
                        {"text": text, "num": False, "span": 1} if isinstance(cell, str) else cell
                    )
                    marked["fit"] = True
                    row[i] = marked
                at += span


def _limit_this_process() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (TIMEOUT_SECONDS, TIMEOUT_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


if __name__ == "__main__":
    _limit_this_process()
    sys.stdout.buffer.write(compile_pdf(sys.stdin.buffer.read().decode()))
