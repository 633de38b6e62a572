"""A small declarative schema for event data.

Every event kind declares its fields once; the same declaration validates API
input, page forms and replayed journals, and names the failing field in its
error ("purchases[2].id: Unknown RG ID").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import DomainError


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
    choices: tuple = ()
    min: int | None = None
    max: int | None = None
    max_length: int = 2000
    item: "Field | None" = None  # for lists
    fields: tuple["Field", ...] = ()  # for objects
    help: str = ""
    labels: tuple = ()  # ((choice, "words"), ...) for pages
    rows: tuple = field(default=(), compare=False, hash=False)  # initial rows of a list of objects
    key: str = ""  # the sub-field naming a row of `rows` (shown, not typed)
    widget: str = ""
    group: str = ""  # a heading the page shows this field under
    disabled: tuple = ()  # ((choice, "why it cannot be chosen now"), ...): shown greyed with the reason

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def choice_label(self, value) -> str:
        for choice, words in self.labels:
            if choice == value:
                return words
        return str(value)

    def but(self, **changes) -> "Field":
        """A copy with some attributes changed (form_fields makes declared fields concrete)."""
        return replace(self, **changes)

    def clean(self, value, path: str | None = None):
        path = path or self.name
        if value is None or value == "" and self.type not in ("str",):
            if self.required:
                raise DomainError(path, "This field is required.")
            return self.default
        cleaner = getattr(self, f"_clean_{self.type}")
        return cleaner(value, path)

    def _clean_str(self, value, path):
        if not isinstance(value, str):
            raise DomainError(path, "Must be text.")
        value = value.strip()
        if self.required and not value:
            raise DomainError(path, "This field is required.")
        if len(value) > self.max_length:
            raise DomainError(path, f"At most {self.max_length} characters.")
        if self.choices and value not in self.choices:
            raise DomainError(path, f"Must be one of: {', '.join(map(str, self.choices))}.")
        return value

    def _clean_choice(self, value, path):
        if value not in self.choices:
            raise DomainError(path, f"Must be one of: {', '.join(map(str, self.choices))}.")
        return value

    def _clean_int(self, value, path):
        if isinstance(value, bool):
            raise DomainError(path, "Must be a whole number.")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise DomainError(path, "Must be a whole number.") from None
        if not isinstance(value, int):
            raise DomainError(path, "Must be a whole number.")
        if self.min is not None and value < self.min:
            raise DomainError(path, f"Must be at least {self.min}.")
        if self.max is not None and value > self.max:
            raise DomainError(path, f"Must be at most {self.max}.")
        return value

    def _clean_bool(self, value, path):
        if isinstance(value, bool):
            return value
        if value in ("true", "on", "1", 1):
            return True
        if value in ("false", "off", "0", 0):
            return False
        raise DomainError(path, "Must be true or false.")

    def _clean_list(self, value, path):
        if not isinstance(value, list):
            raise DomainError(path, "Must be a list.")
        if self.max is not None and len(value) > self.max:
            raise DomainError(path, f"At most {self.max} entries.")
        if self.min is not None and len(value) < self.min:
            raise DomainError(path, f"At least {self.min} entries.")
        if self.item is None:
            return list(value)
        return [self.item.clean(v, f"{path}[{i}]") for i, v in enumerate(value)]

    def _clean_object(self, value, path):
        if not isinstance(value, dict):
            raise DomainError(path, "Must be an object.")
        return clean_fields(self.fields, value, prefix=f"{path}.")

    def _clean_json(self, value, path):
        return value


def clean_fields(fields, data, prefix: str = "") -> dict:
    """Validate `data` against `fields`; unknown keys are refused, not dropped."""
    if not isinstance(data, dict):
        raise DomainError(prefix.rstrip(".") or "data", "Must be an object.")
    known = {f.name for f in fields}
    for key in data:
        if key not in known:
            raise DomainError(f"{prefix}{key}", "Unknown field.")
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
    extra: dict = field(default_factory=dict)

    def clean(self, data) -> dict:
        return clean_fields(self.fields, data or {})
