"""A render run inline (no broker: tasks run in the process that asked, after commit) writes the
heartbeat a worker's main process writes for a worker's renders (rosters.heartbeat.beating): what
reads it — the job's page and the API (stale, a Retry offered), the sweep, someone asking for the
same sheet — sees a long inline render alive, not abandoned, and never sends it again."""

import os
import subprocess
import sys
import textwrap
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from rosters import heartbeat, services
from rosters.models import PrintJob

BEAT = 0.1  # seconds between beats here
STALE = timedelta(seconds=0.6)  # silent this long: taken for abandoned
RENDER = 1.5  # seconds: the render outlasts STALE more than twice


@pytest.mark.django_db(transaction=True)
def test_a_long_inline_render_beats_and_is_never_taken_for_abandoned(skirmish, people, monkeypatch):
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", BEAT)
    monkeypatch.setattr(heartbeat, "HEARTBEAT_STALE", STALE)
    seen: dict[str, object] = {}
    renders = []
    real_render = services.render_hook

    def slow_render(html):
        renders.append(1)
        if len(renders) == 1:  # the first render: look at it from outside while it runs
            time.sleep(RENDER)
            job = PrintJob.objects.get(status=PrintJob.RUNNING)
            seen["silent"] = timezone.now() - job.heartbeat_at
            seen["stale"] = services.is_stale(job)
            seen["swept"] = services.sweep()
            api = APIClient()
            api.force_login(people["alice"])
            seen["retryable"] = api.get(f"/api/v1/jobs/{job.pk}/").json()["retryable"]
            page = Client()
            page.force_login(people["alice"])
            seen["page"] = page.get(f"/sheets/jobs/{job.pk}/").content.decode()
            seen["again"] = services.request_sheet(people["olga"], skirmish, "summary")
            seen["threads"] = [t.name for t in threading.enumerate()]
        return real_render(html)

    monkeypatch.setattr(services, "render_hook", slow_render)
    job, created = services.request_sheet(people["alice"], skirmish, "summary")
    services.enqueue(job.pk)  # as on commit: the task runs here, inline
    job.refresh_from_db()

    assert created and job.status == PrintJob.DONE, (job.status, job.error)
    assert seen["silent"] < STALE, seen  # it beat all along the render
    assert seen["stale"] is False and seen["swept"] == 0 and seen["retryable"] is False
    assert "The worker rendering this sheet stopped" not in seen["page"]
    assert seen["again"] == (job, False)  # the same sheet asked for: its job, not sent again
    assert renders == [1] and job.attempts == 1  # rendered once
    assert heartbeat.INLINE_THREAD in seen["threads"]
    assert heartbeat.INLINE_THREAD not in [t.name for t in threading.enumerate()]  # ended with it


def test_a_process_beating_inline_may_still_fork_a_long_sheet_in_parts():
    """WeasyPrint lays out a long sheet in forked children only in a process with no other thread
    but an inline heartbeat, which holds no lock when a fork is made. Asked in a process of its
    own: the test process may run threads other tests left (a live server, a receiver)."""
    script = textwrap.dedent(
        """
        import threading, time
        import django
        django.setup()
        from rosters import heartbeat, weasyprint_render
        answers = [weasyprint_render._may_fork()]
        with heartbeat.beating("a-task", every=60):  # its thread runs; no beat due here
            answers.append(weasyprint_render._may_fork())
            other = threading.Thread(target=time.sleep, args=(0.2,))
            other.start()
            answers.append(weasyprint_render._may_fork())  # any other thread: no fork
            other.join()
        print(answers)
        """
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "muster.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[True, True, False]"
