"""The PDFs themselves: pages, header, page X of Y, repeated table headers, rows
never split, paper sizes, determinism, fonts, and a URL fetcher that fetches
nothing but the site's own static files."""

import urllib.request

import pytest

from rosters import pdf, services, static_files, weasyprint_render
from tests.testsystem import SYSTEM as SKIRMISH

from .helpers import job_pdf, pdf_pages, pdf_reader, play_round

A4 = (595.28, 841.89)  # points
LETTER = (612.0, 792.0)


def test_the_summary_prints_sides_players_timeline_and_standings(skirmish, people, request_job):
    play_round(skirmish, people, red=4, blue=2)
    job = request_job(people["bob"], skirmish)
    pages = pdf_pages(job_pdf(job))
    assert len(pages) == 1
    text = pages[0]
    for expected in (
        "Tuesday Night ASL",
        "Test war",
        "Campaign summary",
        "Club",
        "Page 1 of 1",
        "Red olga, alice",
        "Blue bob",
        "Round 1 played Red: 4",
        "Blue: 2",
        "Round 2 being prepared or played",
        "Red Wins 1",
        "Blue Wins 0",
        "Referee: rita",
    ):
        assert expected in text, expected
    assert f"As of {job.context['as_of']}" in text


@pytest.fixture
def long_supply_sheet(monkeypatch):
    """The supply sheet with 120 rows whose last cell wraps over several lines."""

    def context(sheet, view):
        rows = [
            [f"row-{i:03d}", i, f"start-{i:03d} " + "filler words " * 14 + f"end-{i:03d}"]
            for i in range(120)
        ]
        return {
            "tables": [{"title": "Supply", "columns": ["Unit", "Points", "Notes"], "rows": rows}]
        }

    monkeypatch.setattr(SKIRMISH, "sheet_context", context)


def test_long_tables_repeat_their_header_and_never_split_a_row(
    skirmish, people, request_job, long_supply_sheet
):
    job = request_job(people["alice"], skirmish, "supply")
    pages = pdf_pages(job_pdf(job))
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text
        assert "Unit Points Notes" in text  # the table header, on every page
        assert "Supply record" in text and "Tuesday Night ASL" in text  # the page header
    for i in range(120):
        holding = [n for n, text in enumerate(pages) if f"start-{i:03d}" in text]
        ending = [n for n, text in enumerate(pages) if f"end-{i:03d}" in text]
        assert holding == ending and len(holding) == 1, (
            f"row {i} split across pages {holding} / {ending}"
        )


def test_a_sheet_long_enough_for_parts_is_one_document_numbered_throughout(
    skirmish, people, request_job, monkeypatch
):
    """A long sheet that Typst does not print (rosters.typst_render) goes to WeasyPrint: past MIN_ROWS
    its rows are laid out in parts at once (rosters.pdf_parts) and joined: every page still says
    "Page X of Y" of the whole, carries the page and table headers, and every row is there once, in order."""
    from rosters import pdf_parts, typst_render

    monkeypatch.setattr(typst_render, "write_pdf", lambda sheet: None)
    rows = [[f"row-{i:04d}", i, "ready"] for i in range(pdf_parts.MIN_ROWS + 60)]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [{"title": "Supply", "columns": ["Unit", "Points", "Status"], "rows": rows}]
        },
    )
    monkeypatch.setattr(weasyprint_render, "_cpus", lambda: 2)
    joined = []
    real_join = pdf_parts.join
    monkeypatch.setattr(pdf_parts, "join", lambda *args: joined.append(1) or real_join(*args))
    pages = pdf_pages(job_pdf(request_job(people["alice"], skirmish, "supply")))
    assert joined, "laid out in parts"
    assert len(pages) >= 10
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text
        assert "Unit Points Status" in text and "Supply record" in text
    found = [int(name[4:]) for text in pages for name in text.split() if name.startswith("row-")]
    assert found == list(range(len(rows)))


@pytest.mark.parametrize("paper,size", [("A4", A4), ("Letter", LETTER)])
def test_paper_sizes(skirmish, people, request_job, paper, size):
    job = request_job(people["alice"], skirmish, paper=paper)
    box = pdf_reader(job_pdf(job)).pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == size


def test_rendering_is_deterministic(skirmish, people, request_job):
    job = request_job(people["alice"], skirmish)
    again = services.render_hook(pdf.sheet_html("sheets/summary.html", job.context))
    assert again == job_pdf(job)


