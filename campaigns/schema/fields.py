"""A small declarative schema for event data.

Every event kind declares its fields once; the same declaration validates API
input, page forms and replayed journals, and names the failing field in its
error ("purchases[2].id: Unknown RG ID").
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from campaigns.errors import DomainError

T = TypeVar("T")

# Bounds on every free-form value a person, a client or a journal file may send (json
# fields, lists without an item type, any text). Generous for play, small enough that no
# value can make a campaign slow or unwritable for everyone (docs/architecture.md).
JSON_MAX_DEPTH = 12  # nested lists/objects inside one value
JSON_MAX_ITEMS = 1000  # entries of one list or object
JSON_MAX_STRING = 2000  # characters of one text (object keys included)
JSON_MAX_BYTES = 64 * 1024  # one value written as compact JSON
JSON_MAX_INT = 2**53  # whole numbers every JSON reader keeps exactly
EVENT_MAX_BYTES = 64 * 1024  # an event's whole data
_LINE_BREAKS = "\t\n\r"


def text_problem(value: str, *, multiline: bool = True) -> str | None:
    """Why a text may not be stored, or None: control characters (but tabs and line breaks
    in longer text), lone surrogates (no database stores them) and direction overrides."""
    for char in value:
        category = unicodedata.category(char)
        if category == "Cc" and not (multiline and char in _LINE_BREAKS):
            return "Control characters are not allowed."
        if category == "Cs":
            return "Not valid Unicode text."
        if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
            return "Text direction controls are not allowed."
    return None


def clean_name(value: object, path: str = "name", max_length: int | None = 120) -> str:
    """A name (club, campaign, person): one line of printable text."""
    if not isinstance(value, str):
        raise DomainError(path, "Must be text.")
    name = value.strip()
    if not name:
        raise DomainError(path, "This field is required.")
    if max_length is not None and len(name) > max_length:
        raise DomainError(path, f"At most {max_length} characters.")
    problem = text_problem(name, multiline=False)
    if problem:
        raise DomainError(path, problem)
    return name


def shown_key(key: object) -> str:
    """An unknown key as it may appear in an error's field name (short and printable)."""
    raw = key if isinstance(key, str) else repr(key)
    text = "".join(c if c.isprintable() else "?" for c in raw[:40])
    return text + ("…" if len(str(key)) > 40 else "")


