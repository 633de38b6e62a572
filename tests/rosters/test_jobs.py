"""Print jobs: rendered once per content, idempotent tasks, takeover after a dead
worker, failure with a clear message, and retry."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.errors import DomainError
from campaigns.services.journal import submit
from rosters import services
from rosters.models import PrintJob

from .helpers import job_pdf, play_round


@pytest.fixture
def renders(monkeypatch):
    """Counts the PDF renders (rosters.services.render_hook is the one renderer)."""
    calls = []
    real = services.render_hook

    def counting(html):
        calls.append(html)
        return real(html)

    monkeypatch.setattr(services, "render_hook", counting)
    return calls


def test_the_same_request_twice_renders_once(skirmish, people, request_job, renders):
    first = request_job(people["alice"], skirmish)
    second = request_job(people["alice"], skirmish)
    assert first.status == second.status == PrintJob.DONE
    assert first.pk == second.pk
    assert len(renders) == 1
    assert PrintJob.objects.count() == 1
    assert job_pdf(first).startswith(b"%PDF")


def test_another_member_asking_for_the_public_summary_gets_the_same_job(
    skirmish, people, request_job, renders
):
    by_alice = request_job(people["alice"], skirmish)
    by_bob = request_job(people["bob"], skirmish)
    by_rita = request_job(people["rita"], skirmish)
    assert by_alice.pk == by_bob.pk == by_rita.pk and by_alice.audience == "public"
    assert len(renders) == 1


def test_a_new_state_or_another_paper_is_a_new_render(skirmish, people, request_job, renders):
    a4 = request_job(people["alice"], skirmish)
    letter = request_job(people["alice"], skirmish, paper="Letter")
    play_round(skirmish, people)
    after = request_job(people["alice"], skirmish)
    assert len({a4.pk, letter.pk, after.pk}) == 3
    assert len({a4.content_hash, letter.content_hash, after.content_hash}) == 3
    assert len(renders) == 3


def test_the_other_sides_secret_move_does_not_change_the_public_summary(
    skirmish, people, request_job, renders
):
    before = request_job(people["alice"], skirmish)
    submit(skirmish, people["bob"], "skirmish.buy", {"count": 1}, side="blue")  # secret to blue
    skirmish.refresh_from_db()
    after = request_job(people["alice"], skirmish)
    assert (
        after.pk == before.pk
    )  # neither a new render nor a new date: nothing hints at blue's move
    assert len(renders) == 1


def test_the_request_is_enqueued_only_when_the_transaction_commits(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job, created = services.request_sheet(people["alice"], skirmish, "summary")
    assert created and sent == [] and len(callbacks) == 1
    callbacks[0]()
    assert sent == [job.pk]


def test_a_duplicated_task_renders_nothing_more(skirmish, people, request_job, renders):
    job = request_job(people["alice"], skirmish)
    file_name = job.file.name
    assert services.run_job(job.pk, task_id="another-delivery") == "skipped"
    job.refresh_from_db()
    assert (job.status, job.file.name, job.attempts, len(renders)) == (
        PrintJob.DONE,
        file_name,
        1,
        1,
    )


def _queued_job(skirmish, people, monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    return job


def test_a_running_job_of_a_live_worker_is_not_taken_over(skirmish, people, monkeypatch, renders):
    job = _queued_job(skirmish, people, monkeypatch)
    assert services.claim(job.pk, "task-1") == 1
    assert services.run_job(job.pk, task_id="task-2") == "skipped"
    job.refresh_from_db()
    assert job.status == PrintJob.RUNNING and renders == []


def test_the_redelivered_task_takes_over_the_job_its_dead_worker_left_running(
    skirmish, people, monkeypatch, renders
):
    job = _queued_job(skirmish, people, monkeypatch)
    assert services.claim(job.pk, "task-1") == 1  # the worker dies here
    assert (
        services.run_job(job.pk, task_id="task-1") == "rendered"
    )  # the same task, delivered again
    job.refresh_from_db()
    assert (job.status, job.attempts, job.progress, len(renders)) == (PrintJob.DONE, 2, 100, 1)
    assert job.lease_until is None


def test_a_job_whose_lease_expired_is_taken_over_by_any_task(
    skirmish, people, monkeypatch, renders
):
    job = _queued_job(skirmish, people, monkeypatch)
    services.claim(job.pk, "task-1")
    PrintJob.objects.filter(pk=job.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert services.run_job(job.pk, task_id="task-2") == "rendered"
    job.refresh_from_db()
    assert job.status == PrintJob.DONE and job.attempts == 2


def test_a_superseded_attempt_keeps_no_file(skirmish, people, monkeypatch, tmp_path, settings):
    """Two attempts render at once (a redelivery while the first still ran): only the
    newest attempt's file is kept; the older one is deleted, not left behind."""
    job = _queued_job(skirmish, people, monkeypatch)

    def slow_first_attempt(html):
        # While attempt 1 renders, attempt 2 takes the job over and finishes.
        monkeypatch.setattr(services, "render_hook", lambda html: b"%PDF-second")
        assert services.run_job(job.pk, task_id="task-1") == "rendered"
        return b"%PDF-first"

    monkeypatch.setattr(services, "render_hook", slow_first_attempt)
    assert services.run_job(job.pk, task_id="task-1") == "skipped"
    job.refresh_from_db()
    assert job.status == PrintJob.DONE and job.attempts == 2
    assert job_pdf(job) == b"%PDF-second"
    stored = list((settings.MEDIA_ROOT / "sheets").iterdir())
    assert [p.name for p in stored] == [job.file.name.split("/")[-1]]


