"""What every page must satisfy for people at a table, checked in the browser.

``problems(page)`` lists what is wrong with the page as it is shown now; ``check(page)``
asserts there is nothing. A test calls it on every page it visits:

- nothing scrolls sideways at the phone width (document.documentElement.scrollWidth);
- no box expects JSON (a textarea or text input holding or asking for a JSON list/object);
- element ids are unique (labels point at the right control);
- no raw key in the visible text: dice keys ("5/29A/1.6201/allied/p1"), dotted step ids
  ("1.619.declare"), snake_case option values ("armor_leader");
- touch targets (buttons, inputs, selects, summaries, check-box lines) at least 24×24 px;
- words whole in tables: no word of a visible table cell is split over two lines (a line may
  end after a hyphen), unless it is wider than the cell itself;
- chart labels inside the picture: every text of an SVG chart lies within its viewBox.
"""

from __future__ import annotations

import re

_SCRIPT = r"""
() => {
  const visible = el => {
    const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const ids = {};
  for (const el of document.querySelectorAll('[id]')) ids[el.id] = (ids[el.id] || 0) + 1;
  const json = [];
  for (const el of document.querySelectorAll('textarea, input[type=text], input:not([type])')) {
    const v = (el.value || '').trim();
    const label = el.labels && el.labels[0] ? el.labels[0].innerText : '';
    const help = el.closest('.field') ? el.closest('.field').innerText : '';
    if (/^[\[{]/.test(v) || /JSON/.test(label) || /JSON/.test(help) || el.classList.contains('mono'))
      json.push(el.name || el.id);
  }
  const small = [];
  const targets = document.querySelectorAll(
    'button, select, input:not([type=hidden]), summary, label.check-line, .button');
  for (const el of targets) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 24 || r.height < 24) small.push(`${el.tagName.toLowerCase()} ${el.name || el.innerText.slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  // A word of a table cell drawn on two lines: its range has rects on two heights.
  const broken = [];
  for (const cell of document.querySelectorAll('td, th')) {
    if (!visible(cell)) continue;
    const room = cell.getBoundingClientRect().width;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\s\-\u2010\u2013\u2014]+/g; let m;  // a line may end after a hyphen
      while ((m = re.exec(node.data)) && broken.length < 20) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1 && range.getBoundingClientRect().width < room) broken.push(m[0]);
      }
    }
  }
  const outside = [];
  for (const svg of document.querySelectorAll('svg[viewBox]')) {
    if (!visible(svg)) continue;
    const [x0, y0, w, h] = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
    for (const t of svg.querySelectorAll('text')) {
      // the text's box in the picture's own units, through the groups that move it (pygal
      // translates its plot)
      const local = t.getBBox();
      const m = svg.getScreenCTM().inverse().multiply(t.getScreenCTM());
      const p = new DOMPoint(local.x, local.y).matrixTransform(m);
      const q = new DOMPoint(local.x + local.width, local.y + local.height).matrixTransform(m);
      const b = {x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), width: Math.abs(q.x - p.x), height: Math.abs(q.y - p.y)};
      if (b.width && (b.x < x0 - 0.5 || b.y < y0 - 0.5 || b.x + b.width > x0 + w + 0.5 || b.y + b.height > y0 + h + 0.5))
        outside.push(t.textContent.trim().slice(0, 30));
    }
  }
  return {
    broken, outside,
    width: document.documentElement.scrollWidth,
    duplicates: Object.entries(ids).filter(([, n]) => n > 1).map(([id]) => id),
    json, small, text: document.body.innerText,
  };
}
"""

DICE_KEY = re.compile(r"\b\d{1,2}/\d{1,2}[AP]/1\.\d+/|\b\w+/1\.\d+/\w+")
STEP_ID = re.compile(r"\b1\.\d{2,5}\.[a-z]\w*")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def problems(page, width: int = 390, allow_snake: tuple[str, ...] = ()) -> list[str]:
    found = page.evaluate(_SCRIPT)
    out = []
    if found["width"] > width:
        out.append(f"scrolls sideways: {found['width']} px wide at {width} px")
    out += [f"duplicate id {i}" for i in found["duplicates"]]
    out += [f"a box expects JSON: {name}" for name in found["json"]]
    out += [f"touch target under 24 px: {what}" for what in found["small"]]
    out += [f"a word broken in a table: {word}" for word in found["broken"]]
    out += [f"a chart label outside its picture: {text}" for text in found["outside"]]
    text = found["text"]
    out += [f"raw dice key in the text: {m.group(0)}" for m in DICE_KEY.finditer(text)]
    out += [f"raw step id in the text: {m.group(0)}" for m in STEP_ID.finditer(text)]
    out += [
        f"snake_case in the text: {m.group(0)}"
        for m in SNAKE.finditer(text)
        if m.group(0) not in allow_snake
    ]
    return out


def check(page, width: int = 390, allow_snake: tuple[str, ...] = ()) -> None:
    found = problems(page, width, allow_snake)
    assert not found, f"{page.url}: " + "; ".join(found[:12])
