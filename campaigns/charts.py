"""Trend charts drawn by pygal: a chart's numbers in, an SVG and a table of the same numbers out.

A chart is plain JSON (``Chart``), made by a game from the audience's cut of the state (a
ledger's turns, an A!P! campaign's half-days) or by a selector (a club's standings), so it can be
kept in a state, a kept answer or a print job's context. Drawing it is the pages' and the sheets'
business (the ``trend_chart`` template tag): the same SVG inline in the page and in the WeasyPrint
PDF, with no script (pygal's tooltips are JavaScript: left out, as are its comments, which carry
the day's date) and an id drawn from the chart itself, so the same numbers always give the same
bytes. Every label is inside the picture (legend under the plot, long titles wrapped, turn labels
thinned out), and the picture is drawn for a phone's width (``WIDTH``: a 390 px screen less the
page's margins) and scales down, never sideways. The numbers are also a table (``table``) for
screen readers and for anyone who prefers them.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, NotRequired, TypedDict

WIDTH, HEIGHT = 360, 270  # the viewBox: a phone's width less the page's margins, in CSS px
FONT = 13  # the title, at 1:1 on a 390 px phone (a little smaller in a card)
SMALL = 12  # every other label
FAMILY = "DejaVu Sans, Verdana, sans-serif"  # the sheets' font, and a wide one on phones
COLOURS = ("#2f5d3a", "#a12a2a", "#1f4e8a", "#8a6d1f", "#6b3f8a", "#3f7f7f", "#5b6670", "#b05a12")
LEGEND_HALF = 23  # the longest series name that fits half the width at SMALL
MOST_X_LABELS = 7  # labels along the bottom before they are thinned out
MOST_DOTS = 12  # a dot on each value up to so many along the bottom; beyond, the lines alone
_UNUSED = re.compile(
    r"tooltip|:hover|\.active|no_data|text-overlay|map-element|gauge|\.bound|max-value|\.y2|"
    r"\.web|\.ci\b|showable|bg-lines|subtle-fill|negative|\[transform\]|\.stacked|\.horizontal"
)
_TAG = re.compile(r"<[^<>]+>")
_FRACTION = re.compile(r"(\d\.\d)\d+")  # coordinates to a tenth of a pixel: lighter pages


class Series(TypedDict):
    name: str
    values: list[int | float | None]  # one per x label; None where nothing was recorded
    # "line" (default), "level" (a dashed line with no dots: a threshold), "marks" (dots only)
    kind: NotRequired[str]


class Chart(TypedDict):
    title: str
    x: list[str]  # the labels along the bottom: turns, half-days, dates
    x_name: NotRequired[str]  # what the labels along the bottom are ("Turn", "Half-day")
    x_words: NotRequired[list[str]]  # the same in full, for the table ("Turn 1" for "T1")
    series: list[Series]
    note: NotRequired[str]  # what up and down mean, written under the title


def has_data(chart: Chart | None) -> bool:
    return bool(
        chart and chart["x"] and any(v is not None for s in chart["series"] for v in s["values"])
    )


def table(chart: Chart) -> dict[str, Any]:
    """The chart's numbers as a table: a row per x label, a column per series (its words)."""
    return {
        "head": [s["name"] for s in chart["series"]],
        "rows": [
            {"label": label, "cells": [_number(s["values"], i) for s in chart["series"]]}
            for i, label in enumerate(chart.get("x_words") or chart["x"])
        ],
    }


