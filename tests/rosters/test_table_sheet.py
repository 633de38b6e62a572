"""Reading a long table sheet back from its HTML (rosters.table_sheet): exactly what the generic
sheet templates write becomes data; anything else leaves the sheet to WeasyPrint."""

import pytest

from rosters import pdf, services, table_sheet
from tests.testsystem import SYSTEM as SKIRMISH

ROWS = table_sheet.MIN_ROWS + 5


@pytest.fixture
def supply_rows(monkeypatch):
    rows = [[f"row-{i:04d}", i, "ready & <waiting>"] for i in range(ROWS)]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "intro": "Kept by the red side.",
            "tables": [
                {"title": "Supply", "columns": ["Unit", "Points", "Status"], "rows": rows},
                {
                    "title": "Losses",
                    "note": "None so far.",
                    "columns": ["Unit", "Lost"],
                    "rows": [],
                },
            ],
        },
    )
    return rows


def supply_html(people, campaign, paper="A4"):
    template, context = services.print_context(people["alice"], campaign, "supply", paper)
    return pdf.sheet_html(template, context)


def test_a_generic_sheet_reads_as_its_text_header_footer_and_tables(skirmish, people, supply_rows):
    sheet = table_sheet.read(supply_html(people, skirmish))
    assert sheet["title"] == "Supply record · Test war"
    assert (sheet["paper"], sheet["landscape"]) == ("a4", False)
    where, what = sheet["header"]
    assert ["Test war", "bold"] in where and where[0][0].startswith("Tuesday Night ASL")
    assert what[0] == ["Supply record", "bold"] and what[-1][1] == "badge"  # the side-only mark
    assert sheet["footer"][0][0].startswith("As of ") and sheet["footer"][0][0].endswith(" · A4")
    kinds = [(block["kind"], block.get("lead")) for block in sheet["blocks"]]
    assert kinds == [
        ("h1", False),
        ("p", True),
        ("h2", False),
        ("table", None),
        ("h2", False),
        ("p", False),
        ("table", None),
    ]
    supply, losses = (block for block in sheet["blocks"] if block["kind"] == "table")
    assert supply["head"] == ["Unit", "Points", "Status"]
    assert len(supply["widths"]) == 3 and 99 <= sum(supply["widths"]) <= 101
    assert supply["rows"] == [
        [name, str(points), "ready & <waiting>"] for name, points, _ in supply_rows
    ]
    assert losses["rows"] == [[{"text": "Nothing yet.", "num": False, "span": 2}]]


def test_letter_paper_is_read_from_the_page_rule(skirmish, people, supply_rows):
    assert table_sheet.read(supply_html(people, skirmish, "Letter"))["paper"] == "us-letter"


def test_a_short_sheet_stays_with_weasyprint(skirmish, people, monkeypatch):
    rows = [[f"row-{i}", i, "ready"] for i in range(table_sheet.MIN_ROWS - 1)]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [{"title": "Supply", "columns": ["Unit", "Points", "Status"], "rows": rows}]
        },
    )
    html = supply_html(people, skirmish)
    assert table_sheet.read(html) is None
    assert table_sheet.read(html, min_rows=10) is not None


@pytest.mark.parametrize(
    "change",
    [
        ("<td>row-0003</td>", "<td><img src=x>row-0003</td>"),
        ("<td>row-0003</td>", '<td><a href="/">row-0003</a></td>'),
        ("<td>row-0003</td>", '<td style="color: red">row-0003</td>'),
        ("<td>row-0003</td>", '<td class="odd">row-0003</td>'),
        ("<td>row-0003</td>", "<td><table><tbody><tr><td>x</td></tr></tbody></table></td>"),
        ("<td>row-0003</td>", "<td>row-0003</td><td>one cell too many</td>"),
        ('<body class="sheet', '<body class="in-browser sheet'),
        ("<h1>", '<div class="extra">text</div><h1>'),
        ("<h1>", "<script>1</script><h1>"),
        ("</main>", "loose text</main>"),
        ('<table class="fixed">', '<table class="fixed wide">'),
        ("<tr>", "<tr id=x>"),
        (
            '<table class="fixed">',
            "<table>",
        ),  # a table without column widths would be laid out by its content
        ("<colgroup>", "<!-- -->"),
        ('<span class="private">', "<span>"),
        (
            "<td>row-0003</td>",
            "<th>row-0003</th>",
        ),  # head cells only in the head, as sheet.css styles them
        ('<th scope="col">Unit</th>', "<td>Unit</td>"),
        ("<td>row-0003</td>", "<td/>row-0003"),
        ("<td>row-0003</td>", '<td class="num" class="x">row-0003</td>'),
        ("</head>", "<style>td { color: red }</style></head>"),
        ("</head>", '<link rel="stylesheet" href="/static/other.css"></head>'),
        ("</html>", "</html><html><head><style>@page { size: letter; }</style></head></html>"),
        ('<td colspan="2">Nothing yet.</td>', '<td colspan="²">Nothing yet.</td>'),
        ('<th scope="col">Unit</th>', '<th scope="col" rowspan="2">Unit</th>'),  # one head row
        ("<td>row-0003</td>", '<td rowspan="2">row-0003</td>'),  # only a heading spans rows
        ("<tr><td>row-0003</td>", "<tr><th>row-0003</th>"),  # a row heading: a chart's, a foot's
    ],
)
def test_anything_but_the_generic_markup_goes_to_weasyprint(skirmish, people, supply_rows, change):
    html = supply_html(people, skirmish)
    assert table_sheet.read(html) is not None and change[0] in html
    assert table_sheet.read(html.replace(change[0], change[1], 1)) is None


