"""The forms of a page as a browser without JavaScript sends them: what a test posts is what
the page drew (hidden inputs, the values shown pre-filled, ticked boxes, chosen options), never
a body written by hand. Parsed with the standard library's HTMLParser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class PageForm:
    action: str
    method: str = "post"
    inputs: list[dict] = field(default_factory=list)  # {"name", "type", "value", "checked"}
    selects: dict = field(
        default_factory=dict
    )  # name -> {"options": [(value, text, selected)], "multiple"}
    text: str = ""  # the words inside the form

    def value(self, name: str):
        return self.body().get(name)

    def names(self) -> set[str]:
        return {i["name"] for i in self.inputs} | set(self.selects)

    def choices(self, name: str) -> list[str]:
        if name in self.selects:
            return [value for value, _, _ in self.selects[name]["options"]]
        return [
            i["value"]
            for i in self.inputs
            if i["name"] == name and i["type"] in ("radio", "checkbox")
        ]

    def option_text(self, name: str, value: str) -> str:
        for option, text, _ in self.selects.get(name, {}).get("options", []):
            if option == value:
                return text
        return ""

    def body(self, **changes) -> dict:
        """What the browser posts, with `changes` applied as a person would (a select's option
        chosen, a box ticked with True or untucked with False, a text typed)."""
        out: dict = {}
        for item in self.inputs:
            name, kind = item["name"], item["type"]
            if kind in ("radio", "checkbox"):
                if item["checked"]:
                    out.setdefault(name, []).append(item["value"])
            elif kind not in ("submit", "button"):
                out.setdefault(name, []).append(item["value"])
        for name, select in self.selects.items():
            chosen = [v for v, _, selected in select["options"] if selected]
            if not chosen and select["options"] and not select["multiple"]:
                chosen = [select["options"][0][0]]
            out[name] = chosen
        for name, value in changes.items():
            boxes = [i for i in self.inputs if i["name"] == name and i["type"] == "checkbox"]
            if value is True and boxes:
                out[name] = [boxes[0]["value"]]
            elif value is False:
                out.pop(name, None)
            else:
                out[name] = value if isinstance(value, list) else [str(value)]
        return {k: (v[0] if len(v) == 1 else v) for k, v in out.items() if v}


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self._form: PageForm | None = None
        self._select: str | None = None
        self._option: list | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = PageForm(
                action=a.get("action") or "", method=(a.get("method") or "get").lower()
            )
            self.forms.append(self._form)
        if self._form is None:
            return
        if tag == "input" and a.get("name"):
            self._form.inputs.append(
                {
                    "name": a["name"],
                    "type": (a.get("type") or "text").lower(),
                    "value": a.get("value", "on" if a.get("type") in ("checkbox", "radio") else ""),
                    "checked": "checked" in a,
                }
            )
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
            self._form.selects[self._select] = {"options": [], "multiple": "multiple" in a}
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "", "selected" in a]
        elif tag == "textarea" and a.get("name"):
            self._textarea = {"name": a["name"], "type": "textarea", "value": "", "checked": False}
            self._form.inputs.append(self._textarea)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "option" and self._option is not None and self._select is not None:
            value, text, selected = self._option
            text = " ".join(text.split())
            self._form.selects[self._select]["options"].append(
                (text if value is None else value, text, selected)
            )
            self._option = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._form is not None:
            self._form.text += data
        if self._option is not None:
            self._option[1] += data
        if self._textarea is not None:
            self._textarea["value"] += data


def page_forms(html: str) -> list[PageForm]:
    reader = _Reader()
    reader.feed(html)
    for form in reader.forms:
        form.text = " ".join(form.text.split())
    return reader.forms


def find_form(html: str, kind: str, **fixed) -> PageForm:
    """The form that sends event `kind` (and whose inputs hold `fixed`), as drawn on the page."""
    for form in page_forms(html):
        body = form.body()
        if body.get("_kind") == kind and all(body.get(k) == v for k, v in fixed.items()):
            return form
    raise AssertionError(f"no form for {kind} {fixed} on the page")


def find_pick(html: str, words: str) -> PageForm:
    """A GET form that picks something first (the unit to change), by the words it shows."""
    for form in page_forms(html):
        if form.method == "get" and words in form.text:
            return form
    raise AssertionError(f"no form picking {words!r} on the page")


def long_form_page(client, html: str, kind: str) -> str:
    """The page of its own a long form (`Action.own_page`) is drawn on, followed from its link on the
    campaign page `html` as a person taps it."""
    import html as entities

    link = rf'<div class="action elsewhere" data-kind="{re.escape(kind)}">.*?href="([^"]+)"'
    found = re.search(link, html, re.DOTALL)
    assert found, f"no link to the form of {kind} on the page"
    answer = client.get(entities.unescape(found.group(1)))
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()
