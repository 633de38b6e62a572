"""Tasks that touch the database survive a lost connection.

The connection is really lost: PostgreSQL terminates the task's backend (as it does to every
connection when it restarts), from a second connection. The task retries on a fresh connection
(autoretry_for, run inline here: the retry runs at once), a PDF already rendered is not rendered
again, and the failure path never fails itself. tests/faults restart a real PostgreSQL under a real
worker.
"""

import pytest
from django.db import connection

from campaigns.services import odds
from campaigns.tasks import compute_odds
from rosters import services
from rosters.models import PrintJob
from rosters.tasks import render_sheet
from tests.db_faults import lose_connection
from tests.workers import need

from .helpers import job_pdf

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    need(
        connection.vendor == "postgresql",
        "needs PostgreSQL (set DATABASE_URL=postgres://...): it terminates a backend",
    )
    yield
    connection.close()  # a test that failed may leave it lost: the database's flush needs a live one


@pytest.fixture
def queued_job(skirmish, people, monkeypatch):
    """A queued job whose task has not run yet (run it with render_sheet.apply)."""
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    return job


def test_a_connection_lost_after_the_render_finishes_the_job_without_rendering_again(
    queued_job, monkeypatch
):
    renders = []
    real = services.render_hook

    def render_then_lose_the_connection(html):
        data = real(html)
        renders.append(html)
        lose_connection()  # the next query (marking the job done) finds the connection gone
        return data

    monkeypatch.setattr(services, "render_hook", render_then_lose_the_connection)
    render_sheet.apply(args=[str(queued_job.pk)])

    job = PrintJob.objects.get(pk=queued_job.pk)
    assert (job.status, job.error) == (PrintJob.DONE, "")
    assert len(renders) == 1  # the retry kept the stored PDF
    assert job.attempts == 2  # the same task, retried on a fresh connection, took the job again
    assert job_pdf(job).startswith(b"%PDF")


def test_a_connection_lost_before_the_render_retries_and_renders_once(queued_job, monkeypatch):
    renders = []
    real = services.render_hook
    lost = []

    def lose_once(job_id, attempt, value):
        if not lost:
            lost.append(value)
            lose_connection()
        return real_progress(job_id, attempt, value)

    real_progress = services._progress
    monkeypatch.setattr(services, "_progress", lose_once)
    monkeypatch.setattr(services, "render_hook", lambda html: renders.append(html) or real(html))
    render_sheet.apply(args=[str(queued_job.pk)])

    job = PrintJob.objects.get(pk=queued_job.pk)
    assert job.status == PrintJob.DONE and len(renders) == 1


def test_the_failure_path_never_fails_itself(queued_job, monkeypatch):
    def broken_renderer(html):
        lose_connection()  # the failure is recorded on a fresh connection
        raise ValueError("no such font")

    monkeypatch.setattr(services, "render_hook", broken_renderer)
    result = render_sheet.apply(args=[str(queued_job.pk)])

    assert result.get() == "failed"
    job = PrintJob.objects.get(pk=queued_job.pk)
    assert job.status == PrintJob.FAILED and "could not be rendered (ValueError)" in job.error
    assert job.lease_until is None  # retryable at once, by the person or a new request


def test_the_odds_task_retries_on_a_fresh_connection(skirmish, people):
    from campaigns.access import visibility

    lose_connection()
    compute_odds.apply(args=[skirmish.pk, "red"])

    viewer = visibility.viewer_for(people["alice"], skirmish)
    assert odds.odds_for(skirmish, viewer)["red"]["status"] == "ready"