def check_json(
    value: T, path: str = "", *, max_bytes: int = JSON_MAX_BYTES, max_depth: int = JSON_MAX_DEPTH
) -> T:
    """Refuse (DomainError naming the nested path) a free-form value that is too deep, too
    large, or holds what no JSON store keeps (NaN, huge numbers, control characters).
    Iterative: no value can exhaust the stack here. `path` "" checks an event's data as a
    whole (errors then name its fields, as the kind's own checks do)."""
    stack: list[tuple[object, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                raise DomainError(
                    where or "data", f"Nested too deeply (at most {max_depth} levels)."
                )
            if len(item) > JSON_MAX_ITEMS:
                raise DomainError(where or "data", f"At most {JSON_MAX_ITEMS} entries.")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str):
                        raise DomainError(where, "Object keys must be text.")
                    _check_text(key, _join(where, shown_key(key)))
                    stack.append((inner, _join(where, shown_key(key)), depth + 1))
            else:
                stack.extend((inner, f"{where}[{i}]", depth + 1) for i, inner in enumerate(item))
        elif isinstance(item, str):
            _check_text(item, where)
        elif isinstance(item, bool) or item is None:
            pass
        elif isinstance(item, int):
            if abs(item) > JSON_MAX_INT:
                raise DomainError(where, "Number too large.")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise DomainError(where, "Must be a finite number.")
        else:
            raise DomainError(where, "Not a JSON value.")
    if len(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) > max_bytes:
        raise DomainError(path or "data", f"Too large (at most {max_bytes // 1024} KB as JSON).")
    return value


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _check_text(text: str, where: str) -> None:
    if len(text) > JSON_MAX_STRING:
        raise DomainError(where, f"At most {JSON_MAX_STRING} characters.")
    problem = text_problem(text)
    if problem:
        raise DomainError(where, problem)


def parse_json(text: str | bytes, *, max_depth: int = 64) -> Any:
    """json.loads that refuses (ValueError) what would exhaust the stack or nests deeper
    than `max_depth`: for request bodies, page fields and journal files."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested too deeply (at most {max_depth} levels)") from None
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                raise ValueError(f"nested too deeply (at most {max_depth} levels)")
            stack.extend(
                (inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item)
            )
    return value


@dataclass(frozen=True)
class Field:
    """One value of an event's data.

    The same declaration validates API input, replayed journals and page forms. For
    pages, a game system makes fields concrete from the campaign (GameSystem.form_fields):
    ``labels`` names each choice in words ("u12: 467 squad, RG p1"), ``rows`` pre-fills
    a list of objects with one row per candidate (a unit that may harden), ``key``
    names the sub-field that identifies a row (shown as text, not typed), and
    ``widget`` hints at the input ("checkboxes", "radios", "rows", "hidden").
    A person never types JSON: ``json`` fields are for the API and journal files only.
    """

    name: str
    type: str = "str"  # str | int | bool | choice | list | object | json
    label: str = ""
    required: bool = True
    default: object = None
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    max_length: int = 2000
    item: Field | None = None  # for lists
    fields: tuple[Field, ...] = ()  # for objects
    help: str = ""
    labels: tuple[tuple[Any, str], ...] = ()  # ((choice, "words"), ...) for pages
    rows: tuple[dict[str, Any], ...] = field(
        default=(), compare=False, hash=False
    )  # initial rows of a list of objects
    key: str = ""  # the sub-field naming a row of `rows` (shown, not typed)
    widget: str = ""
    group: str = ""  # a heading the page shows this field under
    disabled: tuple[
        tuple[Any, str], ...
    ] = ()  # ((choice, "why it cannot be chosen now"), ...): shown greyed with the reason

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def choice_label(self, value: object) -> str:
        for choice, words in self.labels:
            if choice == value:
                return str(words)
        return str(value).replace("_", " ")  # no words given: at least no snake_case on a page

    def but(self, **changes: Any) -> Field:
        """A copy with some attributes changed (form_fields makes declared fields concrete)."""
        return replace(self, **changes)

    def clean(self, value: object, path: str | None = None) -> Any:
        """The value as the journal keeps it (JSON: its type follows `type`), or DomainError."""
        where = path or self.name
        if value is None or value == "" and self.type not in ("str",):
            if self.required:
                raise DomainError(where, "This field is required.")
            return self.default
        cleaner: Callable[[Any, str], Any] = getattr(self, f"_clean_{self.type}")
        return cleaner(value, where)

    def _clean_str(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise DomainError(path, "Must be text.")
        value = value.strip()
        if self.required and not value:
            raise DomainError(path, "This field is required.")
        if len(value) > self.max_length:
            raise DomainError(path, f"At most {self.max_length} characters.")
        problem = text_problem(value, multiline=self.max_length > 200)
        if problem:
            raise DomainError(path, problem)
        if self.choices and value not in self.choices:
            raise DomainError(path, f"Must be one of: {', '.join(map(str, self.choices))}.")
        return value

    def _clean_choice(self, value: object, path: str) -> object:
        if value not in self.choices:
            raise DomainError(path, f"Must be one of: {', '.join(map(str, self.choices))}.")
        return value

    def _clean_int(self, value: object, path: str) -> int:
        if isinstance(value, bool):
            raise DomainError(path, "Must be a whole number.")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise DomainError(path, "Must be a whole number.") from None
        if not isinstance(value, int):
            raise DomainError(path, "Must be a whole number.")
        if abs(value) > JSON_MAX_INT:
            raise DomainError(path, "Number too large.")
        if self.min is not None and value < self.min:
            raise DomainError(path, f"Must be at least {self.min}.")
        if self.max is not None and value > self.max:
            raise DomainError(path, f"Must be at most {self.max}.")
        return value

    def _clean_bool(self, value: object, path: str) -> bool:
        if isinstance(value, bool):
            return value
        if value in ("true", "on", "1", 1):
            return True
        if value in ("false", "off", "0", 0):
            return False
        raise DomainError(path, "Must be true or false.")

    def _clean_list(self, value: object, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise DomainError(path, "Must be a list.")
        most = self.max if self.max is not None else JSON_MAX_ITEMS
        if len(value) > most:
            raise DomainError(path, f"At most {most} entries.")
        if self.min is not None and len(value) < self.min:
            raise DomainError(path, f"At least {self.min} entries.")
        if self.item is None:
            return list(check_json(value, path))
        return [self.item.clean(v, f"{path}[{i}]") for i, v in enumerate(value)]

    def _clean_object(self, value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise DomainError(path, "Must be an object.")
        return clean_fields(self.fields, value, prefix=f"{path}.")

    def _clean_json(self, value: object, path: str) -> object:
        return check_json(value, path)


def clean_fields(fields: Sequence[Field], data: object, prefix: str = "") -> dict[str, Any]:
    """Validate `data` against `fields`; unknown keys are refused, not dropped."""
    if not isinstance(data, dict):
        raise DomainError(prefix.rstrip(".") or "data", "Must be an object.")
    known = {f.name for f in fields}
    for key in data:
        if key not in known:
            raise DomainError(f"{prefix}{shown_key(key)}", "Unknown field.")
    return {f.name: f.clean(data.get(f.name), f"{prefix}{f.name}") for f in fields}


@dataclass(frozen=True)
class EventKind:
    """A kind of journal event: its data, who may submit it, who may read it."""

    name: str
    label: str
    fields: tuple[Field, ...] = ()
    audience: str = "public"  # public | side | referee
    actor: str = "side"  # side | organizer | referee | member | arbiter | system
    rule: str = ""
    help: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def clean(self, data: object) -> dict[str, Any]:
        return clean_fields(self.fields, data or {})
