"""The sheets panel of the campaign page, the job fragment htmx polls, retry, and
the HTML print view."""

import pytest
from django.test import Client

from rosters import services
from rosters.models import PrintJob

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client_as(people):
    def make(name):
        client = Client()
        client.force_login(people[name])
        return client

    return make


@pytest.mark.parametrize(
    "name,shown,hidden",
    [
        ("alice", ["Campaign summary", "Supply record"], ["Referee notes"]),
        ("carol", ["Campaign summary"], ["Supply record", "Referee notes"]),
        ("rita", ["Campaign summary", "Supply record", "Referee notes"], []),
    ],
)
def test_the_campaign_page_lists_the_sheets_the_viewer_may_print(
    skirmish, client_as, name, shown, hidden
):
    html = client_as(name).get(f"/campaigns/{skirmish.pk}/").content.decode()
    assert 'id="sheets"' in html
    for text in shown:
        assert text in html
    for text in hidden:
        assert text not in html


def test_the_panel_lists_only_the_jobs_the_viewer_may_read(
    skirmish, people, request_job, client_as
):
    red = request_job(people["alice"], skirmish, "supply")
    public = request_job(people["alice"], skirmish, "summary")
    mine = client_as("alice").get(f"/campaigns/{skirmish.pk}/").content.decode()
    theirs = client_as("bob").get(f"/campaigns/{skirmish.pk}/").content.decode()
    assert str(red.pk) in mine and str(public.pk) in mine
    assert str(red.pk) not in theirs and str(public.pk) in theirs
    assert f"/sheets/jobs/{public.pk}/file/" in theirs  # a download link: it is ready


def test_requesting_through_htmx_answers_with_the_job_fragment(
    skirmish, client_as, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)  # no worker yet: it stays queued
    response = client_as("alice").post(
        f"/campaigns/{skirmish.pk}/sheets/request/",
        {"sheet": "supply", "paper": "Letter", "side": "red"},
        **HTMX,
    )
    assert response.status_code == 200
    job = PrintJob.objects.get()
    html = response.content.decode()
    assert (
        f'hx-get="/sheets/jobs/{job.pk}/"' in html and 'hx-trigger="every 1s"' in html
    )  # it polls
    assert (
        "Waiting for the print worker" in html
        and job.audience == "side:red"
        and job.paper == "Letter"
    )


def test_polling_shows_progress_then_the_download(skirmish, people, client_as, monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    job, _ = services.request_sheet(people["alice"], skirmish, "summary")
    client = client_as("alice")
    services.claim(job.pk, "t")
    PrintJob.objects.filter(pk=job.pk).update(progress=40)
    running = client.get(f"/sheets/jobs/{job.pk}/", **HTMX).content.decode()
    assert 'value="40"' in running and "Rendering" in running and "hx-get" in running
    services.run_job(job.pk, "t")
    done = client.get(f"/sheets/jobs/{job.pk}/", **HTMX).content.decode()
    assert f"/sheets/jobs/{job.pk}/file/" in done and "hx-get" not in done  # polling stops


def test_a_failed_job_shows_its_error_and_a_retry_button(
    skirmish, people, client_as, request_job, monkeypatch
):
    monkeypatch.setattr(
        services, "render_hook", lambda html: (_ for _ in ()).throw(ValueError("boom"))
    )
    job = request_job(people["alice"], skirmish)
    client = client_as("bob")
    html = client.get(f"/sheets/jobs/{job.pk}/", **HTMX).content.decode()
    assert "could not be rendered (ValueError)" in html and f"/sheets/jobs/{job.pk}/retry/" in html
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    retried = client.post(f"/sheets/jobs/{job.pk}/retry/", **HTMX)
    assert retried.status_code == 200 and "Waiting for the print worker" in retried.content.decode()
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.QUEUED
    again = client.post(f"/sheets/jobs/{job.pk}/retry/", **HTMX)
    assert again.status_code == 400 and "still being prepared" in again.content.decode()


def test_a_bad_request_is_a_message_and_writes_nothing(skirmish, client_as):
    response = client_as("alice").post(
        f"/campaigns/{skirmish.pk}/sheets/request/", {"sheet": "summary", "paper": "A3"}, **HTMX
    )
    assert response.status_code == 400 and "Choose A4 or Letter." in response.content.decode()
    assert PrintJob.objects.count() == 0


def test_without_htmx_the_request_leads_to_the_job_page(
    skirmish, client_as, django_capture_on_commit_callbacks
):
    client = client_as("alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/campaigns/{skirmish.pk}/sheets/request/", {"sheet": "summary", "paper": "A4"}
        )
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sheets/jobs/{job.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Download PDF" in page and "<html" in page


def test_the_print_view_is_the_sheet_as_a_page(skirmish, client_as):
    response = client_as("carol").get(
        f"/campaigns/{skirmish.pk}/sheets/summary/print/?paper=Letter"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "window.print()" in html and "size: letter" in html and "Tuesday Night ASL" in html
    assert "/static/print/sheet.css" in html


def test_the_print_view_refuses_bad_paper(skirmish, client_as):
    response = client_as("carol").get(f"/campaigns/{skirmish.pk}/sheets/summary/print/?paper=A0")
    assert response.status_code == 400 and "Choose A4 or Letter." in response.content.decode()


def test_job_urls_only_accept_their_methods(skirmish, people, request_job, client_as):
    job = request_job(people["alice"], skirmish)
    client = client_as("alice")
    assert client.post(f"/sheets/jobs/{job.pk}/file/").status_code == 405
    assert client.get(f"/sheets/jobs/{job.pk}/retry/").status_code == 405
    assert client.get(f"/campaigns/{skirmish.pk}/sheets/request/").status_code == 405
