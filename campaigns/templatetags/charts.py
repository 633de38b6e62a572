"""{% trend_chart chart %}: a trend chart (campaigns/charts.py) as inline SVG, with its numbers as a
table: one tap away on a page (`folded`), printed under the chart on a sheet."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

from campaigns import charts

register = template.Library()


@register.inclusion_tag("_trend_chart.html")
def trend_chart(chart: charts.Chart | None, folded: bool = True) -> dict[str, Any]:
    if not charts.has_data(chart):
        return {"chart": None}
    assert chart is not None  # has_data says so
    # pygal escapes every text it is given: the SVG holds no markup of ours or of a player's
    return {
        "chart": chart,
        "svg": mark_safe(charts.svg(chart)),
        "table": charts.table(chart),
        "folded": folded,
    }
