"""Print-job fixtures: tasks run inline here (tests/services runs them in a real worker)."""

import pytest


@pytest.fixture(autouse=True)
def inline_tasks(settings, tmp_path):
    """Render tasks run in-process, right after the request's transaction commits;
    generated PDFs go to a temporary MEDIA_ROOT."""
    from muster.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def request_job(django_capture_on_commit_callbacks):
    """request_job(user, campaign, sheet, ...) -> the job, after its (inline) render ran."""
    from rosters.services import request_sheet

    def make(user, campaign, sheet="summary", paper="A4", side=None):
        with django_capture_on_commit_callbacks(execute=True):
            job, _ = request_sheet(user, campaign, sheet, paper, side)
        job.refresh_from_db()
        return job

    return make
