"""Sheets in an S3-compatible object store (SHEETS_STORAGE_URL; moto's in-process S3 here,
tests/deploy/test_three_hosts.py runs a real S3 server between machines): the PDF goes to the
store and nowhere on disk, downloads go through Muster's permission-checked views, pruning
deletes the object, a failed upload leaves the job failed and retryable, and an object the
store lost fails its job rather than answering with nothing."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from muster import sheet_store
from rosters import storage
from rosters.models import PrintJob

moto = pytest.importorskip("moto")  # requirements-test.txt (an older .venv: make install-test)
boto3 = pytest.importorskip("boto3")
BUCKET = "club-sheets"
pytestmark = pytest.mark.django_db


@pytest.fixture
def store(settings, monkeypatch):
    """An S3 bucket (moto, in this process) configured as the sheets' store."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with moto.mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket=BUCKET)
        settings.STORAGES = {
            **settings.STORAGES,
            "default": sheet_store.backend(f"s3://{BUCKET}/sheets-site?region_name=us-east-1", {}),
        }
        s3.keys = lambda: sorted(
            o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
        )
        yield s3


def _download(user, job):
    client = Client()
    client.force_login(user)
    return client.get(f"/sheets/jobs/{job.pk}/file/")


def test_a_sheet_goes_to_the_store_and_downloads_through_the_checked_view(
    store, skirmish, people, request_job, settings
):
    job = request_job(people["alice"], skirmish, "supply", side="red")
    assert job.status == PrintJob.DONE
    assert store.keys() == [f"sheets-site/{job.file.name}"]
    assert not (settings.MEDIA_ROOT / "sheets").exists()  # nothing on this machine's disk
    answer = _download(people["alice"], job)
    assert answer.status_code == 200 and b"".join(answer.streaming_content).startswith(b"%PDF")
    assert _download(people["bob"], job).status_code == 404  # the other side: no such job for him
    api = Client()
    api.force_login(people["bob"])
    assert api.get(f"/api/v1/jobs/{job.pk}/file/").status_code == 404


def test_objects_are_private(store, skirmish, people, request_job):
    job = request_job(people["alice"], skirmish)
    grants = store.get_object_acl(Bucket=BUCKET, Key=f"sheets-site/{job.file.name}")["Grants"]
    assert all(grant["Grantee"].get("URI", "").endswith("AllUsers") is False for grant in grants)
    assert [grant["Permission"] for grant in grants] == ["FULL_CONTROL"]  # the owner's only


def test_pruning_deletes_from_the_store(
    store, skirmish, people, request_job, django_capture_on_commit_callbacks
):
    job = request_job(people["alice"], skirmish)
    PrintJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(days=31))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("prune_sheets", "--days", "30")
    assert store.keys() == [] and not PrintJob.objects.exists()


def test_a_failed_upload_leaves_the_job_failed_and_retryable(
    store, skirmish, people, request_job, django_capture_on_commit_callbacks
):
    store.delete_bucket(Bucket=BUCKET)  # the store points at nothing
    job = request_job(people["alice"], skirmish)
    assert job.status == PrintJob.FAILED and not job.file
    assert job.error == storage.FAILED_MESSAGE
    assert _download(people["alice"], job).status_code == 404

    store.create_bucket(Bucket=BUCKET)  # the store is back: Retry prints it
    client = Client()
    client.force_login(people["alice"])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/sheets/jobs/{job.pk}/retry/").status_code in (200, 302)
    job.refresh_from_db()
    assert job.status == PrintJob.DONE and store.keys() == [f"sheets-site/{job.file.name}"]


def test_an_object_the_store_lost_is_printed_again_on_request(
    store, skirmish, people, request_job, django_capture_on_commit_callbacks
):
    """Never an empty answer, nor a link that leads nowhere: the download asks for the sheet again
    (a site restored from a backup keeps no sheets) and leads to the job's page."""
    job = request_job(people["alice"], skirmish)
    lost = job.file.name
    store.delete_object(Bucket=BUCKET, Key=f"sheets-site/{lost}")
    with django_capture_on_commit_callbacks(execute=False) as requeued:
        answer = _download(people["alice"], job)
    assert answer.status_code == 302 and answer["Location"] == f"/sheets/jobs/{job.pk}/"
    job.refresh_from_db()
    assert job.status == PrintJob.QUEUED and not job.file  # failed as gone, then asked for again
    for callback in requeued:
        callback()
    job.refresh_from_db()
    assert job.status == PrintJob.DONE and store.keys() == [f"sheets-site/{job.file.name}"]
    assert _download(people["alice"], job).status_code == 200
    # The API says 404 for the moment (the job is printed again meanwhile: its status says when).
    store.delete_object(Bucket=BUCKET, Key=f"sheets-site/{job.file.name}")
    client = Client()
    client.force_login(people["alice"])
    assert client.get(f"/api/v1/jobs/{job.pk}/file/").status_code == 404
    job.refresh_from_db()
    assert job.status == PrintJob.QUEUED and job.error == ""


@pytest.mark.parametrize(
    "url, says",
    [
        ("https://bucket/", "must look like s3://BUCKET"),
        ("s3://key:secret@bucket/", "holds no credentials"),
        ("s3://bucket/?endpoint=x", "unknown option(s) endpoint"),
    ],
)
def test_a_bad_store_url_is_refused(url, says):
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        sheet_store.backend(url, {})


def test_the_aws_settings_name_a_store_too():
    options = sheet_store.backend(
        "",
        {
            "AWS_STORAGE_BUCKET_NAME": "b",
            "AWS_S3_ENDPOINT_URL": "http://s3.local:9000",
            "AWS_LOCATION": "/muster/",
        },
    )["OPTIONS"]
    assert (options["bucket_name"], options["endpoint_url"], options["location"]) == (
        "b",
        "http://s3.local:9000",
        "muster",
    )
    assert options["default_acl"] is None and options["querystring_expire"] == 300
    assert sheet_store.backend("", {}) == sheet_store.LOCAL