def test_a_job_that_keeps_killing_its_worker_gives_up(skirmish, people, monkeypatch, renders):
    job = _queued_job(skirmish, people, monkeypatch)
    for _ in range(services.MAX_ATTEMPTS):
        services.claim(job.pk, "task-1")  # each time the worker dies mid-render
    assert services.run_job(job.pk, task_id="task-1") == "gave-up"
    job.refresh_from_db()
    assert job.status == PrintJob.FAILED and "interrupted" in job.error and renders == []


def test_a_failed_render_has_a_clear_message_without_the_data(
    skirmish, people, request_job, monkeypatch
):
    def broken(html):
        raise RuntimeError("secret: red has 7 supply points")

    monkeypatch.setattr(services, "render_hook", broken)
    job = request_job(people["alice"], skirmish)
    assert job.status == PrintJob.FAILED
    assert (
        job.error
        == "The sheet could not be rendered (RuntimeError). Retry, or tell the site operator."
    )
    assert "secret" not in job.error and not job.file


def test_retry_renders_a_failed_job_again(
    skirmish, people, request_job, monkeypatch, django_capture_on_commit_callbacks
):
    real = services.render_hook
    monkeypatch.setattr(
        services, "render_hook", lambda html: (_ for _ in ()).throw(OSError("disk"))
    )
    job = request_job(people["alice"], skirmish)
    assert job.status == PrintJob.FAILED
    monkeypatch.setattr(services, "render_hook", real)
    with django_capture_on_commit_callbacks(execute=True):
        services.retry_job(people["bob"], job.pk)
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == (PrintJob.DONE, "", 1)
    assert job_pdf(job).startswith(b"%PDF")


def test_asking_again_for_a_failed_sheet_retries_it(skirmish, people, request_job, monkeypatch):
    real = services.render_hook
    monkeypatch.setattr(
        services, "render_hook", lambda html: (_ for _ in ()).throw(OSError("disk"))
    )
    failed = request_job(people["alice"], skirmish)
    monkeypatch.setattr(services, "render_hook", real)
    again = request_job(people["alice"], skirmish)
    assert again.pk == failed.pk and again.status == PrintJob.DONE


def test_retry_refuses_a_job_that_is_ready_or_in_progress(
    skirmish, people, request_job, monkeypatch
):
    done = request_job(people["alice"], skirmish)
    with pytest.raises(DomainError) as ready:
        services.retry_job(people["alice"], done.pk)
    assert ready.value.field == "status"
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    fresh, _ = services.request_sheet(people["alice"], skirmish, "summary", "Letter")
    with pytest.raises(DomainError, match="still being prepared"):
        services.retry_job(people["alice"], fresh.pk)
    fresh.refresh_from_db()
    assert fresh.status == PrintJob.QUEUED


def test_a_job_no_worker_took_can_be_retried(skirmish, people, monkeypatch):
    job = _queued_job(skirmish, people, monkeypatch)
    assert not services.is_stale(job)
    PrintJob.objects.filter(pk=job.pk).update(queued_at=timezone.now() - timedelta(hours=1))
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda job_id: sent.append(job_id))
    job = services.retry_job(people["alice"], job.pk)
    assert job.status == PrintJob.QUEUED and not services.is_stale(job)


@pytest.mark.parametrize(
    "field,kwargs",
    [
        ("sheet", {"sheet": "nope"}),
        ("paper", {"sheet": "summary", "paper": "A3"}),
        ("side", {"sheet": "supply", "side": "green"}),
    ],
)
def test_bad_requests_are_refused_and_write_nothing(skirmish, people, field, kwargs):
    with pytest.raises(DomainError) as refused:
        services.request_sheet(people["rita"], skirmish, **kwargs)
    assert refused.value.field == field
    assert PrintJob.objects.count() == 0


def test_a_side_sheet_needs_a_side_when_the_asker_plays_none(skirmish, people):
    with pytest.raises(DomainError) as refused:
        services.request_sheet(people["rita"], skirmish, "supply")
    assert refused.value.field == "side"


def test_a_broker_outage_leaves_the_job_queued_instead_of_failing_the_request(
    skirmish, people, monkeypatch, django_capture_on_commit_callbacks
):
    from rosters import tasks

    def unreachable(*args, **kwargs):
        raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr(tasks.render_sheet, "apply_async", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        job, created = services.request_sheet(people["alice"], skirmish, "summary")
    job.refresh_from_db()
    assert created and job.status == PrintJob.QUEUED
