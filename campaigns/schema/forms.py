"""Page forms drawn from schema fields (campaigns.schema.fields.Field), with real widgets.

A person never types JSON. Every field an event kind declares becomes an input a
phone can use:

- int / str / bool / choice: one input; a choice is a select (or radio buttons with
  ``widget="radios"``) showing each value's words (``Field.labels``);
- a list of choices: a group of checkboxes;
- an object of plain fields: one input per sub-field (posted as ``obj.sub``);
- a list of objects: a table of rows (posted as ``name-<row>-<sub>``). ``Field.rows``
  pre-fills one row per candidate (a unit that may harden); ``Field.key`` names the
  sub-field that identifies a row (shown as text, sent hidden); ``widget="pick"`` adds
  a tick per row (only ticked rows are sent), otherwise every candidate row is sent,
  and a row without candidates is sent once something in it is filled in;
- ``widget="hidden"`` and values the page fixes (``fixed``): hidden inputs.

The form only turns what was posted into the event's data (``event_data``); every rule
is checked by the services, whose DomainError (naming e.g. ``stacks[1].units``) is put
back on the input it names (``add_domain_error``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field as dataclass_field
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from campaigns.schema.fields import Field, parse_json

_SCALAR = ("str", "int", "bool", "choice")
DICE_PREFIX = "dice:"


def _plain_object(f: Field) -> bool:
    return (
        f.type == "object"
        and bool(f.fields)
        and all(s.type in _SCALAR or _choice_list(s) for s in f.fields)
    )


def _choice_list(f: Field) -> bool:
    return (
        f.type == "list"
        and f.item is not None
        and bool(f.item.choices)
        and f.item.type in ("choice", "str")
    )


def _rows(f: Field) -> bool:
    return (
        f.type == "list" and f.item is not None and f.item.type == "object" and bool(f.item.fields)
    )


def _choices(f: Field) -> list[tuple[str, str]]:
    greyed = dict(f.disabled)
    return [
        (_as_text(c), f.choice_label(c) + (f" — {greyed[c]}" if c in greyed else ""))
        for c in f.choices
    ]


class _Greyed:
    """A choice widget some of whose choices cannot be chosen now (drawn greyed, with the reason,
    by templatetags/schema_fields.py)."""

    def __init__(self, greyed: Iterable[object] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.greyed = {str(v) for v in greyed}


class _GreyedRadios(_Greyed, forms.RadioSelect):
    pass


class _GreyedSelect(_Greyed, forms.Select):
    pass


def _as_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


class _PlainValue(forms.CharField):
    """A value the API may give as any JSON: on a page it is one line of text (a number or
    true/false is taken as such). Only a fallback: systems give concrete fields."""

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if value in ("", None):
            return None
        try:
            parsed = parse_json(value)  # never exhausts the stack
        except ValueError:
            return value
        return parsed if isinstance(parsed, (int, float, bool)) else value


class _HiddenValue(forms.CharField):
    """A value the page fixes: sent as text (JSON for lists and objects) and read back."""

    widget = forms.HiddenInput

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if value in ("", None):
            return None
        if value[:1] in "[{":
            try:
                return parse_json(value)
            except ValueError:
                raise ValidationError("This value was changed on the way.") from None
        return value

    def prepare_value(self, value: Any) -> Any:
        return _as_text(value) if not isinstance(value, str) else value


class TextListInput(forms.Widget):
    """A list of short texts (unit ids, hexes): one text box per item plus a blank one, all of
    one name (drawn by templatetags/schema_fields.py)."""

    text_list = True

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        getter = getattr(data, "getlist", None)
        values = getter(name) if getter else data.get(name)
        if isinstance(values, str):
            values = [values]
        return [v for v in (values or []) if isinstance(v, str) and v.strip()]

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False


class _TextListField(forms.Field):
    widget = TextListInput

    def __init__(self, *, item_length: int, max_items: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.item_length, self.max_items = item_length, max_items

    def to_python(self, value: Any) -> list[str]:
        items = [str(v).strip() for v in (value or []) if str(v).strip()]
        if self.max_items is not None and len(items) > self.max_items:
            raise ValidationError(f"At most {self.max_items} items.")
        for item in items:
            if len(item) > self.item_length:
                raise ValidationError(
                    f"“{item[:20]}…” is longer than {self.item_length} characters."
                )
        return items

    def prepare_value(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            return [value]
        return list(value or [])


def _text_list(f: Field) -> bool:
    return f.type == "list" and f.item is not None and f.item.type == "str" and not f.item.choices


def _input_attrs(f: Field) -> dict[str, str]:
    attrs = {}
    if f.type == "int":
        attrs["inputmode"] = "numeric"
    return attrs


def form_field(f: Field, *, required: bool | None = None) -> forms.Field:
    """One Django form field for one schema field (the services validate again)."""
    required = f.required if required is None else required
    made: forms.Field
    if f.widget == "hidden":
        made = _HiddenValue(required=False)
    elif f.type == "int":
        made = forms.IntegerField(
            required=required,
            min_value=f.min,
            max_value=f.max,
            widget=forms.NumberInput(attrs=_input_attrs(f)),
        )
    elif f.type == "bool":
        made = forms.BooleanField(required=False)
    elif f.type == "choice" or (f.type == "str" and f.choices):
        by_text = {_as_text(c): c for c in f.choices}
        blank = (
            [] if (f.widget == "radios" and required) else [("", "— choose —" if required else "—")]
        )
        greyed = [_as_text(c) for c, _ in f.disabled]
        made = forms.TypedChoiceField(
            choices=blank + _choices(f),
            coerce=lambda text: by_text.get(text, text),
            required=required,
            empty_value=None,
            widget=_GreyedRadios(greyed) if f.widget == "radios" else _GreyedSelect(greyed),
        )
    elif _choice_list(f) and f.item is not None:
        by_text = {_as_text(c): c for c in f.item.choices}
        made = forms.TypedMultipleChoiceField(
            choices=_choices(f.item),
            coerce=lambda text: by_text.get(text, text),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
    elif _text_list(f) and f.item is not None:
        made = _TextListField(
            item_length=f.item.max_length, max_items=f.max, required=required and bool(f.min)
        )
    elif f.type == "str":
        made = forms.CharField(
            required=required,
            max_length=f.max_length,
            strip=True,
            widget=forms.Textarea(attrs={"rows": 2}) if f.max_length > 200 else forms.TextInput,
        )
    else:  # json, or a list/object no system made concrete: never a JSON box for a person
        made = _PlainValue(required=required, max_length=200)
    made.label = f.title
    if f.help:
        made.help_text = f.help
    if f.default is not None and (
        not isinstance(f.default, (list, dict)) or _choice_list(f) or _text_list(f)
    ):
        made.initial = f.default
    return made


@dataclass
class RowGroup:
    """A list of objects drawn as a table: one row per candidate (or blank rows)."""

    field: Field
    name: str
    count: int
    pick: bool
    labels: list[str] = dataclass_field(default_factory=list)  # a row's key in words
    errors: list[str] = dataclass_field(default_factory=list)

    @property
    def subs(self) -> list[Field]:
        return [s for s in _item(self.field).fields if s.name != self.field.key]

    def input_name(self, index: int, sub: str) -> str:
        return f"{self.name}-{index}-{sub}"


def _item(f: Field) -> Field:
    """The item of a list field drawn as rows (_rows says it has one)."""
    assert f.item is not None, f"{f.name} is a list of objects"
    return f.item


def _row_count(f: Field) -> int:
    if f.rows:
        return len(f.rows)
    return max(1, min(f.max or 3, 3))


class SchemaForm(forms.Form):
    """A form for a schema field list.

    ``fixed``: values the page gives (the scenario being confirmed, a proposal's uid),
    sent hidden and never taken from the post. ``dice_needs``: rolls the player enters
    from the table ({"key", "expr", "label"}, optional "faces" already typed).
    """

    def __init__(
        self,
        fields: Iterable[Field],
        *args: Any,
        fixed: dict[str, Any] | None = None,
        dice_needs: Iterable[dict[str, Any]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.schema = tuple(fields)
        self.fixed = dict(fixed or {})
        self.groups: dict[str, RowGroup] = {}
        self._sections: list[tuple[str, list[tuple[str, str]]]] = []
        for name, f in flat_fields(self.schema):
            if name in self.fixed:
                self.fields[name] = _HiddenValue(required=False, initial=self.fixed[name])
                continue
            if _rows(f):
                self._add_rows(name, f)
                continue
            self.fields[name] = form_field(f)
            if name in self.initial and isinstance(self.initial[name], bool):
                self.initial[name] = self.initial[name]
            self._place(f.group, ("field", name))
        self.dice_needs = list(dice_needs)
        for need in self.dice_needs:
            name = f"{DICE_PREFIX}{need['key']}"
            expr = need.get("expr")
            self.fields[name] = forms.CharField(
                label=need.get("label") or need["key"],
                max_length=40,
                help_text=f"The faces rolled at the table ({expr}), e.g. {'3 5' if expr and expr.startswith('2') else '4'}"
                if expr
                else "The faces rolled at the table",
                initial=" ".join(map(str, need["faces"])) if need.get("faces") else None,
            )
            self.fields[f"dice-expr:{need['key']}"] = forms.CharField(
                widget=forms.HiddenInput, required=False, initial=expr or ""
            )
        # A resubmission posts back every die typed so far, even ones this form did not ask for.
        if self.is_bound:
            for key in list(self.data):
                if key.startswith(DICE_PREFIX) and key not in self.fields:
                    self.fields[key] = forms.CharField(label=key[len(DICE_PREFIX) :], max_length=40)

    # --- building ---------------------------------------------------------------------
    def _place(self, group: str, item: tuple[str, str]) -> None:
        if not self._sections or self._sections[-1][0] != group:
            self._sections.append((group, []))
        self._sections[-1][1].append(item)

    def _add_rows(self, name: str, f: Field) -> None:
        given = self.initial.get(name)
        if isinstance(given, list) and given:
            # Rows already chosen (a correction of an earlier event): those first, then the other candidates.
            chosen = [dict(row, _on=True) for row in given if isinstance(row, dict)]
            keys = {row.get(f.key) for row in chosen} if f.key else set()
            extra = [row for row in f.rows if not f.key or row.get(f.key) not in keys]
            f = f.but(rows=tuple(chosen + (extra or ([{}] if not f.key else []))))
        group = RowGroup(f, name, _row_count(f), pick=f.widget == "pick")
        key_field = next((s for s in _item(f).fields if s.name == f.key), None)
        for index in range(group.count):
            row = dict(f.rows[index]) if index < len(f.rows) else {}
            if group.pick:
                tick = forms.BooleanField(required=False, label="Include")
                tick.initial = bool(row.get("_on"))
                self.fields[group.input_name(index, "_on")] = tick
            if key_field is not None:
                key_value = row.get(f.key)
                self.fields[group.input_name(index, f.key)] = _HiddenValue(
                    required=False, initial=key_value
                )
                group.labels.append(row.get("_label") or key_field.choice_label(key_value))
            else:
                group.labels.append(row.get("_label") or f"{index + 1}")
            for sub in group.subs:
                made = form_field(sub, required=False)
                if sub.name in row:
                    made.initial = row[sub.name]
                self.fields[group.input_name(index, sub.name)] = made
        self.groups[name] = group
        self._place(f.group, ("rows", name))

    # --- reading back -----------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # Form.clean answers cleaned_data
        for name, value in self.fixed.items():
            if name in self.fields:
                cleaned[name] = value  # given by the page, not by the person
        return cleaned

    def _row_values(self, group: RowGroup) -> list[tuple[int, dict[str, Any]]]:
        """(row position, the row's data) of each row that is sent."""
        out: list[tuple[int, dict[str, Any]]] = []
        f = group.field
        for index in range(group.count):
            if group.pick and not self.cleaned_data.get(group.input_name(index, "_on")):
                continue
            row: dict[str, Any] = {}
            if f.key:
                row[f.key] = self.cleaned_data.get(group.input_name(index, f.key))
            # A candidate row (keyed or ticked) is sent as it is; a blank row once something is filled in.
            meaningful = bool(f.key) or group.pick
            for sub in group.subs:
                value = self.cleaned_data.get(group.input_name(index, sub.name))
                if sub.type == "bool":
                    value = bool(value)
                if value in (None, "") and sub.type != "bool":
                    if sub.required:
                        row[sub.name] = "" if sub.type == "str" else None
                    continue
                row[sub.name] = value
                if value not in ([], False) and value != sub.default:
                    meaningful = True
            if meaningful:
                out.append((index, row))
        return out

    def event_data(self) -> dict[str, Any]:
        """The cleaned values nested back as the event kind expects them."""
        data: dict[str, Any] = {}
        self._positions: dict[str, list[int]] = {}
        for name, f in flat_fields(self.schema):
            if name in self.groups:
                rows = self._row_values(self.groups[name])
                self._positions[name] = [index for index, _ in rows]
                data[name] = [row for _, row in rows]
                continue
            value = self.cleaned_data.get(name)
            if value is None and f.type != "bool" and not f.required:
                continue
            if (
                value == ""
                and f.type == "str"
                and f.default is None
                and not f.required
                and not self.get_initial_for_field(self.fields[name], name)
            ):
                # A text left empty whose kind has no default says nothing, as in a row; one the
                # person emptied (it was drawn holding a text) says "empty".
                continue
            if _choice_list(f) and value is None:
                value = []
            head, _, tail = name.partition(".")
            if tail:
                data.setdefault(head, {})[tail] = value
            else:
                data[name] = value
        return data

    def dice(self) -> dict[str, list[int]] | None:
        found = {}
        for name, value in self.cleaned_data.items():
            if name.startswith(DICE_PREFIX):
                try:
                    found[name[len(DICE_PREFIX) :]] = [
                        int(part) for part in str(value).replace(",", " ").split()
                    ]
                except ValueError:
                    self.add_error(name, "Enter the faces as whole numbers, e.g. 3 5.")
                    return None
        return found or None

    def posted_dice(self) -> list[dict[str, Any]]:
        """Every die typed so far, to keep them on the form while a follow-up roll is asked for."""
        kept = []
        for name, value in self.data.items() if self.is_bound else []:
            if name.startswith(DICE_PREFIX) and str(value).strip():
                key = name[len(DICE_PREFIX) :]
                faces = [int(p) for p in re.findall(r"-?\d+", str(value))]
                kept.append(
                    {"key": key, "expr": self.data.get(f"dice-expr:{key}") or None, "faces": faces}
                )
        return kept

    # --- errors from the services --------------------------------------------------------
    _PATH = re.compile(r"^(?P<name>[\w.]+)\[(?P<index>\d+)\](?:\.(?P<sub>\w+))?")

    def add_domain_error(self, path: str, message: str) -> None:
        """Put a service's error on the input it names (or on the form)."""
        if path.startswith("dice."):
            name = f"{DICE_PREFIX}{path[5:]}"
            self.add_error(name if name in self.fields else None, message)
            return
        if path.startswith("data.") and path[5:].split("[")[0].split(".")[0] in self._names():
            path = path[5:]
        match = self._PATH.match(path)
        if match and match.group("name") in self.groups:
            group = self.groups[match.group("name")]
            positions = getattr(self, "_positions", {}).get(group.name, [])
            index = int(match.group("index"))
            position = positions[index] if index < len(positions) else None
            sub = match.group("sub")
            if position is not None and sub and group.input_name(position, sub) in self.fields:
                self.add_error(group.input_name(position, sub), message)
                return
            label = (
                group.labels[position]
                if position is not None and position < len(group.labels)
                else ""
            )
            group.errors.append(f"{label}: {message}" if label else message)
            return
        head = path.split("[")[0]
        for candidate in (path, head, head.split(".")[0]):
            if candidate in self.fields and not isinstance(self.fields[candidate], _HiddenValue):
                self.add_error(candidate, message)
                return
        if head in self.groups:
            self.groups[head].errors.append(message)
            return
        self.add_error(None, message)

    def _names(self) -> set[str]:
        return {name.split(".")[0] for name, _ in flat_fields(self.schema)}

    # --- for the template --------------------------------------------------------------
    @property
    def visible_count(self) -> int:
        return sum(1 for f in self if not f.is_hidden) + sum(g.count for g in self.groups.values())

    def sections(self) -> list[dict[str, Any]]:
        """What the template draws: headed groups of plain inputs and row tables (inputs a
        subclass added itself come first)."""
        placed = {name for _, items in self._sections for kind, name in items if kind == "field"}
        rows = {g.name for g in self.groups.values()}
        extra = [
            name
            for name, made in self.fields.items()
            if name not in placed
            and not name.startswith(("dice", *(f"{r}-" for r in rows)))
            and not made.widget.is_hidden
        ]
        out = (
            [{"legend": "", "items": [{"kind": "field", "field": self[name]} for name in extra]}]
            if extra
            else []
        )
        for legend, items in self._sections:
            drawn: list[dict[str, Any]] = []
            for kind, name in items:
                if kind == "field":
                    drawn.append({"kind": "field", "field": self[name]})
                else:
                    drawn.append({"kind": "rows", "rows": self._table(self.groups[name])})
            out.append({"legend": legend, "items": drawn})
        return out

    def _table(self, group: RowGroup) -> dict[str, Any]:
        f = group.field
        rows = []
        for index in range(group.count):
            rows.append(
                {
                    "label": group.labels[index],
                    "on": self[group.input_name(index, "_on")] if group.pick else None,
                    "key": self[group.input_name(index, f.key)] if f.key else None,
                    # Hidden cells are drawn with the form's hidden fields (once).
                    "cells": [
                        self[group.input_name(index, sub.name)]
                        for sub in group.subs
                        if sub.widget != "hidden"
                    ],
                }
            )
        return {
            "title": f.title,
            "help": f.help,
            "heads": [s.title for s in group.subs],
            "rows": rows,
            "errors": group.errors,
            "pick": group.pick,
            "keyed": bool(f.key),
            "name": group.name,
        }

    def dice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(DICE_PREFIX)]


def flat_fields(fields: Iterable[Field]) -> list[tuple[str, Field]]:
    """(form name, schema field) pairs; plain objects are flattened to "obj.sub"."""
    out: list[tuple[str, Field]] = []
    for f in fields:
        if _plain_object(f):
            out.extend(
                (f"{f.name}.{sub.name}", sub.but(group=sub.group or f.group or f.title))
                for sub in f.fields
            )
        else:
            out.append((f.name, f))
    return out
