"""A trend chart (campaigns/charts.py) is pygal's SVG made fit for a page and a PDF: its labels
inside the picture, a viewBox no wider than a 390 px phone and a width that follows the page, no
script, no comment, no repeated id, the same bytes for the same numbers; and the same numbers as
a table for screen readers."""

import re
from xml.etree import ElementTree

from django.template import Context, Template

from campaigns import charts

SVG = "{http://www.w3.org/2000/svg}"
HALF_DAYS = [f"{d}{h}" for d in ("5/29", "5/30", "5/31", "6/1", "6/2", "6/3") for h in "AP"]
CHART = {
    "title": "Points by half-day",
    "x": HALF_DAYS,
    "x_name": "Half-day",
    "series": [
        {"name": "German CPP left", "values": [1, 12, 22, 14, 6, 8, 9, 10, 3, 4, 5, 6]},
        {"name": "Allied objective points", "values": [5, 5, 1, 2, 3, None, 5, 6, 2, 3, 4, 1]},
        {"name": "German objective points", "values": [2, 2, 4, 4, 4, 5, 6, 7, 1, 0, 2, 3]},
        {"name": "12: a threshold", "values": [12] * 12, "kind": "level"},
    ],
}


def _tree(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def test_the_svg_fits_a_phone_and_scales_with_the_page():
    root = _tree(charts.svg(CHART))
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width <= 390 - 2 * 15  # a 390 px phone less the page's margins
    assert root.get("width") == "100%" and "height:auto" in root.get("style", "")
    assert f"max-width:{int(width)}px" in root.get("style", "")
    assert root.get("role") == "img" and root.find(f"{SVG}title").text == "Points by half-day"


def test_its_labels_are_drawn_inside_the_picture():
    root = _tree(charts.svg(CHART))
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    for words in ("Points by half-day", "German CPP left", "Allied objective points", "5/29A"):
        assert words in texts, words
    # every text is placed inside the viewBox (pygal translates the plot: add up the offsets)
    for element, (dx, dy) in _placed(root):
        x, y = float(element.get("x", 0)) + dx, float(element.get("y", 0)) + dy
        assert 0 <= x <= width and 0 <= y <= height, ("".join(element.itertext()), x, y)


def _placed(root, dx=0.0, dy=0.0):
    for child in root:
        move = re.match(r"translate\(([-\d.]+),\s*([-\d.]+)\)", child.get("transform", ""))
        x, y = (dx + float(move[1]), dy + float(move[2])) if move else (dx, dy)
        if child.tag == f"{SVG}text":
            yield child, (x, y)
        yield from _placed(child, x, y)


def test_no_script_no_comment_no_repeated_id_and_the_same_bytes_for_the_same_numbers():
    svg = charts.svg(CHART)
    assert "<script" not in svg and "<!--" not in svg and "pygal.org" not in svg
    assert "<desc" not in svg  # the tooltips' texts
    assert re.findall(r'\bid="', svg) == ['id="']  # the chart's own, which scopes its style
    assert svg == charts.svg(CHART)
    other = charts.svg({**CHART, "title": "Another"})
    assert re.search(r'id="([^"]+)"', svg)[1] != re.search(r'id="([^"]+)"', other)[1]
    # the words pass through as they are (coordinates are rounded, never a text)
    assert "1.625" in charts.svg({**CHART, "title": "ELR (as announced, 1.625)"})


def test_the_table_holds_the_charts_numbers():
    table = charts.table(CHART)
    assert table["head"] == [s["name"] for s in CHART["series"]]
    assert [r["label"] for r in table["rows"]] == HALF_DAYS
    assert table["rows"][5]["cells"] == ["8", "–", "5", "12"]
    html = Template("{% load charts %}{% trend_chart chart %}").render(Context({"chart": CHART}))
    assert "<details" in html and "<svg" in html
    assert "<th scope=\"row\">5/31P</th><td>8</td><td>–</td><td>5</td><td>12</td>" in html
    printed = Template("{% load charts %}{% trend_chart chart False %}").render(
        Context({"chart": CHART})
    )
    assert (
        "<details" not in printed and "<caption>Points by half-day in numbers</caption>" in printed
    )


def test_a_chart_with_no_number_yet_is_not_drawn():
    empty = {**CHART, "series": [{"name": "German CPP left", "values": [None] * 12}]}
    assert not charts.has_data(empty) and not charts.has_data(None)
    html = Template("{% load charts %}{% trend_chart chart %}").render(Context({"chart": empty}))
    assert html.strip() == ""
