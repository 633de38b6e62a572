"""Without Pango WeasyPrint cannot even be imported. The site, its checks and every
page still work; asking for a PDF gives a failed print job whose message names the
missing library (never a 500), and the same job renders once the library is there."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from rosters import pdf
from rosters.models import PrintJob
from tests.ops.fake_weasyprint import fake_weasyprint_dir, hide_weasyprint

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_weasyprint(monkeypatch):
    hide_weasyprint(monkeypatch)
    with pytest.raises(OSError):
        import weasyprint  # noqa: F401  (the fixture works: as on a machine without Pango)


def test_the_site_starts_checks_migrates_and_serves_without_pango(tmp_path):
    """In a fresh process whose `import weasyprint` fails as without Pango."""
    script = """
import django, sys
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("check")
call_command("migrate", verbosity=0)
for url in ("/accounts/login/", "/api/v1/systems/", "/does-not-exist/"):
    print(url, Client().get(url).status_code)
try:
    import weasyprint
except OSError as error:
    print("weasyprint:", error)
"""
    env = {
        **os.environ,
        "PYTHONPATH": f"{fake_weasyprint_dir(tmp_path)}{os.pathsep}{ROOT}",
        "DJANGO_SETTINGS_MODULE": "muster.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "/accounts/login/ 200" in done.stdout and "/api/v1/systems/ 403" in done.stdout
    assert "/does-not-exist/ 404" in done.stdout
    assert (
        "weasyprint: cannot load library 'libpango-1.0-0'" in done.stdout
    )  # it really was missing


def test_asking_for_a_pdf_without_pango_fails_the_job_with_the_missing_library(
    skirmish, people, no_weasyprint, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(people["alice"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/campaigns/{skirmish.pk}/sheets/request/", {"sheet": "summary", "paper": "A4"}
        )
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.status == PrintJob.FAILED
    assert job.error == (
        "PDFs cannot be made on this server: WeasyPrint needs the system library libpango-1.0-0, which is "
        f"missing (Debian: apt-get install {pdf.WEASYPRINT_PACKAGES}, then restart). "
        "Tell the site operator."
    )
    page = client.get(f"/campaigns/{skirmish.pk}/")
    assert page.status_code == 200 and "libpango-1.0-0" in page.content.decode()
    # The print view (HTML) needs no WeasyPrint at all.
    assert client.get(f"/campaigns/{skirmish.pk}/sheets/summary/print/").status_code == 200


def test_the_failed_job_renders_once_the_library_is_there(
    skirmish, people, monkeypatch, request_job, django_capture_on_commit_callbacks
):
    from rosters import services

    with monkeypatch.context() as without:
        hide_weasyprint(without)
        job = request_job(people["alice"], skirmish)
    assert job.status == PrintJob.FAILED
    with django_capture_on_commit_callbacks(execute=True):  # Pango is back: the operator's retry
        services.retry_job(people["alice"], job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.DONE and job.error == ""


def test_an_uninstalled_weasyprint_is_named_too():
    error = ImportError("No module named 'weasyprint'", name="weasyprint")
    assert "the weasyprint package is not installed" in pdf.unavailable_message(error)


def test_the_worker_health_says_why_no_pdf_can_be_made(db, no_weasyprint):
    from rosters.tasks import worker_health

    answer = worker_health.apply().get()
    assert answer["weasyprint"] is None and "libpango-1.0-0" in answer["pdf_problem"]
