"""The trend chart: the score (or VP level) turn by turn, as the geometry of an SVG.

The numbers come from the ledger; this module only places them. The template
``systems/victory_ledger/_chart.html`` draws the result, in the campaign page and in the
printed sheet alike (WeasyPrint draws inline SVG; no script runs anywhere).

A game describes its chart with ``LedgerSystem.chart_spec(state)``:
{"title", "turns": [(label, short)], "series": [(key, label)], "lines": [(value, label)],
 "marks": [(turn label, value, label)], "signed": {"up": side name, "down": side name} | None}
and each ledger entry carries ``entry["chart"] = {series key: value}``.
"""

from __future__ import annotations

import math

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 14, 16, 30


def build(system, state: dict) -> dict | None:
    spec = system.chart_spec(state)
    if not spec or not spec["turns"]:
        return None
    ledger = {e["turn"]: e for e in state["game"]["public"]["ledger"]}
    values = [v for e in ledger.values() for v in (e.get("chart") or {}).values() if v is not None]
    values += [v for v, _ in spec.get("lines", ())] + [v for _, v, _ in spec.get("marks", ())]
    low, high = _range(values, signed=bool(spec.get("signed")))
    turns = spec["turns"]
    step_x = (WIDTH - LEFT - RIGHT) / max(len(turns) - 1, 1)
    x_of = {label: round(LEFT + i * step_x, 1) for i, (label, _) in enumerate(turns)}

    def y(value):
        return round(TOP + (high - value) * (HEIGHT - TOP - BOTTOM) / (high - low), 1)

    series = []
    for n, (key, label) in enumerate(spec["series"]):
        dots = [{"x": x_of[t], "y": y(e["chart"][key]),
                 "text": f"{t}: {label} {_signed_label(e['chart'][key], spec.get('signed'))}"}
                for t, _ in turns if (e := ledger.get(t)) and (e.get("chart") or {}).get(key) is not None]
        series.append({"label": label, "n": n, "dots": dots, "points": " ".join(f"{d['x']},{d['y']}" for d in dots)})
    return {
        "title": spec["title"], "width": WIDTH, "height": HEIGHT,
        "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
        "x_ticks": [{"x": x_of[label], "label": short} for label, short in turns],
        "y_ticks": [{"y": y(v), "label": _signed_label(v, spec.get("signed"))} for v in _ticks(low, high)],
        "zero": y(0),
        "series": series,
        "lines": [{"y": y(v), "label": label} for v, label in spec.get("lines", ())],
        "marks": [{"x": x_of[t], "y": y(v), "label": label} for t, v, label in spec.get("marks", ()) if t in x_of],
        "signed": spec.get("signed"),
        "summary": _summary(spec, ledger),
    }


def _range(values: list, signed: bool) -> tuple[int, int]:
    top = max([1, *(abs(v) if signed else v for v in values)])
    top = int(math.ceil(top / _step(top)) * _step(top))
    bottom = -top if signed else min(0, *values) if values else 0
    return bottom, top


def _step(span: float) -> int:
    for step in (1, 2, 5, 10, 20, 50):
        if span / step <= 6:
            return step
    return 100


def _ticks(low: int, high: int) -> list[int]:
    step = _step(high - low)
    first = int(math.ceil(low / step) * step)
    return list(range(first, high + 1, step))


def _signed_label(value: int, signed) -> str:
    if not signed or value == 0:
        return str(value)
    return f"{abs(value)} {signed['up'] if value > 0 else signed['down']}"


def _summary(spec: dict, ledger: dict) -> str:
    """The chart in words, for screen readers and for anyone who prefers numbers."""
    parts = []
    for label, _ in spec["turns"]:
        entry = ledger.get(label)
        if entry and entry.get("chart"):
            values = ", ".join(f"{name} {_signed_label(entry['chart'][key], spec.get('signed'))}"
                               for key, name in spec["series"] if entry["chart"].get(key) is not None)
            parts.append(f"{label}: {values}")
    return "; ".join(parts) if parts else "No turn recorded yet."
