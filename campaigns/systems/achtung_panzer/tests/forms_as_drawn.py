"""What a browser posts for a form left as drawn (tests that send a page's own form back)."""

from __future__ import annotations

import html
import re


def as_drawn(form: str) -> dict[str, list[str]]:
    """Each field of `form` (its HTML) as a browser posts it untouched: text boxes with their
    values, ticked boxes and radios only ("on" for a box with no value), a select's selected
    option (or its first, as a browser sends), a text area's text; disabled fields left out."""
    data: dict[str, list[str]] = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or "disabled" in tag:
            continue
        kind = (re.search(r'type="([^"]+)"', tag) or [None, "text"])[1]
        found = re.search(r'value="([^"]*)"', tag)
        value = html.unescape(found.group(1)) if found else ""
        if kind in ("checkbox", "radio") and " checked" not in tag:
            continue
        data.setdefault(name.group(1), []).append(value if kind != "checkbox" or value else "on")
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]* selected', body) or re.search(
            r'<option value="([^"]*)"', body
        )
        data[name] = [html.unescape(chosen.group(1))] if chosen else [""]
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = [html.unescape(body.strip())]
    return data
