"""The trend chart: the score (or VP level, or what the victory conditions count) turn by turn,
as the numbers of a chart.

The numbers come from the ledger (each entry's ``entry["chart"] = {series key: value}``, kept turn
by turn by the fold); this module only lines them up as the core's chart data
(``campaigns.charts.Chart``: a title, the turns along the bottom, a series per thing counted), which
the page and the printed sheet draw with pygal (the ``trend_chart`` template tag: an SVG with its
labels inside, and the same numbers as a table). A threshold is drawn as a dashed level across the
chart, a value needed in one turn only (sudden death) as a dot at that turn.

A game describes its chart with ``LedgerSystem.chart_spec(state)``:
{"title", "turns": [(label, short)], "series": [(key, label)], "lines": [(value, label)],
 "marks": [(turn label, value, label)], "signed": {"up": side name, "down": side name} | None}
or, for several small charts one above the other, {"title", "panels": [spec, …]}.
``build`` answers {"title", "charts": [chart, …]} or None.
"""

from __future__ import annotations

from typing import Any, cast

from campaigns.game_interface import HeldState

from .shapes import LedgerGame


def build(system, state: HeldState) -> dict | None:
    spec = system.chart_spec(state)
    if not spec:
        return None
    game = cast(LedgerGame, state["game"])  # the ledger's part (ledger.public, which imports this)
    ledger = {e["turn"]: e for e in game["public"]["ledger"]}
    specs = spec["panels"] if "panels" in spec else [spec]
    charts = [one(s, ledger) for s in specs if s["turns"]]
    if not charts:
        return None
    return {"title": spec["title"], "charts": charts}


def one(spec: dict, ledger: dict) -> dict[str, Any]:
    """One chart: a series per thing counted, a level per threshold, dots for a turn's need."""
    turns = [label for label, _ in spec["turns"]]
    series: list[dict[str, Any]] = [
        {
            "name": label,
            "values": [((ledger.get(t) or {}).get("chart") or {}).get(key) for t in turns],
        }
        for key, label in spec["series"]
    ]
    series += [
        {"name": label, "values": [value] * len(turns), "kind": "level"}
        for value, label in spec.get("lines", ())
    ]
    marks: dict[str, dict[str, int]] = {}
    for turn, value, label in spec.get("marks", ()):
        marks.setdefault(label, {})[turn] = value
    series += [
        {
            "name": f"{label} (needed that turn)",
            "values": [at.get(t) for t in turns],
            "kind": "marks",
        }
        for label, at in marks.items()
    ]
    chart: dict[str, Any] = {
        "title": spec["title"],
        "x": [short for _, short in spec["turns"]],
        "x_name": "Turn",
        "x_words": turns,
        "series": series,
    }
    if spec.get("signed"):
        signed = spec["signed"]
        chart["note"] = f"Above 0: {signed['up']} ahead; below 0: {signed['down']} ahead"
    return chart
