"""manage.py check_worker against a real Celery worker over Redis: it prints what the workers of
the sheets queue and of the odds queue work with (database, queue, WeasyPrint) and the broker's
eviction policy, and exits non-zero when no worker answers on either queue, when a worker is on
another database, when it cannot make PDFs, or when the broker may evict a queued task."""

from io import StringIO

import pytest
import weasyprint
from django.core.management import CommandError, call_command
from django.db import connection

from tests.workers import worker_database_url

from ..ops.fake_weasyprint import fake_weasyprint_dir

pytestmark = pytest.mark.services


def check(*args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("check_worker", *args, stdout=out, stderr=err)
        code = 0
    except CommandError as error:
        code = error.returncode
    return code, out.getvalue(), err.getvalue()


def blocks(out: str) -> dict[str, dict[str, str]]:
    """The answers printed, per queue role: {"sheets": {"database": ..., "queue": ...}, "odds": {...}}."""
    found, current = {}, None
    for line in out.splitlines():
        if line.startswith("Worker "):
            current = found.setdefault(line.split(" on the ", 1)[1].split()[0], {"head": line})
        elif line.startswith("  ") and current is not None:
            key, value = line.split(None, 1)
            current[key] = value
    return found


def test_a_worker_on_this_database_answers_with_its_database_queue_and_weasyprint(celery_worker):
    worker = celery_worker()
    code, out, err = check("--timeout", "30")
    assert code == 0, err
    answers = blocks(out)
    for role, queue in (("sheets", worker.queue), ("odds", worker.odds_queue)):
        assert answers[role]["database"].startswith(
            f"postgresql {connection.settings_dict['NAME']}"
        )
        assert (
            answers[role]["queue"] == queue
        )  # the site's queues (the fixture points the site at them)
        assert answers[role]["head"].startswith(f"Worker {worker.queue}@")
    assert answers["sheets"]["WeasyPrint"] == weasyprint.__version__
    assert "WeasyPrint" not in answers["odds"]  # odds make no PDFs
    assert "Broker  maxmemory-policy noeviction" in out
    assert out.splitlines()[-1] == "The workers are ready."


def test_no_worker_on_the_queue_fails_after_the_timeout(celery_worker, settings):
    settings.CELERY_TASK_DEFAULT_QUEUE = "nobody-listens-here"  # a queue no worker consumes
    code, out, err = check("--timeout", "1")
    assert code == 1
    assert "No worker answered on the sheets queue 'nobody-listens-here' within 1 s" in err


def test_no_worker_on_the_odds_queue_fails_too(celery_worker, settings):
    celery_worker()
    settings.CELERY_ODDS_QUEUE = "nobody-computes-odds-here"
    code, out, err = check("--timeout", "3")
    assert code == 1
    assert "No worker answered on the odds queue 'nobody-computes-odds-here' within 3 s" in err
    assert "answered on the sheets queue" in out


def test_a_broker_that_may_evict_a_task_fails(celery_worker, monkeypatch):
    from rosters import health

    celery_worker()
    monkeypatch.setattr(health, "broker_policy", lambda: "allkeys-lru")
    code, out, err = check("--timeout", "30")
    assert code == 1
    assert "Broker  maxmemory-policy allkeys-lru" in out
    assert (
        "The broker's Redis evicts keys (maxmemory-policy allkeys-lru): a queued task may be dropped"
        in err
    )


def test_a_worker_on_another_database_fails(celery_worker):
    # Same server, another database: the `postgres` maintenance database, no migrations.
    other = worker_database_url().rsplit("/", 1)[0] + "/postgres"
    celery_worker(DATABASE_URL=other)
    code, out, err = check("--timeout", "30")
    assert code == 1
    assert "database    postgresql postgres" in out
    assert "The worker uses another database (postgresql postgres" in err


def test_a_worker_without_pango_starts_but_fails_the_check(celery_worker, tmp_path):
    import os

    stub = fake_weasyprint_dir(tmp_path)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    celery_worker(PYTHONPATH=f"{stub}{os.pathsep}{root}")
    code, out, err = check("--timeout", "30")
    assert code == 1
    assert "WeasyPrint  not available" in out
    assert "The worker cannot make PDFs" in err and "libpango-1.0-0" in err
