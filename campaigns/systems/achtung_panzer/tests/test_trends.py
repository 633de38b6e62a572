"""Trends: CPP, ELR, SAN and objective points per side, half-day by half-day, as charts on the
campaign page and in the sheets. The numbers are the journal's (a corpus journal's known values);
a side's charts hold its own CPP and never the other side's, whatever that side did in secret
(the secrecy tests' method: two campaigns that differ only in the other side's hidden steps)."""

import json
from pathlib import Path

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns import charts
from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.selectors.trends import campaign_trends
from campaigns.services import journal_files
from campaigns.services.state import current_state
from campaigns.systems import get_system
from campaigns.systems.achtung_panzer.tests.test_system_secrecy import _war
from rosters import sheets

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).parents[1] / "journals" / "c548a25-achtung-panzer-v5"


def _series(found, title):
    chart = next(c for c in found if c["title"] == title)
    return chart["x"], {s["name"]: s["values"] for s in chart["series"]}


@pytest.fixture
def cg2():
    """The corpus's CG II journal: three half-days, two of them played (6/1A, 6/1P)."""
    document = json.loads((CORPUS / "ap-cg2-table.json").read_text())
    expected = json.loads((CORPUS / "ap-cg2-table.expected.json").read_text())
    campaign = journal_files.replay_journal(document, create_club=True, create_people=True).campaign
    return campaign, expected


def test_the_series_are_the_corpus_journals_known_values(cg2):
    campaign, expected = cg2
    found = campaign_trends(campaign, Viewer.everything(("allied", "german")))
    x, points = _series(found, "Points by half-day")
    known = expected["sides"]
    assert x == [line["half_day"] for line in known["half_days"]] == ["6/1A", "6/1P", "6/2A"]
    # the CPP left now is the last point; each played half-day's objective points its roster line's
    assert points["German CPP left"][-1] == known["german"]["cpp"] == 22
    assert points["Allied CPP left"][-1] == known["allied"]["cpp"] == 0
    for side, name in (("allied", "Allied"), ("german", "German")):
        assert points[f"{name} objective points"] == [
            line["op"][side] for line in known["half_days"]
        ]
    # ELR per nationality as the roster line of each half-day announced it; SAN as announced
    _, ratings = _series(found, "ELR by half-day (as announced, 1.625)")
    assert ratings["French ELR"][-1] == known["allied"]["elr"]["french"]
    assert ratings["British ELR"][-1] == known["allied"]["elr"]["british"]
    assert ratings["German ELR"][-1] == known["german"]["elr"]["german"]
    assert ratings["German pioneers ELR"][-1] == known["german"]["elr"]["german_pioneers"]
    _, san = _series(found, "SAN by half-day (as announced, 1.625)")
    assert san == {"Allied SAN": [3, 3, 3], "German SAN": [2, 2, 2]}
    assert (known["allied"]["san"], known["german"]["san"]) == (3, 2)


def test_a_side_sees_its_own_cpp_and_never_the_other_sides(cg2):
    campaign, _ = cg2
    for side, own, other in (("german", "German", "Allied"), ("allied", "Allied", "German")):
        found = campaign_trends(campaign, Viewer.for_side(side))
        _, points = _series(found, "Points by half-day")
        assert f"{own} CPP left" in points and f"{other} CPP left" not in points
        assert f"{other} objective points" in points  # public: both sides'
    club = campaign_trends(campaign, Viewer.club_member())
    _, points = _series(club, "Points by half-day")
    assert not [name for name in points if "CPP" in name]


def test_the_germans_trends_are_the_same_whatever_the_allies_did_in_secret(
    club, people, view_cache
):
    busy = _war(club, people, True, "Busy")
    quiet = _war(club, people, False, "Quiet")
    assert busy.side("allied")["cpp"] != quiet.side("allied")["cpp"]
    view_cache.settle(busy.campaign, quiet.campaign)
    seen = []
    for war in (busy, quiet):
        viewer = visibility.viewer_for(people["bob"], war.campaign)
        seen.append(campaign_trends(war.campaign, viewer))
        client = Client()
        client.force_login(people["bob"])
        html = client.get(f"/campaigns/{war.campaign.pk}/").content.decode()
        trends = html[html.index('id="trends-h"') : html.index('id="status"')]
        assert "Allied CPP" not in trends and "German CPP left" in trends
        seen.append(trends)
        api = APIClient()
        api.force_authenticate(people["bob"])
        answer = api.get(f"/api/v1/campaigns/{war.campaign.pk}/trends/")
        assert answer.status_code == 200
        names = [s["name"] for c in answer.json() for s in c["series"]]
        assert "German CPP left" in names and "Allied CPP left" not in names
        seen.append(answer.json())
    assert seen[:3] == seen[3:]
    # and the Allies' own charts do differ: their CPP is in them
    allied = [
        campaign_trends(w.campaign, visibility.viewer_for(people["alice"], w.campaign))
        for w in (busy, quiet)
    ]
    assert allied[0] != allied[1]


def test_a_side_s_sheet_prints_its_own_series_only(cg2):
    campaign, _ = cg2
    state = current_state(campaign)
    sheet = sheets.find_sheet(get_system(campaign.system), "rg_purchases")
    context = sheets.render_context(campaign, state, sheet, "side:german", "A4")
    names = [s["name"] for c in context["trends"] for s in c["series"]]
    assert "German CPP left" in names and "Allied CPP left" not in names
    public = sheets.render_context(
        campaign, state, sheets.find_sheet(get_system(campaign.system), "summary"), "public", "A4"
    )
    assert not [s for c in public["trends"] for s in c["series"] if "CPP" in s["name"]]


