"""Sheet columns are sized so that headings, ids and ordinary words fit whole; only a word wider
than its column breaks (rosters/word_widths.py for fixed tables, rosters/long_words.py for the
tables the engine lays out), in both engines; and the stylesheet gives WeasyPrint no warning."""

import logging
import re

import pytest

from rosters import long_words, pdf, services, static_files, weasyprint_render, word_widths
from rosters.templatetags.rosters_sheets import column_widths
from tests.testsystem import SYSTEM as SKIRMISH

from .helpers import job_pdf, pdf_pages

WIDTHS = word_widths.dejavu()


def _shares(widths):
    return [float(w.rstrip("%")) for w in widths]


def _room(share: float, paper="A4", landscape=False) -> float:
    """The room a column's text has, in points."""
    return word_widths.content_pt(paper, landscape) * share / 100 - word_widths.CELL_PADDING_PT


def test_every_heading_id_and_word_fits_its_column_and_the_shares_make_the_table():
    table = {
        "columns": ["Id", "Nationality", "Scenario", "Turn", "Note"],
        "rows": [
            ["u5/8", "American", "5/29A", "Turn 12", "A long note about the squad " * 6],
            ["u112/14", "German", "5/30P", "Turn 1", "short"],
        ],
    }
    shares = _shares(column_widths(table))
    assert abs(sum(shares) - 100) < 0.5
    for index, heading in enumerate(table["columns"]):
        words = [heading, *(w for row in table["rows"] for w in str(row[index]).split())]
        for word in words:
            assert WIDTHS.word(word, bold=word == heading) <= _room(shares[index]), (word, shares)
    # The room left goes by how much text a column holds: the note gets the most.
    assert shares[4] == max(shares)


def test_a_word_wider_than_the_page_is_the_only_one_that_gets_less_than_it_needs():
    giant = "Oberkommandoderwehrmachtsnachrichtenverbindungsabteilung" * 3
    table = {
        "columns": ["Unit", "Points", "Status"],
        "rows": [[giant, 3, "ready"], ["row-0001", 12, "lost"]],
    }
    shares = _shares(column_widths(table))
    assert abs(sum(shares) - 100) < 0.5
    assert WIDTHS.word(giant) > _room(shares[0])  # it must break: nothing could hold it
    assert WIDTHS.word("Points", bold=True) <= _room(shares[1])
    assert WIDTHS.word("Status", bold=True) <= _room(shares[2])


def test_the_paper_and_its_orientation_give_the_room():
    table = {"columns": ["Unit", "Status"], "rows": [["A name of some length " * 5, "ready"]]}
    portrait = _shares(column_widths(table, "A4", False))
    landscape = _shares(column_widths(table, "A4", True))
    # The status column needs the same points on both: a smaller share of the wider page.
    assert landscape[1] < portrait[1]
    assert _room(landscape[1], landscape=True) == pytest.approx(_room(portrait[1]), abs=0.2)


def test_a_table_without_rows_or_columns_gives_what_it_has():
    assert _shares(column_widths({"columns": ["A", "B"], "rows": []})) == pytest.approx(
        [50, 50], abs=0.5
    )
    assert column_widths({"columns": [], "rows": []}) == []
    assert (
        len(column_widths({"columns": ["A"], "rows": [["x", "extra cell beyond the columns"]]}))
        == 1
    )


# --- tables the engine lays out -----------------------------------------------------------------

GIANT = "X" * 90


def _page(body: str, size: str = "A4") -> str:
    return (
        f"<html><head><style>@page {{ size: {size}; }}</style><style>td {{ color: red }}</style></head>"
        f"<body><table>{body}</table></body></html>"
    )


def test_only_words_too_wide_for_the_page_are_marked_and_the_text_stays_as_it_is():
    html = _page(
        f"<tr><th>Nationality</th><th>Note</th></tr><tr><td>{GIANT}</td><td>ordinary words &amp; "
        f"{GIANT}</td></tr><tr><td colspan=2>u5/8</td></tr>"
    )
    marked = long_words.mark(html)
    assert marked.count('<span class="long-word">') == 2
    assert re.sub(r'</?span[^>]*>', "", marked) == html  # only the spans were added
    assert "<th>Nationality</th>" in marked and "ordinary words &amp; " in marked


