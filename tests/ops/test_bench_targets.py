"""The benchmark measures the site, and says what it did not compare.

`make bench` is not part of the suite: its verdicts are tested here. Its clients write with the
write-rate limit lifted (benchmarks/settings.py; counted, never refused), and a check of its own
holds the limit to its number on a site with it on (benchmarks/writes.py). A sheet beside
Chromium on a machine without Chromium is "not compared", not a miss (benchmarks/judge.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from benchmarks import judge, render, targets, writes
from campaigns.models import Event

ROOT = Path(__file__).resolve().parents[2]


def _api_writes(skirmish, person):
    api = APIClient()
    api.force_login(person)

    def post(n: int) -> tuple[int, str | None]:
        answer = api.post(
            f"/api/v1/campaigns/{skirmish.pk}/events/",
            {"kind": "note.added", "data": {"scenario": 0, "text": f"Note {n}"}},
            format="json",
        )
        return answer.status_code, answer.headers.get("Retry-After")

    return post


def _events(skirmish):
    return lambda: Event.objects.filter(campaign=skirmish).count()


def test_the_limit_check_finds_the_write_past_the_limit_refused(skirmish, people, settings):
    settings.MEMBER_WRITES_PER_MINUTE = 3
    result = writes.limit_check(
        _api_writes(skirmish, people["alice"]), 3, _events(skirmish), margin=2.0
    )
    assert result["met"], result
    assert (result["accepted"], result["status"], result["events_added"]) == (3, 429, 3)
    assert 1 <= int(result["retry_after"]) <= 60
    assert result["figure"].startswith("3 of 3 writes answered 201, write 4: 429, Retry-After ")


def test_the_limit_check_misses_when_the_site_lets_the_write_through(skirmish, people, settings):
    settings.MEMBER_WRITES_PER_MINUTE = 1_000  # a limit that is not the one checked
    result = writes.limit_check(
        _api_writes(skirmish, people["alice"]), 3, _events(skirmish), margin=2.0
    )
    assert not result["met"]
    assert result["figure"] == (
        "3 of 3 writes answered 201, write 4: 201, no Retry-After; the journal grew by 4"
    )
    row = judge.targets(_result(limit=result))[-1]
    assert row["target"] == "write-rate limit on: write 4 in a minute is 429"
    assert row["met"] is False and judge.missed([row]) == [row["target"]]


@pytest.mark.parametrize(
    ("answers", "added", "met"),
    [
        ([(201, None)] * 2 + [(429, "17")], 2, True),
        ([(201, None)] * 2 + [(429, None)], 2, False),  # no Retry-After
        ([(201, None), (429, "40"), (429, "40")], 1, False),  # refused too early
        ([(201, None)] * 2 + [(429, "17")], 3, False),  # the refused write was kept
    ],
)
def test_the_limit_verdict(answers, added, met):
    assert writes.limit_verdict(answers, 2, added)["met"] is met


def test_without_chromium_a_sheet_is_not_compared_and_not_missed(monkeypatch, tmp_path):
    monkeypatch.setattr(render, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert render.find_chromium() is None
    html = tmp_path / "sheet.html"
    html.write_text("<p>Roster</p>")
    compared = render.chromium(html)
    assert compared == {"chromium_skipped": "Chromium is not installed", "chromium_missing": True}
    rows = judge.targets(_result(render=[{"rows": 13, "seconds": 0.1, **compared}]))
    sheet = rows[-1]
    assert sheet == {
        "target": "13-row sheet ≤ 1.0× Chromium",
        "figure": "not compared: Chromium is not installed",
        "met": None,
    }
    assert judge.missed(rows) == []
    assert judge.MET_WORDS[sheet["met"]] == "not compared"


def test_a_chromium_that_prints_nothing_or_is_slower_is_a_miss():
    failed = judge.sheet_target({"rows": 100, "chromium_skipped": "chromium exited 1"})
    assert failed["met"] is False and failed["figure"] == "not measured: chromium exited 1"
    assert judge.sheet_target({"rows": 100, "chromium_ratio": 1.2})["met"] is False
    assert judge.sheet_target({"rows": 100, "chromium_ratio": 0.3})["met"] is True


def _result(render=(), limit=None) -> dict:
    return {
        "load": [],
        "queries": [],
        "machine": {"database": "sqlite 3"},
        "writes": {
            "checks": [{"replay_equals_snapshot": True, "events": 1, "expected": 1}],
            **({"limit": limit} if limit else {}),
        },
        "render": list(render),
    }


def _benchmark_settings(**env) -> str:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MEMBER_WRITES_PER_MINUTE", "BENCH_WRITE_LIMIT", "DJANGO_SETTINGS_MODULE")
    }
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from benchmarks import settings as s; "
            "print(s.MEMBER_WRITES_PER_MINUTE, s.WRITE_LIMIT, s.WRITE_LIMIT_LIFTED)",
        ],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_benchmark_lifts_the_limit_for_its_clients_and_can_put_it_back():
    assert _benchmark_settings() == "1000000000 30 True"
    assert _benchmark_settings(BENCH_WRITE_LIMIT="on") == "30 30 False"
    from django.conf import settings

    assert not hasattr(settings, "WRITE_LIMIT_LIFTED")  # the product's settings know nothing of it


def _writes(p99: float, rate: float) -> dict:
    group = {"p99_ms": p99, "appends_per_s": rate}
    return {"paced": {"all": group}, "saturated": {"all": group}}


@pytest.mark.parametrize(
    ("p99", "rate", "met"),
    [(29.0, 300.0, [True, True]), (30.0, 299.9, [False, False]), (12.0, 150.0, [True, False])],
)
def test_the_write_targets_are_the_issues_on_postgresql(p99, rate, met):
    """Paced p99 < 30 ms and saturated ≥ 300 appends/s with every client (20), on PostgreSQL."""
    rows = judge.write_targets(_writes(p99, rate), on_pg=True)
    assert [row["met"] for row in rows] == met
    assert rows[0]["target"] == "paced write p99 < 30 ms, 20 clients"
    assert rows[1]["target"] == "saturated ≥ 300 appends/s, 20 clients"


def test_on_sqlite_the_write_figures_are_shown_not_judged():
    rows = judge.write_targets(_writes(80.0, 40.0), on_pg=False)
    assert all(row["met"] for row in rows)
    assert all("(PostgreSQL only; SQLite shown)" in row["target"] for row in rows)


def test_a_real_sheet_is_judged_beside_chromium_or_not_compared():
    rows = judge.targets(
        {
            **_result(),
            "real_sheets": [
                {"sheet": "CG Roster", "seconds": 0.2, "engine": "Typst", "chromium_ratio": 0.17},
                {
                    "sheet": "Squad Roster",
                    "seconds": 0.6,
                    "engine": "WeasyPrint",
                    "chromium_ratio": 0.6,
                },
                {
                    "sheet": "Ledger",
                    "seconds": 0.3,
                    "engine": "Typst",
                    "chromium_skipped": "Chromium is not installed",
                },
            ],
        }
    )
    assert [row["met"] for row in rows[-3:]] == [True, False, None]
    assert judge.missed(rows) == ["Squad Roster sheet ≤ 0.5× Chromium"]


def test_the_pages_in_play_are_read_by_their_own_people_and_judged_at_0_3():
    """The CG III page stopped mid-Refit Phase from each seat, the Rifles squad page and the ledger
    page, each read by its own person and held to 0.3 of the bare view like the Drill page."""
    play = {
        "cg3_refit": {
            "campaign": 7,
            "seats": {"Allied": "bench-play", "German": "bench-p00", "referee": "bench-p01"},
        },
        "rifles": {"campaign": 8, "user": "bench-play"},
        "ledger": {"campaign": 9, "user": "bench-play"},
    }
    pages = targets.in_play_targets(play)
    assert [(t.label, t.path, t.user) for t in pages] == [
        ("CG III mid-Refit page, Allied", "/campaigns/7/", "bench-play"),
        ("CG III mid-Refit page, German", "/campaigns/7/", "bench-p00"),
        ("CG III mid-Refit page, referee", "/campaigns/7/", "bench-p01"),
        ("Rifles squad page", "/campaigns/8/", "bench-play"),
        ("ledger page with chart", "/campaigns/9/", "bench-play"),
    ]
    ratios = [0.3, 0.29, 0.5, None, 0.31]
    rows = judge.targets(
        {**_result(), "load": [{"target": t.label, "ratio": r} for t, r in zip(pages, ratios)]}
    )
    judged = {row["target"]: row["met"] for row in rows[: len(pages)]}
    assert judged == {
        f"{t.label} ≥ 0.3 of the bare view": met
        for t, met in zip(pages, [True, False, True, False, True])
    }


def test_the_saturated_figure_says_the_bare_writes_ceiling_beside_it_without_judging_by_it():
    w = {**_writes(20.0, 85.0), "bare_saturated": {"all": {"appends_per_s": 190.5}}}
    saturated = judge.write_targets(w, on_pg=True)[1]
    assert saturated["figure"] == "85.0 appends/s (a bare one-row write: 190.5/s on this machine)"
    assert saturated["met"] is False
    assert judge.write_targets(_writes(20.0, 85.0), on_pg=True)[1]["figure"] == "85.0 appends/s"
