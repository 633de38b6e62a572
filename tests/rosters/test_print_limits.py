"""The print queue cannot be flooded: at most SHEET_RENDERS_PER_MEMBER new
print jobs for one member and SHEET_RENDERS_PER_SIDE for one side of a campaign (those who play
no side are one more group) in 10 minutes; beyond
them the page and the API (429, Retry-After) name the limit and the wait. A sheet whose content did
not change is answered with its job, never rendered again and never refused."""

import itertools
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.errors import TooMany
from campaigns.services.journal import submit
from rosters import print_limits, services
from rosters.models import PrintJob

from .helpers import play_round

_notes = itertools.count()


@pytest.fixture
def queued(monkeypatch, skirmish, people):
    """Jobs are created and left queued (no render: the limits are about asking), in a campaign
    that has a played scenario to write notes on."""
    monkeypatch.setattr(services, "enqueue", lambda job_id: None)
    play_round(skirmish, people)
    return skirmish


def new_content(campaign, people):
    """A public note: every member's summary sheet prints something new."""
    submit(campaign, people["olga"], "note.added", {"scenario": 0, "text": f"Note {next(_notes)}"})
    campaign.refresh_from_db()


def ask(user, campaign, sheet="summary", paper="A4"):
    return services.request_sheet(user, campaign, sheet, paper)


def test_a_member_asking_for_new_sheets_faster_than_the_limit_is_refused_naming_it(
    queued, people, settings
):
    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 3, 100
    for _ in range(3):
        new_content(queued, people)
        job, created = ask(people["alice"], queued)
        assert created
    new_content(queued, people)
    with pytest.raises(TooMany) as refused:
        ask(people["alice"], queued)
    message = refused.value.message
    assert (
        "at most 3 new sheets in 10 minutes" in message
        and "you can ask for another in 10 minutes" in message
    )
    assert "never printed again" in message
    assert 540 < refused.value.retry_after <= 600
    assert PrintJob.objects.filter(requested_by=people["alice"]).count() == 3
    # Another member may still print; the same content again is the same job, never refused.
    job, created = ask(people["bob"], queued)
    assert created
    again, created = ask(people["alice"], queued)
    assert (again.pk, created) == (job.pk, False)


def test_a_flood_of_requests_renders_only_the_limit(queued, people):
    """Eight new units and eight sheet requests in a row: six renders at the defaults."""
    answers = []
    for _ in range(8):
        new_content(queued, people)
        try:
            answers.append(ask(people["alice"], queued)[1])
        except TooMany:
            answers.append("refused")
    assert answers == [True] * 6 + ["refused"] * 2
    assert PrintJob.objects.count() == 6


def test_a_side_has_its_own_limit_for_all_its_players(queued, people, settings):
    """red = olga + alice, blue = bob, referee rita, carol plays nothing (conftest)."""
    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 100, 3
    for who in ("alice", "olga", "alice"):
        new_content(queued, people)
        assert ask(people[who], queued)[1]
    new_content(queued, people)
    with pytest.raises(TooMany) as refused:
        ask(people["olga"], queued)
    assert (
        "At most 3 new sheets of one campaign are printed for your side in 10 minutes"
        in refused.value.message
    )
    # Those who play no side are one group of their own: the referee and a member.
    for who in ("rita", "carol", "rita"):
        new_content(queued, people)
        assert ask(people[who], queued)[1]
    new_content(queued, people)
    with pytest.raises(TooMany) as refused:
        ask(people["carol"], queued)
    assert "printed for those who play no side" in refused.value.message


def test_what_one_side_prints_never_shows_in_what_the_other_may(queued, people, settings):
    """A side refused because the other side printed would learn when the other side works, and
    could be kept from printing by it: blue is answered the same whatever red asked for."""
    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 100, 2

    def blue_answers():
        answers = []
        for paper in ("A4", "Letter", "A4"):
            new_content(queued, people)
            try:
                answers.append(ask(people["bob"], queued, paper=paper)[1])
            except TooMany as refusal:
                answers.append(refusal.message.split(":")[0])
        return answers

    quiet = blue_answers()
    PrintJob.objects.all().delete()
    for who in ("alice", "olga", "alice"):  # red prints up to its limit, and is refused once
        new_content(queued, people)
        try:
            ask(people[who], queued)
        except TooMany:
            pass
    assert blue_answers() == quiet == [True, True, quiet[2]] and quiet[2] is not True


def test_the_member_limit_counts_every_campaign_together(queued, people, settings, club):
    from campaigns.services import campaigns as svc

    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 2, 100
    other = svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Other war"
    )
    new_content(queued, people)
    assert ask(people["alice"], queued)[1]
    assert ask(people["alice"], other)[1]
    with pytest.raises(TooMany):
        ask(people["alice"], other, paper="Letter")


