"""Lost work comes back within seconds, automatically.

A running job records a heartbeat; one with none for HEARTBEAT_STALE has lost its task (its worker
was killed whole) and is queued again by the sweep, by a retry or by someone asking for the same
sheet, at once instead of after the lease (5.5 min). A queued job whose task the broker no longer
holds (Redis restarted empty, or the broker away when it was sent) is queued again after
QUEUED_BOUND, instead of 10 min. Odds lost with the broker are sent again by the sweep. tests/faults
kill real workers and restart a real Redis.
"""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.access import visibility
from campaigns.services import odds
from rosters import broker, heartbeat, services
from rosters.models import PrintJob
from tests.workers import need_worker_services


def _queued(skirmish, people, monkeypatch, sent=None):
    monkeypatch.setattr(
        services, "enqueue", lambda job_id: (sent if sent is not None else []).append(job_id)
    )
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    return job


def _running_since(job, seconds):
    """The job as a worker left it when it was killed `seconds` ago, in the middle of the render."""
    then = timezone.now() - timedelta(seconds=seconds)
    PrintJob.objects.filter(pk=job.pk).update(
        status=PrintJob.RUNNING,
        attempts=1,
        started_at=then,
        heartbeat_at=then,
        task_id="dead-task",
        lease_until=timezone.now() + timedelta(minutes=5),
        claimed_by="host:1",
    )
    return PrintJob.objects.get(pk=job.pk)


@pytest.mark.django_db
def test_a_running_job_without_heartbeat_is_stale_within_seconds_not_minutes(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    job = _queued(skirmish, people, monkeypatch)
    assert not services.is_stale(_running_since(job, 2))  # beating recently: leave it alone
    stale = _running_since(job, heartbeat.HEARTBEAT_STALE.total_seconds() + 1)
    assert services.is_stale(stale)  # its lease runs 5 more minutes: no longer waited for

    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=True):
        retried = services.retry_job(people["alice"], job.pk)
    assert retried.status == PrintJob.QUEUED and sent == [job.pk]


@pytest.mark.django_db
def test_a_running_job_that_never_beat_is_retried_and_swept_as_it_is_called_stale(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    # Claimed with no heartbeat written (a worker of an earlier release): is_stale reads its start.
    job = _running_since(_queued(skirmish, people, monkeypatch), 60)
    PrintJob.objects.filter(pk=job.pk).update(heartbeat_at=None)
    job.refresh_from_db()
    assert services.is_stale(job)
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=True):
        retried = services.retry_job(people["alice"], job.pk)  # offered, so it must move
    assert retried.status == PrintJob.QUEUED and sent == [job.pk]
    _running_since(job, 60)
    PrintJob.objects.filter(pk=job.pk).update(heartbeat_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep() == 1


@pytest.mark.django_db
def test_the_sweep_queues_a_job_whose_worker_died_again_and_keeps_its_attempts(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    job = _queued(skirmish, people, monkeypatch)
    _running_since(job, 60)
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep() == 1
    job.refresh_from_db()
    assert (job.status, job.attempts, job.task_id, job.heartbeat_at) == (
        PrintJob.QUEUED,
        1,
        "",
        None,
    )
    assert sent == [job.pk]
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep() == 0  # once
    assert sent == [job.pk]


@pytest.mark.django_db
def test_asking_again_for_a_sheet_whose_worker_died_queues_it_again(skirmish, people, monkeypatch):
    job = _queued(skirmish, people, monkeypatch)
    _running_since(job, 60)
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    again, created = services.request_sheet(people["alice"], skirmish, "summary")
    assert (
        not created
        and again.pk == job.pk
        and again.status == PrintJob.QUEUED
        and again.attempts == 0
    )


@pytest.mark.django_db
def test_a_worker_beats_for_the_jobs_its_tasks_hold(skirmish, people, monkeypatch):
    job = _queued(skirmish, people, monkeypatch)
    before = _running_since(job, 60).heartbeat_at
    assert heartbeat.beat(["another-task"]) == 0 and heartbeat.beat([]) == 0
    assert heartbeat.beat(["dead-task", "another-task"]) == 1  # the task this worker holds
    job.refresh_from_db()
    assert job.heartbeat_at > before and not services.is_stale(job)


@pytest.fixture
def broker_queue(settings):
    """A real broker (Redis), tasks not run inline, on a queue of this test's own."""
    from muster.celery import app

    need_worker_services()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    settings.CELERY_TASK_DEFAULT_QUEUE = queue = f"test-lost-{uuid.uuid4().hex[:8]}"
    yield queue
    with app.connection_for_write() as conn:
        conn.default_channel.client.delete(queue)
    app.conf.task_always_eager = eager


@pytest.mark.django_db
@pytest.mark.services
def test_a_queued_job_whose_task_the_broker_lost_is_queued_again(
    skirmish, people, broker_queue, django_capture_on_commit_callbacks
):
    from muster.celery import app

    with django_capture_on_commit_callbacks(execute=True):
        job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    job.refresh_from_db()
    assert job.task_id and broker.held_task_ids(broker_queue) == {job.task_id}

    # Older than the bound, its task still waiting in the broker: left alone.
    PrintJob.objects.filter(pk=job.pk).update(queued_at=timezone.now() - timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep() == 0
    with pytest.raises(Exception, match="still being prepared"):
        services.retry_job(people["alice"], job.pk)

    # Redis restarted empty: the task is gone, the job is queued again with a new task.
    with app.connection_for_write() as conn:
        conn.default_channel.client.delete(broker_queue)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep() == 1
    again = PrintJob.objects.get(pk=job.pk)
    assert again.status == PrintJob.QUEUED and again.task_id not in ("", job.task_id)
    assert broker.held_task_ids(broker_queue) == {again.task_id}


@pytest.mark.django_db
def test_a_job_sent_while_the_broker_was_away_is_retryable_after_seconds(
    skirmish, people, monkeypatch
):
    from rosters import tasks

    def unreachable(*args, **kwargs):
        raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr(tasks.render_sheet, "apply_async", unreachable)
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    services.enqueue(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.QUEUED and job.task_id == "" and not services.is_stale(job)
    PrintJob.objects.filter(pk=job.pk).update(
        queued_at=timezone.now() - services.QUEUED_BOUND - timedelta(seconds=1)
    )
    assert services.is_stale(PrintJob.objects.get(pk=job.pk))


@pytest.mark.django_db
def test_odds_are_asked_for_once_and_sent_again_by_the_sweep_when_lost(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    from campaigns import tasks

    sent = []
    monkeypatch.setattr(
        tasks.compute_odds, "apply_async", lambda args, queue: sent.append(tuple(args))
    )
    cache.clear()
    viewer = visibility.viewer_for(people["alice"], skirmish)
    for _ in range(3):  # a page polling the pending panel
        with django_capture_on_commit_callbacks(execute=True):
            assert odds.odds_for(skirmish, viewer)["red"]["status"] == "pending"
    assert sent.count((skirmish.pk, "red")) == 1

    # The task was lost with the broker, and its note expired: the sweep sends it again.
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        odds.sweep()
    assert sent.count((skirmish.pk, "red")) == 2 and sent.count((skirmish.pk, "blue")) == 2
