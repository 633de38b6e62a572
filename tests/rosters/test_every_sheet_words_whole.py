"""Every sheet of every game of the demo club, printed: each heading word of each table is whole in
the PDF (never "Scen ario", "Nationa lity", "Tur n"), and ids such as "u5/8" too."""

import re
from html import unescape
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign
from campaigns.services.state import current_state
from campaigns.systems import get_system
from rosters import pdf, services, sheets

from .helpers import pdf_pages

pytestmark = pytest.mark.django_db


def _headings(html: str) -> set[str]:
    cells = re.findall(r"<th\b[^>]*>(.*?)</th>", html, flags=re.S)
    words = set()
    for cell in cells:
        words.update(unescape(re.sub(r"<[^>]+>", " ", cell)).split())
    return {w for w in words if len(w) > 2 and w.isalpha()}


def test_every_heading_of_every_demo_sheet_prints_whole():
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    referee = get_user_model().objects.get(username="demo-referee")
    printed = 0
    for campaign in Campaign.objects.filter(club__slug="demo-club").order_by("pk"):
        state = current_state(campaign)
        for sheet in sheets.sheets_of(get_system(campaign.system)):
            sides = list(state["sides"]) if sheet.audience == "side" else [None]
            for side in sides:
                template, context = services.print_context(
                    referee, campaign, sheet.slug, "A4", side
                )
                html = pdf.sheet_html(template, context)
                words = " ".join(pdf_pages(pdf.html_to_pdf(html))).split()
                missing = sorted(w for w in _headings(html) if w not in words)
                assert not missing, (campaign.system, sheet.slug, side, missing)
                printed += 1
    assert printed >= 10
