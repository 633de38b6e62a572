"""Long table sheets printed by Typst (rosters.typst_render): one document numbered throughout,
laid out as WeasyPrint lays out the same HTML, every text shown as it is, and WeasyPrint again
whenever Typst cannot print."""

import logging
import re
import sys

import pytest

from rosters import pdf, pdf_parts, services, typst_render, weasyprint_render
from tests.testsystem import SYSTEM as SKIRMISH

from .helpers import job_pdf, pdf_pages, pdf_reader

# Wider than any column could be on the page: the one kind of word that breaks.
LONG_WORD = (
    "Oberkommandoderwehrmachtsnachrichtenverbindungsabteilungsgruppe"
    "Hauptquartierfernmeldezentralenbetriebsleitungsstellenverwaltung"
)
MARKUP = '#read("/etc/passwd") *bold* $x$ <a> @ref = \\ [b] _i_ // `code`'


@pytest.fixture
def long_sheet(monkeypatch):
    """The supply sheet, long enough for WeasyPrint to lay out in parts, with a row holding Typst markup and one
    a word wider than its column."""
    rows = [[f"row-{i:04d}", i, "ready"] for i in range(pdf_parts.MIN_ROWS + 60)]
    rows[7][2] = MARKUP
    rows[11][0] = LONG_WORD
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [{"title": "Supply", "columns": ["Unit", "Points", "Status"], "rows": rows}]
        },
    )
    return rows


def squeezed(text: str) -> str:
    """The text without white space: pypdf reads some kerned pairs of Typst's as a break ("Poin ts")."""
    return "".join(text.split())


def row_names(text: str) -> list[str]:
    return re.findall(r"row-\d{4}", squeezed(text))


def producer(data: bytes) -> str:
    """The engine that made the PDF (Typst names itself the creator, WeasyPrint the producer)."""
    metadata = pdf_reader(data).metadata
    return str(metadata.get("/Producer") or metadata.get("/Creator") or "")


def test_a_long_table_sheet_is_one_typst_document_numbered_throughout(
    skirmish, people, request_job, long_sheet
):
    data = job_pdf(request_job(people["alice"], skirmish, "supply"))
    assert producer(data).startswith("Typst")
    pages = pdf_pages(data)
    assert len(pages) >= 10
    for number, text in enumerate(map(squeezed, pages), start=1):
        assert f"Page{number}of{len(pages)}" in text
        assert "UnitPointsStatus" in text  # the table head on every page
        assert (
            "Supplyrecord" in text and "TuesdayNightASL" in text and "Testwar" in text
        )  # the page header
        assert "Asof" in text
    found = [int(name[4:]) for text in pages for name in row_names(text)]
    assert found == [i for i in range(len(long_sheet)) if i != 11]  # each row once, in order


def test_text_is_printed_as_it_is_never_read_as_markup(skirmish, people, request_job, long_sheet):
    data = job_pdf(request_job(people["alice"], skirmish, "supply"))
    assert producer(data).startswith("Typst")  # not WeasyPrint after a failed compile
    text = squeezed("".join(pdf_pages(data)))
    assert squeezed(MARKUP) in text
    assert "root:" not in text


def test_a_word_wider_than_its_column_breaks_inside_it(skirmish, people, request_job, long_sheet):
    """overflow-wrap: anywhere, as sheet.css asks of WeasyPrint: the word is all there, on several lines."""
    data = job_pdf(request_job(people["alice"], skirmish, "supply"))
    assert producer(data).startswith("Typst")
    page = pdf_reader(data).pages[0]
    lines = [line for line in page.extract_text().splitlines() if line.strip()]
    holding = [
        line for line in lines if any(part in line for part in (LONG_WORD[:8], LONG_WORD[-8:]))
    ]
    assert len(holding) == 2, holding  # its start and its end on different lines
    assert LONG_WORD in "".join(line.split(" ")[0] for line in lines)


def test_typst_paginates_a_long_sheet_as_weasyprint_does(skirmish, people, long_sheet, monkeypatch):
    """The same HTML through both engines: as many pages, the same rows on each."""
    long_sheet[11][0] = "row-0011"
    template, context = services.print_context(people["alice"], skirmish, "supply", "A4")
    html = pdf.sheet_html(template, context)
    by_typst = pdf.html_to_pdf(html)
    by_weasyprint = weasyprint_render._one(html)
    assert producer(by_typst).startswith("Typst") and producer(by_weasyprint).startswith(
        "WeasyPrint"
    )

    def rows_by_page(data):
        return [row_names(text) for text in pdf_pages(data)]

    assert rows_by_page(by_typst) == rows_by_page(by_weasyprint)


