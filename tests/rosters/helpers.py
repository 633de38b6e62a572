"""Shared helpers of the sheet tests: playing a Skirmish round, reading PDFs."""

import io

import pypdf

from campaigns.services.journal import submit


def play_round(campaign, people, red=3, blue=1):
    """Both sides roll supply, choose stances, red reports a result and blue confirms."""
    submit(campaign, people["alice"], "skirmish.supply")
    submit(campaign, people["bob"], "skirmish.supply")
    campaign.refresh_from_db()
    from campaigns.services.state import current_state

    rnd = current_state(campaign)["current"]
    submit(
        campaign, people["alice"], "sealed.submitted", {"key": f"stance:{rnd}", "choice": "attack"}
    )
    submit(campaign, people["bob"], "sealed.submitted", {"key": f"stance:{rnd}", "choice": "hold"})
    submit(
        campaign,
        people["alice"],
        "result.submitted",
        {"scenario": rnd, "data": {"red": red, "blue": blue}},
    )
    submit(campaign, people["bob"], "result.confirmed", {"scenario": rnd})
    campaign.refresh_from_db()


def pdf_reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in pdf_reader(data).pages]


def job_pdf(job) -> bytes:
    with job.file.open("rb") as handle:
        return handle.read()