def _number(values: list[int | float | None], i: int) -> str:
    value = values[i] if i < len(values) else None
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def svg(chart: Chart) -> str:
    """The chart as an inline <svg> element (no XML declaration, no script, no comment)."""
    import pygal
    from pygal.style import Style

    columns = _legend_columns(chart)
    rows = math.ceil(len(chart["series"]) / columns)
    low, high, ticks = _scale(chart)
    line = pygal.Line(
        width=WIDTH,
        height=HEIGHT + 18 * rows,
        range=(low, high),
        y_labels=ticks,
        # pygal leaves room for len // columns rows of legend: one short when the last row is not full
        margin_bottom=6 + (1.5 * SMALL if len(chart["series"]) % columns else 0),
        explicit_size=False,
        disable_xml_declaration=True,
        js=[],
        title=chart["title"] + (f"\n{chart['note']}" if chart.get("note") else ""),
        legend_at_bottom=True,
        legend_at_bottom_columns=columns,
        legend_box_size=10,
        truncate_legend=-1,
        truncate_label=-1,
        show_minor_x_labels=False,
        x_labels_major_every=max(1, math.ceil(len(chart["x"]) / MOST_X_LABELS)),
        x_label_rotation=0,
        dots_size=3,
        show_dots=len(chart["x"]) <= MOST_DOTS,
        margin=6,
        # the last label along the bottom is centred on the plot's edge: room for its half
        margin_right=max(6, round(len(chart["x"][-1]) * SMALL * 0.36)) if chart["x"] else 6,
        spacing=8,
        allow_interruptions=True,
        tooltip_fancy_mode=False,
        style=Style(
            font_family=FAMILY,
            background="white",
            plot_background="white",
            foreground="#1d232a",
            foreground_strong="#1d232a",
            foreground_subtle="#d5dbe0",
            colors=COLOURS,
            title_font_size=FONT + 1,
            label_font_size=SMALL,
            major_label_font_size=SMALL,
            legend_font_size=SMALL,
            value_font_size=SMALL,
            guide_stroke_color="#c9d0d6",
            major_guide_stroke_color="#c9d0d6",
            guide_stroke_dasharray="2,3",
            major_guide_stroke_dasharray="2,3",
            stroke_width=2,
            opacity="1",
            opacity_hover="1",
            transition="0s",
        ),
    )
    line.uuid = hashlib.sha256(json.dumps(chart, sort_keys=True).encode()).hexdigest()[:8]
    line.x_labels = chart["x"]
    for n, series in enumerate(chart["series"]):
        line.add(series["name"], list(series["values"]), **_look(series.get("kind", "line"), n))
    line.add_xml_filter(_clean)
    drawn = str(line.render(is_unicode=True))
    return _TAG.sub(lambda tag: _FRACTION.sub(r"\1", tag.group(0)), drawn)  # never in a text


def _look(kind: str, n: int) -> dict[str, Any]:
    dash = {"dasharray": "6, 3"} if n % 2 else {}
    if kind == "level":
        return {"show_dots": False, "stroke_style": {"width": 1.5, "dasharray": "8, 4"}}
    if kind == "marks":
        return {"stroke": False, "dots_size": 4, "show_dots": True}
    return {"stroke_style": {"width": 2, **dash}}


def _legend_columns(chart: Chart) -> int:
    """Two columns of legend where every name fits half the width, else one."""
    names = [s["name"] for s in chart["series"]]
    return 2 if len(names) > 1 and max(len(n) for n in names) <= LEGEND_HALF else 1


def _scale(chart: Chart) -> tuple[int, int, list[int]]:
    """The value axis: from 0 (or the lowest value) to the highest, in whole steps of 1, 2, 5, 10 …
    with at most 6 of them, so every label is a whole number and none crowds the next."""
    values = [v for s in chart["series"] for v in s["values"] if v is not None]
    low = math.floor(min([0, *values]))
    high = math.ceil(max([1, *values]))
    step = next(n * 10**e for e in range(7) for n in (1, 2, 5) if (high - low) / (n * 10**e) <= 6)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    return low, high, list(range(low, high + 1, step))


def _slim_css(css: str) -> str:
    """pygal's stylesheet less what a still picture never uses (tooltips, hover, other kinds of
    chart): a page holds several charts, each with its own."""
    rules = []
    for rule in css.split("}"):
        selectors, _, body = rule.partition("{")
        kept = [s for s in selectors.split(",") if s.strip() and not _UNUSED.search(s)]
        if kept and body:
            rules.append(",".join(kept).strip() + "{" + body + "}")
    return "".join(rules)


def _clean(root: Any) -> Any:
    """No script, no comment (pygal's carries the date), no tooltip text (a title but the
    chart's own, a desc); sized by the page."""
    for parent in list(root.iter()):
        for child in list(parent):
            tag = child.tag if isinstance(child.tag, str) else ""
            if not tag or tag.endswith(("script", "desc")):
                parent.remove(child)
            elif tag.endswith("title") and parent is not root:
                parent.remove(child)
            elif tag.endswith("style"):
                child.text = _slim_css(child.text or "")
            else:
                child.attrib.pop("id", None)  # pygal's ids repeat from chart to chart
                if tag.endswith("}text") or tag == "text":
                    child.tail = "\n"  # words of two labels never run together when read
    root.set("width", "100%")
    root.set("role", "img")
    root.set("style", f"max-width:{WIDTH}px;height:auto;display:block")
    return root
