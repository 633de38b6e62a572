"""A person's paper (A4 or US Letter) is remembered: chosen on the sheets panel, it is theirs for
every sheet they print afterwards, and the panel shows it chosen; until then the site's default."""

import pytest
from django.test import Client

from rosters.models import PaperChoice, PrintJob
from rosters.services import paper_for
from tests.rosters.helpers import job_pdf, pdf_reader

pytestmark = pytest.mark.django_db

LETTER = (612, 792)  # points
A4 = (595, 842)


def _size(job) -> tuple[int, int]:
    box = pdf_reader(job_pdf(job)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def _panel(client, campaign) -> str:
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    return page[page.index('id="sheets"') : page.index("</section>", page.index('id="sheets"'))]


def test_the_paper_chosen_is_remembered_and_applied_to_every_sheet(
    skirmish, people, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(people["alice"])
    assert paper_for(people["alice"]) == "A4"
    assert '<option value="A4" selected>' in _panel(client, skirmish)
    url = f"/campaigns/{skirmish.pk}/sheets/request/"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"sheet": "summary", "paper": "Letter"}).status_code == 302
    assert paper_for(people["alice"]) == "Letter"
    assert '<option value="Letter" selected>' in _panel(client, skirmish)
    assert '<option value="A4" selected>' not in _panel(client, skirmish)
    with django_capture_on_commit_callbacks(execute=True):  # no paper posted: hers
        client.post(url, {"sheet": "supply", "side": "red"})
    jobs = PrintJob.objects.filter(requested_by=people["alice"])
    assert {job.paper for job in jobs} == {"Letter"}
    for job in jobs:
        assert job.status == PrintJob.DONE
        assert _size(job) == LETTER
    printed = client.get(f"/campaigns/{skirmish.pk}/sheets/summary/print/").content.decode()
    assert "size: letter" in printed
    assert paper_for(people["bob"]) == "A4"  # one person's choice, nobody else's


def test_the_sites_default_until_a_person_chooses(skirmish, people, settings, request_job):
    settings.SHEET_PAPER_DEFAULT = "Letter"
    assert paper_for(people["bob"]) == "Letter"
    settings.SHEET_PAPER_DEFAULT = "Tabloid"  # no paper this site prints on
    assert paper_for(people["bob"]) == "A4"
    assert _size(request_job(people["bob"], skirmish, "summary", "A4")) == A4


def test_a_paper_the_site_does_not_print_on_is_refused_and_not_remembered(skirmish, people):
    client = Client()
    client.force_login(people["alice"])
    answer = client.post(
        f"/campaigns/{skirmish.pk}/sheets/request/", {"sheet": "summary", "paper": "Tabloid"}
    )
    assert answer.status_code == 400
    assert "Choose A4 or Letter" in answer.content.decode()
    assert not PaperChoice.objects.exists()
    assert not PrintJob.objects.exists()
