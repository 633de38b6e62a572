"""Several sheets of one campaign in one PDF: each chosen sheet is in it, cut for its audience as it
is alone, and the PDF's audience is the narrowest of its sheets'; bad choices change nothing."""

import pytest
from django.test import Client

from campaigns.errors import DomainError, Forbidden
from campaigns.services.journal import submit
from rosters import services
from rosters.models import PaperChoice, PrintJob

from .helpers import job_pdf, pdf_pages, pdf_reader

pytestmark = pytest.mark.django_db


@pytest.fixture
def secrets_bought(skirmish, people):
    """Red rolls supply, blue buys a reinforcement: each side's supply is its secret."""
    submit(skirmish, people["alice"], "skirmish.supply")
    submit(skirmish, people["bob"], "skirmish.buy", {"count": 1}, side="blue")
    skirmish.refresh_from_db()
    return skirmish


def _combined(user, campaign, picks, capture, paper="A4"):
    with capture(execute=True):
        job, _ = services.request_combined(user, campaign, picks, paper)
    job.refresh_from_db()
    return job


def _alone(user, campaign, sheet, side, capture):
    with capture(execute=True):
        job, _ = services.request_sheet(user, campaign, sheet, "A4", side)
    job.refresh_from_db()
    return "\n".join(pdf_pages(job_pdf(job)))


def test_the_pdf_holds_each_chosen_sheet_in_order(
    secrets_bought, people, django_capture_on_commit_callbacks
):
    job = _combined(
        people["alice"],
        secrets_bought,
        [("summary", None), ("supply", "red")],
        django_capture_on_commit_callbacks,
    )
    assert job.status == PrintJob.DONE and job.audience == "side:red" and job.sheet == "combined"
    pages = pdf_pages(job_pdf(job))
    summary = _alone(
        people["alice"], secrets_bought, "summary", None, django_capture_on_commit_callbacks
    )
    supply = _alone(
        people["alice"], secrets_bought, "supply", "red", django_capture_on_commit_callbacks
    )
    assert "\n".join(pages) == summary + "\n" + supply  # each sheet as it prints alone, in order
    assert "Campaign summary" in pages[0] and "Supply record: Red" in pages[-1]
    assert PrintJob.objects.filter(sheet="combined").count() == 1


def test_a_sides_combined_pdf_holds_nothing_of_the_other_side(
    secrets_bought, people, django_capture_on_commit_callbacks
):
    """The leak test: red's PDF is what red may read; blue's secret supply is only in blue's and
    the referee's, and the referee's PDF of both sides is the referee's alone."""
    picks = [("summary", None), ("supply", "red")]
    red = _combined(people["alice"], secrets_bought, picks, django_capture_on_commit_callbacks)
    text = "\n".join(pdf_pages(job_pdf(red)))
    assert "blue 1" not in text and "BLUE ONLY" not in text and "Referee notes" not in text
    assert "blue" not in str([part["system"] for part in red.context["parts"]])
    both = _combined(
        people["rita"],
        secrets_bought,
        [("supply", "red"), ("supply", "blue"), ("umpire", None)],
        django_capture_on_commit_callbacks,
    )
    assert both.audience == "referee"
    assert "blue 1" in "\n".join(pdf_pages(job_pdf(both)))
    for name, status in (("alice", 404), ("bob", 404), ("carol", 404), ("rita", 200)):
        client = Client()
        client.force_login(people[name])
        assert client.get(f"/sheets/jobs/{both.pk}/file/").status_code == status
    client = Client()
    client.force_login(people["bob"])
    assert client.get(f"/sheets/jobs/{red.pk}/file/").status_code == 404


@pytest.mark.parametrize(
    ("name", "picks", "refusal"),
    [
        ("alice", [], DomainError),  # nothing chosen
        ("alice", [("nope", None)], DomainError),  # no such sheet
        ("alice", [("summary", None), ("supply", "blue")], Forbidden),  # the other side's
        ("alice", [("summary", None), ("umpire", None)], Forbidden),  # the referee's
        ("carol", [("supply", "red")], Forbidden),
    ],
)
def test_refused_choices_change_nothing(secrets_bought, people, name, picks, refusal):
    with pytest.raises(refusal):
        services.request_combined(people[name], secrets_bought, picks, "A4")
    assert not PrintJob.objects.exists()


@pytest.mark.parametrize(
    ("posted", "words"),
    [
        ({"paper": "A4"}, "Choose at least one sheet"),
        ({"pick": ["summary", "nope"], "paper": "A4"}, "No sheet named"),
        ({"pick": ["summary"], "paper": "Tabloid"}, "Choose A4 or Letter"),
    ],
)
def test_the_panels_form_answers_bad_input_with_a_clear_error(
    secrets_bought, people, posted, words
):
    client = Client()
    client.force_login(people["alice"])
    answer = client.post(f"/campaigns/{secrets_bought.pk}/sheets/combined/", posted)
    assert answer.status_code == 400 and words in answer.content.decode()
    assert not PrintJob.objects.exists() and not PaperChoice.objects.exists()


def test_the_panel_offers_checkboxes_and_the_persons_paper_is_applied(
    secrets_bought, people, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(people["alice"])
    page = client.get(f"/campaigns/{secrets_bought.pk}/").content.decode()
    assert 'name="pick" value="summary"' in page and 'name="pick" value="supply:red"' in page
    assert 'value="supply:blue"' not in page and 'value="umpire"' not in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            f"/campaigns/{secrets_bought.pk}/sheets/combined/",
            {"pick": ["summary", "supply:red"], "paper": "Letter"},
        )
    assert answer.status_code == 302
    job = PrintJob.objects.get(sheet="combined")
    sizes = {
        (round(float(p.mediabox.width)), round(float(p.mediabox.height)))
        for p in pdf_reader(job_pdf(job)).pages
    }
    assert sizes == {(612, 792)}  # US Letter on every page
    assert services.paper_for(people["alice"]) == "Letter"
