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
    table = charts.table(chart)
    return {
        "chart": chart,
        "svg": mark_safe(charts.svg(chart)),
        "table": table,
        "folded": folded,
        # printed: fixed column widths, as a generic sheet table has (rosters/word_widths.py)
        "widths": [] if folded else _widths(chart, table),
    }


def _widths(chart: charts.Chart, table: dict[str, Any]) -> list[str]:
    from rosters import word_widths

    columns = [chart.get("x_name") or "When", *table["head"]]
    rows = [[row["label"], *row["cells"]] for row in table["rows"]]
    return [f"{share:.1f}%" for share in word_widths.column_widths(columns, rows)]