def test_the_screen_reader_table_holds_the_charts_numbers(cg2):
    campaign, _ = cg2
    found = campaign_trends(campaign, Viewer.for_side("german"))
    for chart in found:
        table = charts.table(chart)
        assert table["head"] == [s["name"] for s in chart["series"]]
        assert [r["label"] for r in table["rows"]] == chart["x"]
        for n, series in enumerate(chart["series"]):
            assert [r["cells"][n] for r in table["rows"]] == [
                "–" if v is None else str(v) for v in series["values"]
            ]


def test_a_side_s_pdf_prints_its_chart_and_never_the_other_sides_cpp(
    club, people, settings, tmp_path, django_capture_on_commit_callbacks, caplog
):
    import logging

    from rosters.services import request_sheet
    from tests.rosters.helpers import job_pdf, pdf_pages

    settings.MEDIA_ROOT = tmp_path
    war = _war(club, people, True, "Busy")
    texts = {}
    for person, side in (("bob", "german"), ("alice", "allied")):
        with (
            caplog.at_level(logging.WARNING, logger="weasyprint"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            job, _ = request_sheet(people[person], war.campaign, "rg_purchases", "A4", side)
        job.refresh_from_db()
        assert job.status == "done", job.error
        texts[side] = " ".join(" ".join(pdf_pages(job_pdf(job))).split())
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []
    assert "Points by half-day" in texts["german"] and "German CPP left" in texts["german"]
    assert "Allied CPP" not in texts["german"] and "German CPP" not in texts["allied"]
    assert "Allied objective points" in texts["german"]  # public: both sides'


def test_the_journal_is_folded_once_per_audience_position_not_per_request(
    club, people, monkeypatch
):
    """Pages between two appends read the kept answer: the journal is not folded again."""
    from campaigns.journal import engine

    war = _war(club, people, False, "Quiet")
    folds = []
    fold = engine.fold
    monkeypatch.setattr(
        engine, "fold", lambda *a, **kw: folds.append(kw.get("observe")) or fold(*a, **kw)
    )
    client = Client()
    client.force_login(people["bob"])
    for _ in range(3):
        assert "German CPP left" in client.get(f"/campaigns/{war.campaign.pk}/").content.decode()
    assert len([f for f in folds if f is not None]) <= 1
    war.by("german", "ap.check", {"step": war.current("german").id})  # the journal moves on
    client.get(f"/campaigns/{war.campaign.pk}/")
    assert len([f for f in folds if f is not None]) <= 2


def test_trends_followed_on_from_the_last_fold_are_those_of_a_whole_fold(club, people, monkeypatch):
    """After the first fold only the events since are folded (the kept end of the last fold); at
    every seat the charts are those a whole fold draws, through purchases, a result, Refit steps
    and a correction agreed by both sides (which reaches back, and so is folded whole)."""
    from django.core.cache import cache

    from campaigns.journal import engine
    from campaigns.systems.achtung_panzer.tests.campaign_harness import War
    from campaigns.systems.achtung_panzer.tests.test_system_secrecy import GERMAN, QUIET

    seats = {
        "referee": Viewer.everything(("allied", "german")),
        "allied": Viewer.for_side("allied"),
        "german": Viewer.for_side("german"),
        "club": Viewer.club_member(),
    }
    folded = []
    fold = engine.fold
    monkeypatch.setattr(
        engine,
        "fold",
        lambda records, *a, **kw: (
            folded.append((len(records), kw.get("from_state") is not None))
            or fold(records, *a, **kw)
        ),
    )
    war = War(club, people, name="Followed")

    def every_seat():
        war.campaign.refresh_from_db()
        return {seat: campaign_trends(war.campaign, viewer) for seat, viewer in seats.items()}

    def the_same_as_a_whole_fold():
        followed = every_seat()
        cache.clear()  # the kept fold and the kept charts: the next read folds the whole journal
        assert every_seat() == followed
        return followed

    war.by("allied", "ap.declare", {"special": "none"})
    every_seat()
    war.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
    war.by("allied", "ap.retained", {"action": "add", "kind": "squad", "type": "457", "count": 2})
    the_same_as_a_whole_fold()
    war.walk_both(answers={"allied": QUIET, "german": GERMAN})
    every_seat()  # followed on twice in a row
    war.result({"allied_objectives_end": "hill_520", "allied_cvp": 6, "german_cvp": 9})
    war.walk_both(until="1.607", answers={"allied": QUIET, "german": GERMAN})
    charts = the_same_as_a_whole_fold()
    assert "German CPP left" in str(charts["german"]) and "Allied CPP" not in str(charts["german"])
    followed_on = [n for n, start in folded if start]
    journal = war.campaign.events.count()
    assert followed_on and max(followed_on) < journal  # only the events since were folded

    event = war.campaign.events.filter(kind="ap.retained").last()
    war.act(
        "alice",
        "proposal.made",
        {
            "action": "correct",
            "target": str(event.uid),
            "reason": "a half-squad",
            "data": dict(event.data, kind="half_squad", type="237"),
        },
    )
    every_seat()
    made = war.campaign.events.filter(kind="proposal.made").last()
    war.act("bob", "proposal.approved", {"proposal": str(made.uid)})
    folded.clear()
    the_same_as_a_whole_fold()
    assert not [n for n, start in folded if start]  # the correction reaches back: folded whole

    # a kept fold whose last event the journal no longer holds (a database restored from a
    # backup under a live cache) is not followed on from
    from campaigns.kept_answers import audiences

    key = f"muster:trends:{audiences.BUILD}:{war.campaign.pk}"
    cache.set(key, {**cache.get(key), "uid": "00000000-0000-0000-0000-000000000000"})
    war.by("german", "note.added", {"scenario": war.state["current"], "text": "Dig in."})
    folded.clear()
    every_seat()
    assert folded and not [n for n, start in folded if start]
