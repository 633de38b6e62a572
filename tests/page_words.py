"""What a person reads on a page, and the raw keys that must never be in it (the brief: "words,
not keys"): bare internal ids (u12, p89, f108), snake_case option values, side slugs or dice
modes as the option value ("allied", "server"), the same word twice ("Gun Gun"), "Done: Done".

``visible_text(html)`` is the page's text as drawn: no script, style or attribute values, the
words of options included (a person reads them in the list). ``raw_words(text)`` lists what is
wrong in it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIP = {"script", "style", "template"}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP:
            self._skip += 1
        elif tag in (
            "br",
            "p",
            "li",
            "tr",
            "td",
            "th",
            "option",
            "label",
            "h1",
            "h2",
            "h3",
            "dt",
            "dd",
            "div",
            "summary",
            "legend",
            "button",
            "a",
        ):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in _SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    reader = _Text()
    reader.feed(html)
    return "\n".join(
        " ".join(line.split()) for line in "".join(reader.parts).splitlines() if line.strip()
    )


_ID = re.compile(r"(?<![\w/.-])[upf]\d{1,4}(?![\w/.-])")
_SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
_VALUES = r"(?:allied|german|server|entered|none|attack|idle)"
_SLUG = re.compile(rf"\b{_VALUES}/{_VALUES}\b|^{_VALUES}$|One of: ", re.M)
_TWICE = re.compile(r"\b([A-Za-z]{3,})[ \t]+\1\b")


def raw_words(text: str, allow: tuple[str, ...] = ()) -> list[str]:
    found = []
    found += [f"an id: {m.group(0)!r} in {_around(text, m)}" for m in _ID.finditer(text)]
    found += [f"snake_case: {m.group(0)!r} in {_around(text, m)}" for m in _SNAKE.finditer(text)]
    found += [f"a raw option: {m.group(0)!r} in {_around(text, m)}" for m in _SLUG.finditer(text)]
    found += [
        f"a word twice: {m.group(0)!r} in {_around(text, m)}"
        for m in _TWICE.finditer(text)
        if m.group(1).lower() not in ("that", "had")
    ]
    found += [f"'Done: Done' in {_around(text, m)}" for m in re.finditer(r"Done: Done", text)]
    return [f for f in found if not any(a in f for a in allow)]


def _around(text: str, match) -> str:
    return repr(text[max(0, match.start() - 40) : match.end() + 40])