def test_a_table_that_fits_a_fixed_table_and_the_style_sheet_are_left_alone():
    fits = _page("<tr><td>Kampfgruppe Peiper</td><td>u5/8</td></tr>")
    assert long_words.mark(fits) == fits
    fixed = _page(f"<tr><td>{GIANT}</td></tr>").replace("<table>", '<table class="fixed">')
    assert long_words.mark(fixed) == fixed
    styled = _page(f"<tr><td>{GIANT}</td></tr>").replace(
        "td { color: red }", f"td {{ x: {GIANT} }}"
    )
    assert long_words.mark(styled).count("long-word") == 1  # in the cell, never in the <style>


def _table_width_pt(html: str) -> float:
    """The widest table of the first page WeasyPrint lays out, in points."""
    import weasyprint

    document = weasyprint.HTML(
        string=html,
        base_url=static_files.BASE_URL,
        url_fetcher=weasyprint_render.StaticOnlyFetcher(),
    ).render()
    found = []

    def walk(box):
        if type(box).__name__ == "TableBox":
            found.append(box.width * 0.75)  # CSS px to pt
        for child in getattr(box, "children", None) or []:
            walk(child)

    walk(document.pages[0]._page_box)
    return max(found)


def _sheet_page(body: str) -> str:
    return (
        f'<html><head><link rel="stylesheet" href="/static/print/sheet.css"><style>@page {{ size: A4; }}'
        f'</style></head><body><table>{body}</table></body></html>'
    )


def test_weasyprint_keeps_words_whole_and_the_table_on_the_page():
    head = (
        "<tr>"
        + "".join(
            f"<th>{h}</th>"
            for h in ("Id", "Kind", "Type", "Nationality", "RG", "Status", "Isolated", "Note")
        )
        + "</tr>"
    )
    row = (
        "<tr><td>u5/8</td><td>squad</td><td>4-6-7</td><td>American</td><td>RG I2</td><td>full strength</td>"
        "<td>no</td><td>" + "a long note about the squad and what it did " * 4 + "</td></tr>"
    )
    html = _sheet_page(head + row * 3)
    assert long_words.mark(html) == html
    text = "".join(pdf_pages(pdf.renderer().write_pdf(html)))
    for word in ("Nationality", "Isolated", "u5/8", "strength", "American"):
        assert word in text.split(), word
    assert _table_width_pt(html) <= word_widths.content_pt("A4", False) + 1
    # Two words no column could hold: marked, they break and the table stays on the page.
    wide = _sheet_page(
        head + f"<tr><td>{GIANT}</td><td>{GIANT}</td><td colspan=6>x</td></tr>" + row
    )
    assert (
        _table_width_pt(wide) > word_widths.content_pt("A4", False) + 1
    )  # as it would be unmarked
    assert _table_width_pt(long_words.mark(wide)) <= word_widths.content_pt("A4", False) + 1


def test_the_style_sheet_gives_weasyprint_no_warning(caplog):
    html = _sheet_page("<tr><td>a</td></tr>")
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        pdf.renderer().write_pdf(html)
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []


@pytest.mark.django_db
@pytest.mark.parametrize("rows", [5, 80], ids=["weasyprint", "typst"])
def test_both_engines_print_a_generic_table_with_its_words_whole(
    skirmish, people, request_job, monkeypatch, rows
):
    table = [
        [f"u{i}/8", "Nationality", "Scenario 5/29A", "A note of some length " * 3]
        for i in range(rows)
    ]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [
                {
                    "title": "Units",
                    "columns": ["Id", "Nationality", "Scenario", "Note"],
                    "rows": table,
                }
            ]
        },
    )
    data = job_pdf(request_job(people["alice"], skirmish, "supply"))
    words = "".join(pdf_pages(data)).split()
    for word in ("Id", "Nationality", "Scenario", "u3/8", "5/29A"):
        assert word in words, word
    template, context = services.print_context(people["alice"], skirmish, "supply", "A4")
    assert "long-word" not in long_words.mark(pdf.sheet_html(template, context))