def test_jobs_older_than_the_window_no_longer_count(queued, people, settings):
    settings.SHEET_RENDERS_PER_MEMBER = 2
    for _ in range(2):
        new_content(queued, people)
        ask(people["alice"], queued)
    oldest = PrintJob.objects.order_by("created_at").first()
    PrintJob.objects.filter(pk=oldest.pk).update(
        created_at=timezone.now() - print_limits.WINDOW + timedelta(seconds=30)
    )
    new_content(queued, people)
    with pytest.raises(TooMany) as refused:
        ask(people["alice"], queued)
    assert refused.value.retry_after <= 30 and "seconds" in refused.value.message
    PrintJob.objects.filter(pk=oldest.pk).update(
        created_at=timezone.now() - print_limits.WINDOW - timedelta(seconds=1)
    )
    assert ask(people["alice"], queued)[1]


def test_the_api_answers_429_naming_the_limit_and_the_page_says_it(queued, people, settings):
    settings.SHEET_RENDERS_PER_MEMBER = 1
    api = APIClient()
    api.force_login(people["alice"])
    url = f"/api/v1/campaigns/{queued.pk}/sheets/"
    assert api.post(url, {"sheet": "summary", "paper": "A4"}, format="json").status_code == 201
    answer = api.post(url, {"sheet": "summary", "paper": "Letter"}, format="json")
    assert answer.status_code == 429
    assert "at most 1 new sheet in 10 minutes" in answer.json()["detail"]
    assert 0 < int(answer["Retry-After"]) <= 600
    # The same content asked again: its job (200), not a refusal.
    assert api.post(url, {"sheet": "summary", "paper": "A4"}, format="json").status_code == 200
    page = Client()
    page.force_login(people["alice"])
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        answer = page.post(
            f"/campaigns/{queued.pk}/sheets/request/",
            {"sheet": "summary", "paper": "Letter"},
            **headers,
        )
        assert answer.status_code == 429
        assert "at most 1 new sheet in 10 minutes" in answer.content.decode()
        assert answer["Retry-After"]


def _failed(job):
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.FAILED, error="It broke.")


def test_asking_again_for_a_failed_sheet_is_within_the_limits_and_counted(queued, people, settings):
    """Asking again for a failed job renders it again: the Retry (page, API) and the same request
    again are counted as a new job is, and refused beyond the limit with the same words; nothing is
    queued by a refusal."""
    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 3, 100
    new_content(queued, people)
    job, created = ask(people["alice"], queued)
    assert created
    _failed(job)
    services.retry_job(people["alice"], job.pk)  # the second render asked for
    _failed(job)
    again, created = ask(people["alice"], queued)  # the same request again: the third
    assert (again.pk, created, again.status) == (job.pk, False, PrintJob.QUEUED)
    _failed(job)
    for retry in (
        lambda: services.retry_job(people["alice"], job.pk),
        lambda: ask(people["alice"], queued),
    ):
        with pytest.raises(TooMany) as refused:
            retry()
        assert "at most 3 new sheets in 10 minutes" in refused.value.message
        assert "you can ask for another in 10 minutes" in refused.value.message
        assert 540 < refused.value.retry_after <= 600
        assert PrintJob.objects.get(pk=job.pk).status == PrintJob.FAILED  # not queued again
    # A new sheet is refused too: the asks again counted with the first.
    new_content(queued, people)
    with pytest.raises(TooMany):
        ask(people["alice"], queued, paper="Letter")
    # The side's limit counts them as well (olga plays alice's side), and the other side's not.
    settings.SHEET_RENDERS_PER_MEMBER, settings.SHEET_RENDERS_PER_SIDE = 100, 3
    with pytest.raises(TooMany) as refused:
        services.retry_job(people["olga"], job.pk)
    assert "printed for your side" in refused.value.message
    assert ask(people["bob"], queued)[1]


def test_the_retry_page_and_api_refuse_past_the_limit_naming_it(queued, people, settings):
    settings.SHEET_RENDERS_PER_MEMBER = 1
    new_content(queued, people)
    job, _ = ask(people["alice"], queued)
    _failed(job)
    api = APIClient()
    api.force_login(people["alice"])
    answer = api.post(f"/api/v1/jobs/{job.pk}/retry/")
    assert answer.status_code == 429
    assert "at most 1 new sheet in 10 minutes" in answer.json()["detail"]
    assert 0 < int(answer["Retry-After"]) <= 600
    page = Client()
    page.force_login(people["alice"])
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        answer = page.post(f"/sheets/jobs/{job.pk}/retry/", **headers)
        assert answer.status_code == 429
        assert "at most 1 new sheet in 10 minutes" in answer.content.decode()
        assert answer["Retry-After"]
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.FAILED
    # Once the window has passed, the retry queues it again.
    PrintJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - print_limits.WINDOW - timedelta(seconds=1)
    )
    assert api.post(f"/api/v1/jobs/{job.pk}/retry/").status_code == 200
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.QUEUED
