"""A!P! sheets end to end: a CG I initial refit played through the journal (entered dice), then
the sheets printed as PDFs by the print pipeline: each side's purchase record holds its own RGs
and none of the other side's; the other side cannot print it; the CG Roster lists every half-day."""

from __future__ import annotations

import pytest

from campaigns.errors import Forbidden
from tests.rosters.helpers import job_pdf, pdf_pages

from .campaign_harness import War

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def inline_tasks(settings, tmp_path):
    from muster.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def request_job(django_capture_on_commit_callbacks):
    from rosters.services import request_sheet

    def make(user, campaign, sheet, side=None):
        with django_capture_on_commit_callbacks(execute=True):
            job, _ = request_sheet(user, campaign, sheet, "A4", side)
        job.refresh_from_db()
        return job

    return make


def text_of(job) -> str:
    return "\n".join(pdf_pages(job_pdf(job)))


@pytest.fixture
def war(club, people):
    war = War(club, people)
    war.by("allied", "ap.declare", {"special": "none"})
    war.by("german", "ap.purchase", {"action": "buy", "rg": "A4"})
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "A5"})
    for side in ("allied", "german"):
        war.by(
            side, "ap.check", {"step": "1.619"}
        )  # done buying: 1.620 is rolled at once (server dice)
        assert (
            war.current(side).id == {"allied": "1.622", "german": "1.621"}[side]
        )  # the German has 50 FPP
    german = war.side("german")
    a4 = german["purchases"][-1]
    assert (a4["rg"], a4["cost"], german["cpp"]) == ("A4", 7, 1)
    assert a4["strength"] in ("full", "depleted") and a4["units"]
    return war


def test_purchase_record_pdf_is_private(war, people, request_job):
    job = request_job(people["alice"], war.campaign, "rg_purchases")
    text = text_of(job)
    assert "RG Purchase Record" in text and "Allied only" in text.replace(
        "ALLIED ONLY", "Allied only"
    )
    assert "Tank Destroyer" in text and "I2" in text  # bought A5; given 1st Line Coys
    assert "Pz IIIF" not in text and "(German)" not in text and "1st line Coy" not in text
    with pytest.raises(Forbidden):
        request_job(people["alice"], war.campaign, "rg_purchases", side="german")
    german = text_of(request_job(people["bob"], war.campaign, "rg_purchases"))
    assert (
        "Pz IIIF" in german
        and "A4 (German)" in " ".join(german.split())
        and "Tank Destroyer" not in german
        and "(French)" not in german
    )


def test_retained_pdf_is_private(war, people, request_job):
    with pytest.raises(Forbidden):
        request_job(people["bob"], war.campaign, "retained", side="allied")
    text = text_of(request_job(people["rita"], war.campaign, "retained", side="german"))
    assert "Retained units" in text


def test_cg_roster_pdf_lists_every_half_day(war, people, request_job):
    text = text_of(request_job(people["bob"], war.campaign, "cg_roster"))
    for hd in ("5/29A", "5/29P", "5/30A", "5/30P", "5/31A", "5/31P"):
        assert hd in text
    assert "CG Roster" in text and "Casualties" in text
    for secret in ("(German)", "(French)", "Tank Destroyer", "Pz IIIF", "CPP"):
        assert secret not in text
