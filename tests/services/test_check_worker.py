"""manage.py check_worker against a real Celery worker over Redis: it prints the
worker's database, queue and WeasyPrint version, and exits non-zero when no worker
answers, when the worker is on another database, or when it cannot make PDFs."""

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


def test_a_worker_on_this_database_answers_with_its_database_queue_and_weasyprint(celery_worker):
    worker = celery_worker()
    code, out, err = check("--timeout", "30")
    assert code == 0, err
    lines = dict(line.split(None, 1) for line in out.splitlines()[1:] if line.startswith("  "))
    assert lines["database"].startswith(f"postgresql {connection.settings_dict['NAME']}")
    assert lines["queue"] == worker.queue  # the site's queue (the fixture points the site at it)
    assert lines["WeasyPrint"] == weasyprint.__version__
    assert out.splitlines()[0].startswith(f"Worker {worker.queue}@")


def test_no_worker_on_the_queue_fails_after_the_timeout(celery_worker, settings):
    settings.CELERY_TASK_DEFAULT_QUEUE = "nobody-listens-here"  # a queue no worker consumes
    code, out, err = check("--timeout", "1")
    assert code == 1
    assert "No worker answered on the queue 'nobody-listens-here' within 1 s" in err


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
