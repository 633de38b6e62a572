"""The Squad Roster through the print pipeline: what it prints is the squad (AP, unit/eq name,
designation, ID, equipment, status, veteran/skill, XP, RP, the Game Turn Track 1–12), for the
club; the PDF holds it."""

from __future__ import annotations

import pytest

from rosters import sheets
from tests.rosters.helpers import job_pdf, pdf_pages

from .harness import Squad
from .test_campaign_journal import _play


@pytest.fixture(autouse=True)
def inline_tasks(settings, tmp_path):
    from muster.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def played(club, people):
    s = Squad(club, people)
    _play(s)
    return s


def test_the_squad_roster_prints_the_squad(played):
    from campaigns.services.state import current_state
    from campaigns.systems import get_system

    campaign = played.campaign
    sheet = sheets.find_sheet(get_system(campaign.system), "squad_roster")
    assert sheet.audience == "public"
    context = sheets.render_context(campaign, current_state(campaign), sheet, "public", "A4")[
        "system"
    ]
    lines = [
        (x["ap"], x["name"], x["designation"], x["id"], x["equipment"], x["status"], x["honours"])
        for x in context["lines"]
    ]
    # The living soldiers of the acceptance journal (the dead are struck off, 8.3), then the equipment.
    assert lines == [
        (1, "SMG", "Rifleman", "A", ["Grenade", ""], "", "Battlefield control"),
        (1, "Rifle", "Assistant Leader", "B", ["Grenade", ""], "", ""),
        (3, "LMG", "Gunner", "J", ["", ""], "", "Bull Strength"),
        (1, "Rifle", "Rifleman", "G", ["Grenade", ""], "Wounded", "Veteran"),
        (1, "Rifle", "Rifleman", "I", ["", ""], "", ""),
        (1, "Rifle", "Rifleman", "D", ["", ""], "", ""),
        (1, "SMG", "Leader", "K", ["", ""], "", ""),
        (1, "Rifle", "Rifleman", "H", ["", ""], "", ""),
        (1, "5x Grenades", "Equipment", "—", ["", ""], "", ""),
    ]
    assert (context["xp"], context["xp_earned"], context["xp_spent"]) == (0, 8, 8)
    # A 1 + B 1 + J 3 + I 1 + D 1 + K 1 + H 1 = 9 units, + 1 equipment = 10; the wounded Lang (G) does not count
    assert context["squad_ap"] == 10
    assert context["track"] == list(range(1, 13))
    assert [m["outcome"] for m in context["missions"]] == ["accomplished", "lost", "aborted"]
    assert [d["name"] for d in context["memorial"]] == ["Pvt. Weber (D)", "Pvt. Roth (H)"]


def test_the_squad_roster_pdf(played, people, django_capture_on_commit_callbacks):
    from rosters.services import request_sheet

    with django_capture_on_commit_callbacks(execute=True):
        job, _ = request_sheet(
            people["carol"], played.campaign, "squad_roster", "A4"
        )  # any club member
    job.refresh_from_db()
    assert job.status == "done", job.error
    text = "\n".join(pdf_pages(job_pdf(job)))
    for words in (
        "Squad Roster",
        "Germans against United States of America",
        "Sgt. Braun",
        "Battlefield control",
        "Lt. Keller",
        "Leader",
        "Wounded",
        "Game Turn Track",
        "Experience Points",
        "Recon Points",
        "In memory",
        "Pvt. Weber",
        "5x Grenades",
    ):
        assert words in text, words