def test_fonts_are_the_installed_dejavu_embedded(skirmish, people, request_job):
    reader = pdf_reader(job_pdf(request_job(people["alice"], skirmish)))
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in (f.get_object() for f in page["/Resources"]["/Font"].values())
    }
    assert fonts and all("DejaVu" in name for name in fonts), fonts


# --- the URL fetcher --------------------------------------------------------------------------------


@pytest.fixture
def no_network(monkeypatch):
    """Any real URL opening (http, file, ftp) fails the test."""

    def forbidden(self, *args, **kwargs):
        raise AssertionError(f"a URL was opened: {args[:1]}")

    monkeypatch.setattr(urllib.request.OpenerDirector, "open", forbidden)
    monkeypatch.setattr(urllib.request, "urlopen", forbidden)


def test_user_content_cannot_make_the_render_fetch_anything(
    skirmish, people, request_job, monkeypatch, no_network
):
    from campaigns.services.state import current_state

    state = current_state(skirmish)
    state["name"] = '<img src="http://127.0.0.1:9/track.png"><img src="file:///etc/passwd">'
    fetched = []
    real_fetch = weasyprint_render.StaticOnlyFetcher.fetch

    def spy(self, url, headers=None):
        fetched.append(url)
        return real_fetch(self, url, headers)

    monkeypatch.setattr(weasyprint_render.StaticOnlyFetcher, "fetch", spy)
    monkeypatch.setattr("rosters.services.current_state", lambda campaign: state)
    job = request_job(people["alice"], skirmish)
    assert job.status == "done"
    assert fetched == [
        static_files.BASE_URL + "static/print/sheet.css"
    ]  # only the sheet's own stylesheet
    assert (
        '<img src="http://127.0.0.1:9/track.png">' in pdf_pages(job_pdf(job))[0]
    )  # printed as text


def test_the_fetcher_refuses_everything_but_static_files_and_data(no_network):
    html = """<html><head>
      <link rel="stylesheet" href="http://127.0.0.1:9/evil.css">
      <style>@import url("file:///etc/passwd"); body { background: url(ftp://127.0.0.1/x.png); }</style>
      </head><body>
      <img src="http://127.0.0.1:9/track.png"><img src="file:///etc/passwd">
      <img src="/static/../../../../etc/passwd"><img src="/media/sheets/other.pdf">
      <img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
      <p>Hello</p></body></html>"""
    fetcher = weasyprint_render.StaticOnlyFetcher()
    data = pdf.html_to_pdf(html, fetcher)
    assert "Hello" in pdf_pages(data)[0]
    refused = set(fetcher.refused)
    assert {
        "http://127.0.0.1:9/evil.css",
        "file:///etc/passwd",
        "ftp://127.0.0.1/x.png",
        "http://127.0.0.1:9/track.png",
        static_files.BASE_URL + "media/sheets/other.pdf",
    } <= refused
    assert any("passwd" in url and url.startswith(static_files.BASE_URL) for url in refused)


@pytest.mark.parametrize(
    "url",
    [
        static_files.BASE_URL + "static/print/../../../../../etc/passwd",
        static_files.BASE_URL + "static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        static_files.BASE_URL + "static/print/missing.css",
        "https://example.org/static/print/sheet.css",
        "file:///work/main/static/print/sheet.css",
    ],
)
def test_static_file_refusals(url):
    with pytest.raises(static_files.RefusedURL):
        static_files.static_file(url)


def test_static_files_are_served_to_the_renderer():
    assert (
        static_files.static_file(static_files.BASE_URL + "static/print/sheet.css").name
        == "sheet.css"
    )


def test_a_render_pauses_the_cycle_collector_and_restores_it(monkeypatch):
    """The collector is off while WeasyPrint lays out (it kept scanning millions of short-lived
    objects) and on again afterwards, even when the render fails."""
    import gc

    seen = []

    def fake_one(html, fetcher=None):
        seen.append(gc.isenabled())
        if html == "fail":
            raise ValueError("render failed")
        return b"%PDF"

    monkeypatch.setattr(weasyprint_render, "_one", fake_one)
    assert gc.isenabled()
    assert weasyprint_render.write_pdf("<p>short</p>") == b"%PDF"
    with pytest.raises(ValueError):
        weasyprint_render.write_pdf("fail")
    assert seen == [False, False] and gc.isenabled()
