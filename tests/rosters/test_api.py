"""The sheets API: every route for every viewer of the permission matrix
(tests/api/test_permission_matrix.py lists these routes as covered here), and
the job resource."""

import pytest
from rest_framework.test import APIClient

from rosters.models import PrintJob
from tests.api.conftest import VIEWERS

from .helpers import job_pdf


@pytest.fixture(autouse=True)
def quick_renders(monkeypatch):
    """These tests are about who may do what, not about the PDF: a stand-in render
    (the PDF itself is tested in test_pdf.py), distinct per sheet."""
    import hashlib

    from rosters import services

    monkeypatch.setattr(
        services, "render_hook", lambda html: b"%PDF-1.7 " + hashlib.sha256(html.encode()).digest()
    )


@pytest.fixture
def api(people):
    def make(name):
        client = APIClient()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make


def _expect(**overrides):
    return {**dict.fromkeys(VIEWERS, None), **overrides}


LIST = _expect(anonymous=403, outsider=404, carol=200, alice=200, bob=200, olga=200, rita=200)
# (sheet, side) -> answer per viewer; 201 = a job was made for them.
REQUESTS = {
    ("summary", None): _expect(
        anonymous=403, outsider=404, carol=201, alice=201, bob=201, olga=201, rita=201
    ),
    ("supply", "red"): _expect(
        anonymous=403, outsider=404, carol=403, alice=201, bob=403, olga=201, rita=201
    ),
    ("umpire", None): _expect(
        anonymous=403, outsider=404, carol=403, alice=403, bob=403, olga=403, rita=201
    ),
}
# A job of each audience -> who may read it (GET job, GET file, POST retry when failed).
READERS = {
    "public": {"carol", "alice", "bob", "olga", "rita"},
    "side:red": {"alice", "olga", "rita"},
    "referee": {"rita"},
}


@pytest.mark.parametrize("viewer", VIEWERS)
def test_list_sheets(skirmish, api, viewer):
    response = api(viewer).get(f"/api/v1/campaigns/{skirmish.pk}/sheets/")
    assert response.status_code == LIST[viewer]
    if response.status_code == 200:
        slugs = {s["slug"]: s for s in response.json()}
        assert "summary" in slugs
        assert ("umpire" in slugs) == (viewer == "rita")
        expected_sides = {
            "alice": ["red"],
            "olga": ["red"],
            "bob": ["blue"],
            "rita": ["red", "blue"],
        }.get(viewer)
        assert slugs.get("supply", {}).get("sides") == expected_sides


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("sheet,side", list(REQUESTS))
def test_request_sheet(skirmish, api, viewer, sheet, side, django_capture_on_commit_callbacks):
    body = {"sheet": sheet, "paper": "Letter", **({"side": side} if side else {})}
    with django_capture_on_commit_callbacks(execute=True):
        response = api(viewer).post(f"/api/v1/campaigns/{skirmish.pk}/sheets/", body, format="json")
    expected = REQUESTS[(sheet, side)][viewer]
    assert response.status_code == expected, response.content[:300]
    if expected == 201:
        job = response.json()
        assert (job["status"], job["progress"], job["file_url"], job["paper"]) == (
            "queued",
            0,
            None,
            "Letter",
        )
        job = (
            api(viewer).get(f"/api/v1/jobs/{job['id']}/").json()
        )  # rendered once the request committed
        assert job["status"] == "done" and job["progress"] == 100
        assert job["file_url"].endswith(f"/api/v1/jobs/{job['id']}/file/")
        again = api(viewer).post(f"/api/v1/campaigns/{skirmish.pk}/sheets/", body, format="json")
        assert again.status_code == 200 and again.json()["id"] == job["id"]
    else:
        assert PrintJob.objects.count() == 0
        if expected == 404:
            assert response.json() == {"detail": "Not found."}


@pytest.fixture
def jobs(skirmish, people, request_job):
    return {
        "public": request_job(people["alice"], skirmish, "summary"),
        "side:red": request_job(people["alice"], skirmish, "supply"),
        "referee": request_job(people["rita"], skirmish, "umpire"),
    }


@pytest.mark.parametrize("audience", list(READERS))
def test_job_routes(jobs, api, audience):
    job = jobs[audience]
    for viewer in VIEWERS:
        client = api(viewer)
        may = viewer in READERS[audience]
        expected = 403 if viewer == "anonymous" else 200 if may else 404
        got = client.get(f"/api/v1/jobs/{job.pk}/")
        assert got.status_code == expected, viewer
        download = client.get(f"/api/v1/jobs/{job.pk}/file/")
        assert download.status_code == expected, viewer
        if may:
            assert got.json()["audience"] == audience
            assert b"".join(download.streaming_content) == job_pdf(job)
            assert "no-store" in download["Cache-Control"]
        else:
            assert b"PDF" not in download.content
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.FAILED, error="x")
        retry = client.post(f"/api/v1/jobs/{job.pk}/retry/")
        assert retry.status_code == expected, viewer
        assert PrintJob.objects.get(pk=job.pk).status == (
            PrintJob.QUEUED if may else PrintJob.FAILED
        ), viewer
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.DONE, error="")


def test_job_resource(jobs, api):
    job = jobs["side:red"]
    body = api("alice").get(f"/api/v1/jobs/{job.pk}/").json()
    assert set(body) == {
        "id",
        "campaign",
        "sheet",
        "title",
        "paper",
        "audience",
        "status",
        "progress",
        "error",
        "retryable",
        "file_url",
        "created_at",
        "finished_at",
    }
    assert body["title"] == "Supply record · Red only" and body["retryable"] is False


@pytest.mark.parametrize(
    "path",
    [
        "not-a-uuid/",
        "00000000-0000-0000-0000-000000000000/",
        "00000000-0000-0000-0000-000000000000/file/",
    ],
)
def test_unknown_jobs_are_not_found(api, people, path):
    assert api("alice").get(f"/api/v1/jobs/{path}").status_code == 404


def test_retry_of_a_ready_job_is_a_field_error(jobs, api):
    response = api("alice").post(f"/api/v1/jobs/{jobs['public'].pk}/retry/")
    assert response.status_code == 400 and "status" in response.json()


@pytest.mark.parametrize(
    "body,field",
    [
        ({"sheet": "summary", "paper": "A3"}, "paper"),
        ({}, "sheet"),
        ({"sheet": "nope"}, "sheet"),
        ({"sheet": "supply", "side": "green"}, "side"),
    ],
)
def test_bad_requests_are_field_errors(skirmish, api, body, field):
    response = api("rita").post(f"/api/v1/campaigns/{skirmish.pk}/sheets/", body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert PrintJob.objects.count() == 0
