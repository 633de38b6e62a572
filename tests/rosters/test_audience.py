"""Who may print and download what: a side's sheet is its players' and the
referee's, through the service, the pages, the API and the file URL alike."""

import pytest
from rest_framework.test import APIClient

from campaigns.errors import Forbidden, NotFound
from campaigns.services.journal import submit
from rosters import services, sheets
from rosters.models import PrintJob

from .helpers import job_pdf, pdf_pages


@pytest.fixture
def secrets_bought(skirmish, people):
    """Red rolls supply, blue buys a reinforcement: each side's supply is its secret."""
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.buy", {"count": 1}, side="blue")
    skirmish.refresh_from_db()
    return skirmish


@pytest.fixture
def red_job(secrets_bought, people, request_job):
    return request_job(people["alice"], secrets_bought, "supply")


def test_a_player_prints_his_own_sides_sheet_without_the_other_side(red_job):
    assert red_job.status == PrintJob.DONE and red_job.audience == "side:red"
    text = "\n".join(pdf_pages(job_pdf(red_job)))
    assert "Supply record: Red" in text and "RED ONLY" in text
    rows = [line for line in text.splitlines() if line.startswith(("red ", "blue "))]
    assert [row.split()[0] for row in rows] == ["red"]
    assert "blue" not in str(red_job.context["system"])  # blue appears only in the public core


def test_the_referee_prints_any_sides_sheet_and_the_referee_sheet(
    secrets_bought, people, request_job, red_job
):
    for_red = request_job(people["rita"], secrets_bought, "supply", side="red")
    assert for_red.pk == red_job.pk  # the same content for the same audience
    umpire = request_job(people["rita"], secrets_bought, "umpire")
    assert umpire.audience == "referee" and umpire.content_hash != red_job.content_hash
    text = "\n".join(pdf_pages(job_pdf(umpire)))
    assert "Referee notes" in text and "REFEREE ONLY" in text
    assert "blue 1" in text  # blue's secret supply, for the referee only


@pytest.mark.parametrize(
    "name,sheet,side,refusal",
    [
        ("bob", "supply", "red", Forbidden),  # the other side
        ("carol", "supply", "red", Forbidden),  # a member playing no side
        ("olga", "supply", "blue", Forbidden),  # an organizer who plays red
        ("alice", "umpire", None, Forbidden),
        ("olga", "umpire", None, Forbidden),
        ("outsider", "summary", None, NotFound),
    ],
)
def test_refused_requests(secrets_bought, people, name, sheet, side, refusal):
    with pytest.raises(refusal):
        services.request_sheet(people[name], secrets_bought, sheet, "A4", side)
    assert PrintJob.objects.count() == 0


def test_the_audience_is_part_of_the_hash():
    """The same printed content for two audiences never shares a job (or a file)."""
    summary = sheets.CORE_SHEETS[0]
    context = {"anything": "the same"}
    hashes = {
        sheets.content_hash(context, sheet=summary, audience=audience, paper="A4", campaign_id=1)
        for audience in ("public", "referee", "side:red", "side:blue")
    }
    assert len(hashes) == 4


def test_a_public_summary_is_cut_for_the_club_even_when_the_referee_asks(
    secrets_bought, people, request_job
):
    job = request_job(people["rita"], secrets_bought, "summary")
    assert job.audience == "public"
    assert "supply" not in str(job.context["system"]) and "rolls" not in str(job.context)


# --- pages ----------------------------------------------------------------------------------------


def _client(people, name):
    from django.test import Client

    client = Client()
    if name != "anonymous":
        client.force_login(people[name])
    return client


@pytest.mark.parametrize(
    "name,status",
    [("alice", 200), ("olga", 200), ("rita", 200), ("bob", 404), ("carol", 404), ("outsider", 404)],
)
def test_job_page_and_file_of_reds_sheet(red_job, people, name, status):
    client = _client(people, name)
    assert client.get(f"/sheets/jobs/{red_job.pk}/").status_code == status
    download = client.get(f"/sheets/jobs/{red_job.pk}/file/")
    assert download.status_code == status
    if status == 200:
        assert download["Content-Type"] == "application/pdf"
        assert b"".join(download.streaming_content).startswith(b"%PDF")
        assert "attachment" in download["Content-Disposition"]
    else:
        assert b"%PDF" not in download.content


def test_anonymous_is_sent_to_log_in(red_job, people):
    response = _client(people, "anonymous").get(f"/sheets/jobs/{red_job.pk}/file/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_retry_of_another_sides_job_is_not_found(red_job, people):
    PrintJob.objects.filter(pk=red_job.pk).update(status=PrintJob.FAILED)
    assert _client(people, "bob").post(f"/sheets/jobs/{red_job.pk}/retry/").status_code == 404
    assert PrintJob.objects.get(pk=red_job.pk).status == PrintJob.FAILED


def test_requesting_another_sides_sheet_on_the_page_is_forbidden(secrets_bought, people):
    response = _client(people, "bob").post(
        f"/campaigns/{secrets_bought.pk}/sheets/request/",
        {"sheet": "supply", "side": "red", "paper": "A4"},
    )
    assert response.status_code == 403 and PrintJob.objects.count() == 0


def test_the_print_view_of_another_sides_sheet_is_forbidden(secrets_bought, people):
    url = f"/campaigns/{secrets_bought.pk}/sheets/supply/print/?side=red"
    assert _client(people, "bob").get(url).status_code == 403
    assert _client(people, "outsider").get(url).status_code == 404
    mine = _client(people, "alice").get(url)
    assert mine.status_code == 200 and b"Supply record" in mine.content


def test_file_names_are_random_and_not_in_media_urls(red_job, settings):
    name = red_job.file.name
    assert name.startswith("sheets/") and len(name.split("/")[-1]) >= 30
    assert str(red_job.pk) not in name and red_job.sheet not in name
    from django.test import Client

    assert Client().get(settings.MEDIA_URL + name).status_code == 404  # MEDIA is never served


# --- API ------------------------------------------------------------------------------------------


def _api(people, name):
    client = APIClient()
    if name != "anonymous":
        client.force_login(people[name])
    return client


@pytest.mark.parametrize(
    "name,status",
    [
        ("alice", 200),
        ("olga", 200),
        ("rita", 200),
        ("bob", 404),
        ("carol", 404),
        ("outsider", 404),
        ("anonymous", 403),
    ],
)
def test_api_job_and_file_of_reds_sheet(red_job, people, name, status):
    client = _api(people, name)
    assert client.get(f"/api/v1/jobs/{red_job.pk}/").status_code == status
    download = client.get(f"/api/v1/jobs/{red_job.pk}/file/")
    assert download.status_code == status
    if status == 200:
        assert b"".join(download.streaming_content).startswith(b"%PDF")


def test_api_request_of_another_sides_sheet_is_forbidden(secrets_bought, people):
    response = _api(people, "bob").post(
        f"/api/v1/campaigns/{secrets_bought.pk}/sheets/",
        {"sheet": "supply", "side": "red"},
        format="json",
    )
    assert response.status_code == 403 and PrintJob.objects.count() == 0
