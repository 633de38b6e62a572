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


def _squeezed(text: str) -> str:
    """Text without white space: the engines break lines in other places, and pypdf reads some of
    Typst's kerned pairs as a break ("Poin ts")."""
    return "".join(text.split())


def page_header(html: str) -> str:
    """The page header of a sheet's HTML as it prints (the side's mark in capitals), squeezed."""
    import html as entities
    import re

    found = re.search(r'<header class="sheet-header">(.*?)</header>', html, re.S)
    assert found, "a sheet has a page header"
    header = re.sub(r'<span class="private">(.*?)</span>', lambda m: m[1].upper(), found[1])
    return _squeezed(entities.unescape(re.sub(r"<[^>]+>", "", header)))


def chart_texts(html: str) -> list[str]:
    """The words of each trend chart's SVG (its <text> elements), squeezed."""
    import html as entities
    import re

    return [
        _squeezed(entities.unescape("".join(re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S))))
        for svg in re.findall(r"<svg\b.*?</svg>", html, re.S)
    ]


def printed_text(data: bytes, header: str, charts: list[str]) -> list[tuple[str, list[int]]]:
    """Each page's text, squeezed, with the page header taken out (WeasyPrint writes it after the
    page's body, Typst before), after checking that every page has it; and each chart's words
    taken out (WeasyPrint writes them after the page's body), with the charts found on the page."""
    out = []
    for text in (_squeezed(text) for text in pdf_pages(data)):
        assert header in text, "the page header on every page"
        text = text.replace(header, "", 1)
        found = [i for i, words in enumerate(charts) if words and words in text]
        for i in found:
            text = text.replace(charts[i], "", 1)
        out.append((text, found))
    return out


def same_text_as_weasyprint(html: str) -> bytes:
    """The sheet's PDF as the pipeline prints it, after checking that it holds the same text on the
    same pages as WeasyPrint prints from the same HTML (each chart on the same page). Returns the
    pipeline's PDF."""
    from rosters import pdf, weasyprint_render

    header, charts = page_header(html), chart_texts(html)
    fast = pdf.html_to_pdf(html)
    by_weasyprint = printed_text(weasyprint_render._one(html), header, charts)
    assert printed_text(fast, header, charts) == by_weasyprint
    return fast
