"""Blank sheets: each game's sheets with empty rows, printed before any campaign exists, through the
print queue and the member's limit; one page each, nothing of any campaign in them."""

import re

import pytest
from django.test import Client

from campaigns.errors import DomainError, TooMany
from campaigns.systems import all_systems
from rosters import pdf, sheets
from rosters.models import PrintJob
from rosters.services import request_blank
from tests.rosters.helpers import job_pdf, pdf_pages

pytestmark = pytest.mark.django_db

BLANKS = [
    ("achtung_panzer", "cg_roster", "CG Roster"),
    ("achtung_panzer", "rg_purchases", "RG Purchase Record"),
    ("rifles_ardennes", "squad_roster", "Squad Roster"),
    ("ardennes44", "ledger", "Victory ledger"),
    ("fab_bulge", "ledger", "Victory ledger"),
    ("pattons_vanguard", "ledger", "Victory ledger"),
]


def job_sheet(job):
    return sheets.find_sheet(all_systems()[job.system], job.sheet)


def _blank(user, system, sheet, paper, capture):
    with capture(execute=True):
        job, _ = request_blank(user, system, sheet, paper)
    job.refresh_from_db()
    return job


def test_every_game_offers_the_blank_sheets_the_table_needs():
    offered = {
        (slug, s.slug) for slug, game in all_systems().items() for s in sheets.blank_sheets_of(game)
    }
    assert offered == {(system, sheet) for system, sheet, _ in BLANKS}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize(("system", "sheet", "title"), BLANKS)
def test_a_blank_sheet_renders_its_title_and_empty_rows_on_one_page(
    system, sheet, title, paper, people, django_capture_on_commit_callbacks
):
    job = _blank(people["carol"], system, sheet, paper, django_capture_on_commit_callbacks)
    assert job.status == PrintJob.DONE and job.campaign is None and job.audience == "blank"
    pages = pdf_pages(job_pdf(job))
    assert len(pages) == 1  # the blank rows are as many as one page holds
    text = pages[0]
    assert title in text and "Blank sheet" in text and all_systems()[system].name in text
    assert "No turn recorded" not in text and "No half-days yet" not in text
    assert "not been created" not in text and "No RG yet" not in text


@pytest.mark.parametrize(("system", "sheet", "title"), BLANKS)
def test_a_blank_sheet_has_its_empty_rows_and_nothing_of_any_campaign(
    system, sheet, title, skirmish, people, django_capture_on_commit_callbacks
):
    job = _blank(people["alice"], system, sheet, "A4", django_capture_on_commit_callbacks)
    text = " ".join(pdf_pages(job_pdf(job)))
    assert skirmish.name not in text and skirmish.club.name not in text
    assert "As of" not in text and "alice" not in text
    html = pdf.sheet_html(job_sheet(job).template, job.context)
    empty = re.findall(r"<tr>(?:\s*<td[^>]*>\s*</td>)+\s*</tr>", html)
    numbered = re.findall(r"<tr><td>\d+</td>(?:<td></td>)+</tr>", html)  # the ledger's turns
    assert len(empty) + len(numbered) >= 8


def test_one_render_serves_everyone_and_counts_once(people, django_capture_on_commit_callbacks):
    first = _blank(
        people["carol"], "rifles_ardennes", "squad_roster", "A4", django_capture_on_commit_callbacks
    )
    again = _blank(
        people["bob"], "rifles_ardennes", "squad_roster", "A4", django_capture_on_commit_callbacks
    )
    assert first.pk == again.pk and PrintJob.objects.count() == 1


def test_blank_sheets_count_against_the_members_limit(
    people, settings, django_capture_on_commit_callbacks
):
    settings.SHEET_RENDERS_PER_MEMBER = 2
    with django_capture_on_commit_callbacks(execute=False):
        request_blank(people["carol"], "achtung_panzer", "cg_roster", "A4")
        request_blank(people["carol"], "achtung_panzer", "cg_roster", "Letter")
        with pytest.raises(TooMany):
            request_blank(people["carol"], "ardennes44", "ledger", "A4")
    assert PrintJob.objects.count() == 2


def test_the_page_lists_each_games_blank_sheets_for_signed_in_people_only(club, people):
    client = Client()
    assert client.get("/sheets/blank/").status_code == 302  # to sign in
    client.force_login(people["carol"])
    page = client.get("/sheets/blank/").content.decode()
    for system, sheet, title in BLANKS:
        assert f'value="{system}"' in page and f'value="{sheet}"' in page and title in page
    assert "/sheets/blank/" in client.get(f"/clubs/{club.slug}/").content.decode()


@pytest.mark.parametrize(
    ("posted", "field"),
    [
        ({"system": "achtung_panzer", "sheet": ""}, "Choose a sheet"),
        ({"system": "achtung_panzer", "sheet": "retained"}, "No blank sheet named"),
        ({"system": "achtung_panzer", "sheet": "nope"}, "No blank sheet named"),
        ({"system": "chess", "sheet": "ledger"}, "No game named"),
        ({"system": "ardennes44", "sheet": "ledger", "paper": "Tabloid"}, "Choose A4 or Letter"),
    ],
)
def test_bad_input_is_a_clear_error_and_changes_nothing(posted, field, people):
    client = Client()
    client.force_login(people["carol"])
    answer = client.post("/sheets/blank/", posted)
    assert answer.status_code == 400
    assert field in answer.content.decode()
    assert not PrintJob.objects.exists()
    with pytest.raises(DomainError):
        request_blank(people["carol"], posted["system"], posted["sheet"], posted.get("paper", "A4"))


def test_the_job_page_and_download_of_a_blank_sheet(people, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(people["carol"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/sheets/blank/", {"system": "ardennes44", "sheet": "ledger", "paper": "Letter"}
        )
    assert answer.status_code == 302
    job = PrintJob.objects.get()
    assert job.paper == "Letter"
    other = Client()
    other.force_login(people["bob"])  # nothing of anyone in it: every signed-in person may fetch it
    assert "Blank sheets" in other.get(f"/sheets/jobs/{job.pk}/").content.decode()
    download = other.get(f"/sheets/jobs/{job.pk}/file/")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert Client().get(f"/sheets/jobs/{job.pk}/").status_code == 302  # not signed in
