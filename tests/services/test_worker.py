"""A real Celery worker process over Redis, on the test database.

(a) a task goes through Redis to the worker and its result comes back;
(b) a sheet requested through the service is rendered by the worker;
(c) the worker's pool process is SIGKILLed in the middle of a render: the task is
    delivered again (task_reject_on_worker_lost, acks_late; a short Redis
    visibility timeout as the fallback), the job completes exactly once and never
    stays "running".
"""

import os
import signal
import time

import pytest
from django.db import connection

from rosters import services
from rosters.models import PrintJob
from tests.rosters.helpers import job_pdf, pdf_pages
from tests.workers import wait_for

pytestmark = pytest.mark.services


def _job(pk):
    return PrintJob.objects.get(pk=pk)


def test_a_task_goes_through_redis_to_the_worker_and_back(celery_worker):
    worker = celery_worker()
    # The answer comes from the worker process: it names the database it works on.
    assert worker.health["database"] == connection.settings_dict["NAME"]
    assert worker.health["vendor"] == "postgresql"
    assert worker.call("rosters.tasks.worker_health")["database"].startswith("test_")


def test_a_sheet_requested_through_the_service_is_rendered_by_the_worker(
    celery_worker, skirmish, people
):
    worker = celery_worker()
    job, created = services.request_sheet(people["alice"], skirmish, "summary", "Letter")
    assert created and job.status == PrintJob.QUEUED  # sent once the request committed
    done = wait_for(
        lambda: _job(job.pk).status in (PrintJob.DONE, PrintJob.FAILED) and _job(job.pk),
        60,
        message=f"the render\n{worker.log()}",
    )
    assert done.status == PrintJob.DONE, done.error
    assert done.claimed_by.rsplit(":", 1)[1] != str(os.getpid())  # another process rendered it
    text = pdf_pages(job_pdf(done))[0]
    assert "Campaign summary" in text and "Page 1 of 1" in text


def test_killing_the_worker_mid_render_still_renders_exactly_once(
    celery_worker, skirmish, people, settings
):
    worker = celery_worker(MUSTER_TEST_RENDER_DELAY=2, CELERY_VISIBILITY_TIMEOUT=6)
    job, _ = services.request_sheet(people["alice"], skirmish, "supply")
    running = wait_for(
        lambda: _job(job.pk).status == PrintJob.RUNNING and _job(job.pk),
        30,
        message=f"the render to start\n{worker.log()}",
    )
    victim = int(running.claimed_by.rsplit(":", 1)[1])
    assert running.attempts == 1
    os.kill(victim, signal.SIGKILL)  # the pool process, in the middle of the render

    done = wait_for(
        lambda: _job(job.pk).status in (PrintJob.DONE, PrintJob.FAILED) and _job(job.pk),
        60,
        message=f"the job to finish after the kill\n{worker.log()}",
    )
    assert done.status == PrintJob.DONE, done.error
    assert done.attempts == 2 and int(done.claimed_by.rsplit(":", 1)[1]) != victim
    assert "Supply record" in pdf_pages(job_pdf(done))[0]

    # Nothing more happens: past the visibility timeout no redelivery renders it again.
    time.sleep(7)
    after = _job(job.pk)
    assert (after.status, after.attempts, after.file.name, after.finished_at) == (
        PrintJob.DONE,
        2,
        done.file.name,
        done.finished_at,
    )
    files = list((settings.MEDIA_ROOT / "sheets").iterdir())
    assert [f.name for f in files] == [done.file.name.split("/")[-1]]  # one result, no orphan
    assert "WorkerLostError" in worker.log() or "Restoring" in worker.log()


def test_a_render_longer_than_the_heartbeat_bound_is_left_to_its_worker(
    celery_worker, skirmish, people
):
    """The worker writes the heartbeat of the job it renders (rosters.heartbeat): a render longer than
    HEARTBEAT_STALE is not taken for lost by the sweep, and renders once."""
    from rosters import heartbeat

    delay = heartbeat.HEARTBEAT_STALE.total_seconds() + 3
    worker = celery_worker(MUSTER_TEST_RENDER_DELAY=delay)
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    running = wait_for(
        lambda: _job(job.pk).status == PrintJob.RUNNING and _job(job.pk),
        30,
        message=f"the render to start\n{worker.log()}",
    )
    time.sleep(delay - 1)
    beating = _job(job.pk)
    assert beating.status == PrintJob.RUNNING and beating.heartbeat_at > running.heartbeat_at
    done = wait_for(
        lambda: _job(job.pk).status in (PrintJob.DONE, PrintJob.FAILED) and _job(job.pk),
        60,
        message=f"the render\n{worker.log()}",
    )
    assert (done.status, done.attempts) == (PrintJob.DONE, 1)  # never queued again meanwhile
    assert "queued again" not in worker.log()
