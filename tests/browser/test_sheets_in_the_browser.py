"""In a real browser: log in, find the campaign, ask for its summary sheet, watch
the progress, download the PDF and read it; a side's private sheet too.
Screenshots of the main pages are saved on the way (tests/browser/conftest.py)."""

import os
import re

import pytest
from playwright.sync_api import expect

from rosters.models import PrintJob
from tests.browser.session import log_in
from tests.rosters.helpers import pdf_reader, play_round


def prepare_and_download(page, sheet_name: str, paper: str = "A4") -> bytes:
    """Press "Prepare PDF" on one sheet of the panel, wait for the progress to end, download."""
    choice = page.locator("li.sheet-choice", has_text=sheet_name)
    choice.get_by_label("Paper").select_option(paper)
    # Forget an earlier answer, so that only this request's can satisfy the waits below.
    choice.locator(".sheet-result").evaluate("element => { element.innerHTML = '' }")
    with page.expect_response(re.compile(r"/sheets/request/$")) as answer:
        choice.get_by_role("button", name="Prepare PDF").click()
    assert answer.value.status == 200
    job = choice.locator(".sheet-result .sheet-job")
    expect(job).to_be_visible()  # progress (queued/rendering), or already done when rendered inline
    download_link = job.get_by_role("link", name="Download PDF")
    expect(download_link).to_be_visible(timeout=90_000)  # htmx polls the job until it is done
    expect(choice.locator(".sheet-result progress")).to_have_count(0)
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename.endswith(".pdf")
    with open(download.value.path(), "rb") as handle:
        return handle.read()


def paper_of(data: bytes) -> tuple[int, int]:
    box = pdf_reader(data).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def text_of(data: bytes) -> tuple[int, str]:
    reader = pdf_reader(data)
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_a_player_prints_the_campaign_summary(page, screenshot, sheet_renderer, skirmish, people):
    play_round(skirmish, people, red=3, blue=1)

    page.goto("/accounts/login/")
    screenshot(page, "login")
    log_in(page, "alice")
    expect(page.get_by_role("link", name="Test war").first).to_be_visible()
    screenshot(page, "dashboard")

    page.get_by_role("link", name="Tuesday Night ASL").first.click()
    expect(page).to_have_url(re.compile(r"/clubs/tuesday/$"))
    screenshot(page, "club")

    page.get_by_role("link", name="Test war").first.click()
    expect(page).to_have_url(re.compile(rf"/campaigns/{skirmish.pk}/"))
    expect(page.get_by_role("heading", name="Test war").first).to_be_visible()
    screenshot(page, "campaign")

    pdf = prepare_and_download(page, "Campaign summary")
    screenshot(page, "sheet-panel", "#sheets")
    assert pdf.startswith(b"%PDF")
    pages, text = text_of(pdf)
    assert pages == 1 and paper_of(pdf) == (595, 842)  # A4 in points
    for expected in (
        "Campaign summary",
        "Test war",
        "Tuesday Night ASL",
        "Page 1 of 1",
        "Red",
        "Blue",
        "alice",
        "bob",
        "Round 1",
    ):
        assert expected in text, f"{expected!r} not in the PDF:\n{text}"

    # The same sheet again is the same job: nothing rendered twice, the same file.
    again = prepare_and_download(page, "Campaign summary")
    assert again == pdf

    # US Letter is another PDF of the same sheet.
    letter = prepare_and_download(page, "Campaign summary", paper="Letter")
    assert paper_of(letter) == (612, 792) and "Letter" in text_of(letter)[1]

    jobs = list(PrintJob.objects.filter(campaign=skirmish).order_by("created_at"))
    assert [(j.paper, j.status, j.attempts) for j in jobs] == [
        ("A4", "done", 1),
        ("Letter", "done", 1),
    ]
    renderer_pid = {int(j.claimed_by.rsplit(":", 1)[1]) for j in jobs}
    if sheet_renderer == "worker":  # rendered by the Celery worker's process, not this one
        assert os.getpid() not in renderer_pid
    else:
        assert renderer_pid == {os.getpid()}


def test_a_side_prints_its_private_sheet_and_the_other_side_cannot_see_it(
    page, browser, sheet_renderer, skirmish, people, live_server
):
    play_round(skirmish, people)
    log_in(page, "alice")
    page.goto(f"/campaigns/{skirmish.pk}/#sheets")
    private_name = _private_sheet_name(page)
    pdf = prepare_and_download(page, private_name)
    pages, text = text_of(pdf)
    assert pages >= 1 and private_name in text and "Red" in text
    job_url = (
        page.locator("li.sheet-choice", has_text=private_name)
        .get_by_role("link", name="Download PDF")
        .get_attribute("href")
    )

    # Bob (blue) is offered no red sheet, and the file's address answers him 404.
    other = browser.new_context(base_url=live_server.url)
    try:
        bob = other.new_page()
        log_in(bob, "bob")
        bob.goto(f"/campaigns/{skirmish.pk}/")
        expect(bob.locator("#sheets")).to_be_visible()
        assert "Red" not in bob.locator("#sheets").inner_text().replace("Red only", "")
        response = bob.request.get(job_url)
        assert response.status == 404
        assert b"%PDF" not in response.body()
    finally:
        other.close()


def _private_sheet_name(page) -> str:
    """The name of the first side-only sheet the panel offers (the test system's supply record)."""
    choice = page.locator("li.sheet-choice", has_text="(one side only)").first
    expect(choice).to_be_visible()
    name = choice.locator("strong").inner_text().strip()
    if not name:
        pytest.fail("the panel names no side sheet")
    return name
