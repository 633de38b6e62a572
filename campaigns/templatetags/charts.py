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
    """Each column's share: as much as its heading's widest word or its longest cell needs (a label
    on one line), the room left shared in proportion; on a page too narrow for that, as a generic
    table's columns (rosters/word_widths.py)."""
    from rosters import word_widths

    columns = [chart.get("x_name") or "When", *table["head"]]
    rows = [[row["label"], *row["cells"]] for row in table["rows"]]
    measure = word_widths.dejavu()
    need = [
        max([measure.widest_word(name, bold=True)] + [measure.word(str(row[i])) for row in rows])
        + word_widths.CELL_EXTRA_PT
        for i, name in enumerate(columns)
    ]
    if sum(need) > word_widths.content_pt("A4", False):
        shares = word_widths.column_widths(columns, rows)
    else:
        shares = [100 * n / sum(need) for n in need]
    return [f"{share:.1f}%" for share in shares]