def test_paper_size_and_orientation(skirmish, people, request_job, long_sheet):
    data = job_pdf(request_job(people["alice"], skirmish, "supply", paper="Letter"))
    box = pdf_reader(data).pages[0].mediabox
    assert producer(data).startswith("Typst")
    assert (round(float(box.width), 1), round(float(box.height), 1)) == (612.0, 792.0)
    for paper, size in (("A4", (841.9, 595.3)), ("Letter", (792.0, 612.0))):
        template, context = services.print_context(people["alice"], skirmish, "supply", paper)
        html = pdf.sheet_html(template, context).replace(
            f"size: {paper.lower() if paper == 'Letter' else paper};",
            f"size: {paper.lower() if paper == 'Letter' else paper} landscape;",
        )
        data = pdf.html_to_pdf(html)
        box = pdf_reader(data).pages[0].mediabox
        assert producer(data).startswith("Typst")
        assert (round(float(box.width), 1), round(float(box.height), 1)) == size


def test_the_same_html_gives_the_same_bytes_in_the_installed_dejavu(skirmish, people, long_sheet):
    template, context = services.print_context(people["alice"], skirmish, "supply", "A4")
    html = pdf.sheet_html(template, context)
    first = pdf.html_to_pdf(html)
    assert pdf.html_to_pdf(html) == first
    reader = pdf_reader(first)
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in (f.get_object() for f in page["/Resources"]["/Font"].values())
    }
    assert fonts and all("DejaVuSans" in name for name in fonts), fonts


def test_when_typst_cannot_print_weasyprint_does(
    skirmish, people, request_job, long_sheet, monkeypatch, caplog
):
    monkeypatch.setattr(
        typst_render, "COMMAND", (sys.executable, "-c", "import sys; sys.exit('no typst here')")
    )
    monkeypatch.setattr(weasyprint_render, "_cpus", lambda: 2)
    joined = []
    real_join = pdf_parts.join
    monkeypatch.setattr(pdf_parts, "join", lambda *args: joined.append(1) or real_join(*args))
    with caplog.at_level(logging.WARNING, logger="rosters.pdf"):
        data = job_pdf(request_job(people["alice"], skirmish, "supply"))
    assert not producer(data).startswith("Typst") and joined  # WeasyPrint in parts, as before Typst
    assert any("Typst could not print" in record.getMessage() for record in caplog.records)
    pages = pdf_pages(data)
    assert all(f"Page {n} of {len(pages)}" in text for n, text in enumerate(pages, start=1))
    assert [int(name[4:]) for text in pages for name in row_names(text)] == [
        i for i in range(len(long_sheet)) if i != 11
    ]


def test_a_typst_warning_is_a_failure(monkeypatch, tmp_path):
    """A missing font, say: Typst would print in another one, so the sheet goes to WeasyPrint instead."""
    template = tmp_path / "sheet.typ"
    template.write_text('#set text(font: "No Such Font")\nHello')
    monkeypatch.setattr(typst_render, "TEMPLATE", template)
    with pytest.raises(typst_render.TypstWarned, match="(?i)no such font"):
        typst_render.compile_pdf('{"paper": "a4", "landscape": false, "blocks": []}')


def test_the_child_gets_none_of_the_workers_secrets(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://secret@db/muster")
    monkeypatch.setenv("SECRET_KEY", "s3cret")
    environment = typst_render._child_environment()
    assert "DATABASE_URL" not in environment and "SECRET_KEY" not in environment
    assert environment.get("PATH")


def test_changing_how_typst_prints_changes_the_sheets_content_hash(monkeypatch, tmp_path):
    template = tmp_path / "sheet.typ"
    template.write_bytes(typst_render.TEMPLATE.read_bytes())
    monkeypatch.setattr(typst_render, "TEMPLATE", template)
    before = typst_render.version()
    template.write_bytes(template.read_bytes() + b"\n// changed\n")
    assert typst_render.version() != before


def test_a_stalled_typst_gives_way_to_weasyprint(monkeypatch):
    import subprocess

    def stalled(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], typst_render.TIMEOUT_SECONDS)

    monkeypatch.setattr(typst_render.subprocess, "run", stalled)
    assert typst_render.write_pdf({"blocks": []}) is None