def test_no_break_spaces_stay_and_control_characters_go(skirmish, people, monkeypatch):
    rows = [
        [f"row-{i}", "10\u202f000", "a\xa0\xa0b \x00c\x07d"] for i in range(table_sheet.MIN_ROWS)
    ]
    monkeypatch.setattr(
        SKIRMISH,
        "sheet_context",
        lambda sheet, view: {
            "tables": [
                {"title": "\xa0Supply", "columns": ["Unit", "Points", "Status"], "rows": rows}
            ]
        },
    )
    sheet = table_sheet.read(supply_html(people, skirmish))
    assert sheet["blocks"][1]["runs"] == [["\xa0Supply", ""]]
    assert sheet["blocks"][2]["rows"][0][1:] == ["10\u202f000", "a\xa0\xa0b cd"]


def test_white_space_collapses_as_html_does():
    runs = table_sheet._runs([["  Club \n ", ""], [" Name ", "bold"], ["  · x  ", ""]])
    assert runs == [["Club ", ""], ["Name ", "bold"], ["· x", ""]]


CHART = {
    "title": "Points by turn",
    "x": ["T1", "T2", "T3"],
    "x_name": "Turn",
    "series": [
        {"name": "Red <points>", "values": [1, 3, None]},
        {"name": "Blue", "values": [2, 2, 4]},
    ],
}


def with_chart(html: str, chart=CHART) -> str:
    """The sheet with a trend chart after its title, as a sheet prints one."""
    from django.template import engines

    figure = engines["django"].from_string("{% load charts %}{% trend_chart chart False %}")
    return html.replace("</h1>", "</h1>" + figure.render({"chart": chart}), 1)


def test_a_trend_chart_is_read_as_its_svg_and_its_numbers(skirmish, people, supply_rows):
    sheet = table_sheet.read(with_chart(supply_html(people, skirmish)))
    assert sheet is not None
    chart, numbers = sheet["blocks"][1:3]
    assert chart["kind"] == "chart" and chart["svg"].startswith("<svg")
    assert "Red &lt;points&gt;" in chart["svg"]  # as pygal escaped it
    assert chart["width"] == pytest.approx(360 * 0.75)  # the SVG's own max-width: 360 px
    assert numbers["caption"] == "Points by turn in numbers"
    assert numbers["head"] == ["Turn", "Red <points>", "Blue"] and len(numbers["widths"]) == 3
    assert numbers["rows"][0] == [{"num": False, "span": 1, "th": True, "text": "T1"}, "1", "2"]


@pytest.mark.parametrize(
    "change",
    [
        ("<svg ", '<svg><image href="file:///etc/passwd"/></svg><svg '),
        ("</svg>", '<use href="#x"/></svg>'),
        ("</svg>", "<script>1</script></svg>"),
        ("</svg>", '<rect style="fill: url(http://example.org/)"/></svg>'),
        ("</svg>", "<foreignObject><p>x</p></foreignObject></svg>"),
        ("</svg>", "<svg></svg></svg>"),
        ('<figure class="trend-chart">', "<figure>"),
        ('<table class="trend-numbers small fixed">', '<table class="trend-numbers small">'),
        ("<caption>", '<caption class="x">'),
        ("<h1>", '<h1 data-chart="0">'),
    ],
)
def test_a_chart_of_anything_but_pygals_plain_drawing_goes_to_weasyprint(
    skirmish, people, supply_rows, change
):
    html = with_chart(supply_html(people, skirmish))
    assert change[0] in html
    assert table_sheet.read(html.replace(change[0], change[1], 1)) is None


def test_lines_of_a_cell_and_bold_words_are_read_as_runs(skirmish, people, supply_rows):
    html = supply_html(people, skirmish).replace(
        "<td>row-0003</td>", "<td>Area 9: held <br>\n  602/D: <strong>reduced</strong><br></td>", 1
    )
    html = html.replace("</h1>", '</h1><p class="small">one<br> two</p>', 1)
    sheet = table_sheet.read(html)
    assert sheet is not None
    supply = next(block for block in sheet["blocks"] if block["kind"] == "table")
    cell = supply["rows"][3][0]
    assert cell == {
        "num": False,
        "span": 1,
        "text": "Area 9: held\n602/D: reduced",  # no space around a line, none after the last
        "runs": [["Area 9: held\n602/D: ", ""], ["reduced", "bold"]],
    }
    assert sheet["blocks"][1] == {"kind": "p", "runs": [["one\ntwo", ""]], "lead": False}


def test_a_ledgers_charts_are_read_one_after_the_other(skirmish, people, supply_rows):
    figure = with_chart("<h1></h1>").removeprefix("<h1></h1>")
    charts = f'<div class="vl-charts"><p class="small"><strong>What counts</strong></p>{figure}{figure}</div>'
    sheet = table_sheet.read(supply_html(people, skirmish).replace("</h1>", "</h1>" + charts, 1))
    assert sheet is not None
    kinds = [block["kind"] for block in sheet["blocks"][:6]]
    assert kinds == ["h1", "p", "chart", "table", "chart", "table"]
    for elsewhere in ('<div class="vl-charts"><h2>x</h2></div>', '<div class="where">x</div>'):
        assert (
            table_sheet.read(supply_html(people, skirmish).replace("</h1>", "</h1>" + elsewhere, 1))
            is None
        )
