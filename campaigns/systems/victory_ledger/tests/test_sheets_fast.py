"""A ledger with its charts on the fast table engine (Typst, rosters/typst_render.py): each ledger
game's demo prints the same text on the same pages as WeasyPrint prints from the same HTML, lines
of a cell (<br>) and bold words included, on either paper."""

from __future__ import annotations

import pytest

from campaigns.services import demo
from campaigns.systems import all_systems
from rosters import pdf, services, table_sheet
from tests.rosters.helpers import pdf_reader, same_text_as_weasyprint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def long_enough(monkeypatch):
    """A demo's ledger is shorter than a whole campaign's: it goes to Typst all the same."""
    monkeypatch.setattr(table_sheet, "MIN_ROWS", 5)


def ledger_html(game: str, paper: str) -> str:
    users = {key: demo._demo_user(name) for key, (name, _) in demo.PEOPLE.items()}
    system = all_systems()[game]
    table = demo.DemoTable(demo._demo_club(users), users, system)
    system.demo(table)
    template, context = services.print_context(
        users["referee"], table.campaign, "ledger", paper, None
    )
    return pdf.sheet_html(template, context)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game", ["ardennes44", "fab_bulge", "pattons_vanguard"])
def test_a_ledger_and_its_charts_print_with_typst_as_weasyprint_prints_them(game, paper):
    html = ledger_html(game, paper)
    assert '<figure class="trend-chart">' in html and "<br>" in html
    data = same_text_as_weasyprint(html)
    metadata = pdf_reader(data).metadata or {}
    assert str(metadata.get("/Creator") or "").startswith("Typst")
