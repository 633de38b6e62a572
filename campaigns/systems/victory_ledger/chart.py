"""The trend chart: the score (or VP level, or what the victory conditions count) turn by turn,
as the geometry of an SVG.

The numbers come from the ledger; this module only places them. The template
``victory_ledger/_chart.html`` draws the result, in the campaign page and in the
printed sheet alike (WeasyPrint draws inline SVG; no script runs anywhere). Every label is
placed inside the picture: the left margin is as wide as the widest value label, a side's name
on a signed chart is written inside the plot, turn labels are thinned out where they would
touch, and a line's label is set smaller where it would not fit.

A game describes its chart with ``LedgerSystem.chart_spec(state)``:
{"title", "turns": [(label, short)], "series": [(key, label)], "lines": [(value, label)],
 "marks": [(turn label, value, label)], "signed": {"up": side name, "down": side name} | None}
or, for several small charts one above the other, {"title", "panels": [spec, …]}; each ledger
entry carries ``entry["chart"] = {series key: value}``.
"""

from __future__ import annotations

import math
from typing import cast

from campaigns.game_interface import HeldState

from .shapes import LedgerGame

WIDTH, HEIGHT, PANEL_HEIGHT = 340, 200, 150
RIGHT, TOP, BOTTOM = 14, 16, 30  # the least room right of, above and below the plot
FONT = 9  # the SVG's font size (px)
GAP = 4  # between a value label and the axis
# A character's width in em, at or a little above DejaVu Sans's (the sheets' font, and the widest
# of the usual sans-serif fonts a phone falls back to): the widest letters, other capitals,
# digits and small letters, spaces and punctuation, anything else.
_EM = (
    ("MWmw", 1.0),
    ("ABCDEFGHIJKLNOPQRSTUVXYZ", 0.8),
    ("0123456789", 0.64),
    ("abcdefghijklnopqrstuvxyzèé", 0.64),
    (" .,:;'()[]|!/-", 0.4),
)
_WIDTHS = {char: em for chars, em in _EM for char in chars}


def text_width(text: str, size: float = FONT) -> float:
    """How wide `text` may be drawn at `size` px (never less than DejaVu Sans draws it)."""
    return sum(_WIDTHS.get(char, 1.0) for char in text) * size


def build(system, state: HeldState) -> dict | None:
    spec = system.chart_spec(state)
    if not spec:
        return None
    game = cast(LedgerGame, state["game"])  # the ledger's part (ledger.public, which imports this)
    ledger = {e["turn"]: e for e in game["public"]["ledger"]}
    if "panels" in spec:
        panels = [p for p in (_one(s, ledger, PANEL_HEIGHT) for s in spec["panels"]) if p]
        if not panels:
            return None
        return {
            "title": spec["title"],
            "panels": panels,
            "summary": " ".join(f"{p['title']}: {p['summary']}." for p in panels),
        }
    return _one(spec, ledger, HEIGHT)


def _one(spec: dict, ledger: dict, height: int) -> dict | None:
    if not spec["turns"]:
        return None
    signed = spec.get("signed")
    values = [
        e["chart"][key]
        for e in ledger.values()
        for key, _ in spec["series"]
        if (e.get("chart") or {}).get(key) is not None
    ]
    values += [v for v, _ in spec.get("lines", ())] + [v for _, v, _ in spec.get("marks", ())]
    low, high = _range(values, signed=bool(signed))
    ticks = _ticks(low, high)
    turns = spec["turns"]
    # Wide enough for the value labels left of the axis, and for half the first and last turn
    # labels, which are centred on their turn.
    left = max(
        GAP + 2 + max(text_width(_tick_label(v, signed)) for v in ticks),
        text_width(turns[0][1]) / 2 + 2,
    )
    right = max(RIGHT, text_width(turns[-1][1]) / 2 + 2)
    step_x = (WIDTH - left - right) / max(len(turns) - 1, 1)
    x_of = {label: round(left + i * step_x, 1) for i, (label, _) in enumerate(turns)}
    bottom = height - BOTTOM

    def y(value):
        return round(TOP + (high - value) * (bottom - TOP) / (high - low), 1)

    series = _series(spec, ledger, x_of, y, signed)
    plot = WIDTH - right - left
    every = max(1, math.ceil((max(text_width(short) for _, short in turns) + 3) / max(step_x, 1)))
    return {
        "title": spec["title"],
        "width": WIDTH,
        "height": height,
        "left": round(left, 1),
        "right": round(WIDTH - right, 1),
        "top": TOP,
        "bottom": bottom,
        "label_x": round(left - GAP, 1),
        "x_ticks": [
            {"x": x_of[label], "label": short if i % every == 0 else ""}
            for i, (label, short) in enumerate(turns)
        ],
        "y_ticks": [{"y": y(v), "label": _tick_label(v, signed)} for v in ticks],
        "zero": y(0),
        "series": series,
        "lines": [
            {"y": y(v), "label": label, "size": _fitting(label, plot)}
            for v, label in spec.get("lines", ())
        ],
        "marks": [
            {"x": x_of[t], "y": y(v), "label": label}
            for t, v, label in spec.get("marks", ())
            if t in x_of
        ],
        "signed": signed,
        "sides": _sides(signed, left, bottom, plot) if signed else None,
        "summary": _summary(spec, ledger),
    }


def _series(spec: dict, ledger: dict, x_of: dict, y, signed) -> list[dict]:
    """Each series of the chart: its dots (one per recorded turn with a value) and its line."""
    turns = spec["turns"]
    series = []
    for n, (key, label) in enumerate(spec["series"]):
        dots = [
            {
                "x": x_of[t],
                "y": y(e["chart"][key]),
                "text": f"{t}: {label} {_signed_label(e['chart'][key], signed)}",
            }
            for t, _ in turns
            if (e := ledger.get(t)) and (e.get("chart") or {}).get(key) is not None
        ]
        series.append(
            {
                "label": label,
                "n": n,
                "dots": dots,
                "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
            }
        )
    return series


def _sides(signed: dict, left: float, bottom: float, plot: float) -> dict:
    """The words for what up and down mean on a signed chart (which side the score favours)."""
    return {
        "up": f"▲ {signed['up']}",
        "down": f"▼ {signed['down']}",
        "x": round(left + 4, 1),
        "up_y": TOP + FONT,
        "down_y": bottom - 4,
        "up_size": _fitting(f"▲ {signed['up']}", plot),
        "down_size": _fitting(f"▼ {signed['down']}", plot),
    }


def _fitting(text: str, room: float) -> float:
    """The font size at which `text` fits `room` (the chart's own size when it does)."""
    return round(min(FONT, FONT * (room - 4) / max(text_width(text), 1)), 1)


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


def _tick_label(value: int, signed) -> str:
    """A value on the axis: on a signed chart its size only (the sides are named inside the plot)."""
    return str(abs(value)) if signed else str(value)


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
            values = ", ".join(
                f"{name} {_signed_label(entry['chart'][key], spec.get('signed'))}"
                for key, name in spec["series"]
                if entry["chart"].get(key) is not None
            )
            if values:
                parts.append(f"{label}: {values}")
    return "; ".join(parts) if parts else "No turn recorded yet."
