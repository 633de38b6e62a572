"""A!P! sheets of a campaign in play on the fast table engine (Typst, rosters/typst_render.py): the
same text on the same pages as WeasyPrint prints from the same HTML, on either paper, and only the
side's own."""

from __future__ import annotations

import pytest

from campaigns.services import demo
from campaigns.systems import all_systems
from rosters import pdf, services, table_sheet
from tests.rosters.helpers import pdf_reader, same_text_as_weasyprint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def long_enough(monkeypatch):
    """The demo's lists are shorter than a long campaign's: they go to Typst all the same."""
    monkeypatch.setattr(table_sheet, "MIN_ROWS", 5)


@pytest.fixture
def played():
    """The A!P! demo (CG I, its first half-days played): retained units, purchases, a CG Roster."""
    users = {key: demo._demo_user(name) for key, (name, _) in demo.PEOPLE.items()}
    system = all_systems()["achtung_panzer"]
    table = demo.DemoTable(demo._demo_club(users), users, system)
    system.demo(table)
    return table.campaign, users


def engine(data: bytes) -> str:
    metadata = pdf_reader(data).metadata or {}
    return str(metadata.get("/Creator") or metadata.get("/Producer") or "").split(" ")[0]


def sheet_html(user, campaign, sheet: str, paper: str = "A4", side: str | None = None) -> str:
    template, context = services.print_context(user, campaign, sheet, paper, side)
    return pdf.sheet_html(template, context)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("side", ["allied", "german"])
def test_retained_units_print_with_typst_as_weasyprint_prints_them(played, paper, side):
    campaign, users = played
    html = sheet_html(users["referee"], campaign, "retained", paper, side)
    assert 'class="fixed"' in html  # fixed column widths: nothing measured first
    data = same_text_as_weasyprint(html)
    assert engine(data) == "Typst"
    box = pdf_reader(data).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (
        (595, 842) if paper == "A4" else (612, 792)
    )


def test_a_sides_retained_units_hold_none_of_the_others(played):
    campaign, users = played
    german = sheet_html(users["referee"], campaign, "retained", side="german")
    text = "".join(page.extract_text() for page in pdf_reader(pdf.html_to_pdf(german)).pages)
    allied = "".join(
        page.extract_text()
        for page in pdf_reader(
            pdf.html_to_pdf(sheet_html(users["referee"], campaign, "retained", side="allied"))
        ).pages
    )
    assert "GERMAN ONLY" in text and "ALLIED" not in text and "ALLIED ONLY" in allied
    assert "British" not in text and "French" not in text and "British" in allied


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("side", ["allied", "german"])
def test_the_rg_purchase_record_and_its_charts_print_with_typst(played, paper, side):
    campaign, users = played
    html = sheet_html(users["referee"], campaign, "rg_purchases", paper, side)
    assert html.count('<figure class="trend-chart">') >= 2  # the half-day charts
    data = same_text_as_weasyprint(html)
    assert engine(data) == "Typst"


def test_a_sides_purchase_record_holds_none_of_the_others(played):
    campaign, users = played
    data = pdf.html_to_pdf(sheet_html(users["referee"], campaign, "rg_purchases", side="german"))
    text = "".join(page.extract_text() for page in pdf_reader(data).pages)
    assert engine(data) == "Typst"
    assert "GERMAN ONLY" in text and "ALLIED ONLY" not in text
    assert "(French)" not in text and "(British)" not in text and "(German)" in text


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_cg_roster_prints_with_typst_as_weasyprint_prints_it(played, paper):
    """Two head rows (CG, Date and Winner over both), a foot with the totals."""
    campaign, users = played
    html = sheet_html(users["bob"], campaign, "cg_roster", paper)
    sheet = table_sheet.read(html)
    assert sheet is not None
    roster = next(block for block in sheet["blocks"] if block["kind"] == "table")
    assert [cell["text"] for cell in roster["head"]] == ["CG", "Date", "Allied", "German", "Winner"]
    assert [c if isinstance(c, str) else c["text"] for c in roster["more_head"][0]] == [
        "",
        "",
        "Mod",
        "O.P.",
        "Casualties",
        "Mod",
        "O.P.",
        "Casualties",
        "",
    ]  # an empty cell under each heading over both rows, no line between them
    assert roster["foot"][0][0]["text"] == "Total"
    data = same_text_as_weasyprint(html)
    assert engine(data) == "Typst"
