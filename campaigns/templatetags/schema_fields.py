"""One input of a schema form, drawn in Python.

A unit list can have a hundred rows of selects and check boxes; Django's widget templates
render each option as a template of its own, which made a campaign page take most of a
second. The HTML here is the same an HTML form needs (label, input, help, errors), escaped
by format_html, drawn in one pass.
"""

from __future__ import annotations

from typing import cast

from django import forms, template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _attrs(**attrs: object) -> SafeString:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        parts.append(
            format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value)
        )
    return mark_safe("".join(parts))


def _selected(bound: BoundField) -> set[str]:
    value = bound.value()
    if value is None:
        return set()
    if isinstance(value, (list, tuple)):
        return {str(v) for v in value}
    if isinstance(value, bool):
        return {"true" if value else "false", str(value)}
    return {str(value)}


def _choices(bound: BoundField) -> list[tuple[object, object]]:
    """The (value, label) pairs of a select, radios or check boxes (a schema form's ChoiceField).
    Django keeps a ChoiceField's choices normalized to that list; its stubs type the setter's
    wider input."""
    field = bound.field
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{bound.name}: a choice widget on a field without choices")
    return cast("list[tuple[object, object]]", field.choices)


def _greyed(widget: forms.Widget) -> set[str]:
    return set(getattr(widget, "greyed", ()))


def _choice_group(bound: BoundField, input_type: str) -> str:
    widget = bound.field.widget
    chosen, greyed = _selected(bound), _greyed(widget)
    required = bound.field.required and input_type == "radio"
    lines = []
    for index, (value, label) in enumerate(_choices(bound)):
        value = "" if value is None else str(value)
        if value == "" and input_type == "radio" and required:
            continue
        ident = f"{bound.auto_id}_{index}" if bound.auto_id else None
        lines.append(
            format_html(
                '<label class="check-line{}"{}><input type="{}" name="{}" value="{}"{}> <span>{}</span></label>',
                " greyed" if value in greyed else "",
                _attrs(for_=ident),
                input_type,
                bound.html_name,
                value,
                _attrs(
                    id=ident, checked=value in chosen, disabled=value in greyed, required=required
                ),
                label,
            )
        )
    body = (
        mark_safe("".join(lines))
        if lines
        else format_html('<p class="muted">{}</p>', "None to choose from.")
    )
    return format_html(
        '<fieldset class="choice-group"><legend class="label">{}{}</legend>{}</fieldset>',
        bound.label,
        _required_mark(bound),
        body,
    )


def _required_mark(bound: BoundField) -> str:
    return (
        mark_safe('<span class="req" aria-hidden="true">*</span>') if bound.field.required else ""
    )


def _select(bound: BoundField) -> str:
    chosen, greyed = _selected(bound), _greyed(bound.field.widget)
    options = format_html_join(
        "",
        "<option value=\"{}\"{}>{}</option>",
        (
            (
                "" if v is None else v,
                _attrs(
                    selected=str(v) in chosen or (v in ("", None) and not chosen),
                    disabled=str(v) in greyed,
                ),
                label,
            )
            for v, label in _choices(bound)
        ),
    )
    return format_html(
        "<select name=\"{}\"{}>{}</select>",
        bound.html_name,
        _attrs(id=bound.auto_id or None, required=bound.field.required),
        options,
    )


def _text_list(bound: BoundField) -> str:
    """One box per item already given, then a blank one for another."""
    values = [v for v in (bound.value() or []) if v not in (None, "")]
    boxes = [
        format_html(
            '<input type="text" name="{}"{}>',
            bound.html_name,
            _attrs(
                value=v,
                id=(bound.auto_id or None) if i == 0 else None,
                maxlength=getattr(bound.field, "item_length", None),
            ),
        )
        for i, v in enumerate([*values, None])
    ]
    return format_html('<span class="text-list">{}</span>', mark_safe("".join(boxes)))


def _input(bound: BoundField) -> str:
    widget = bound.field.widget
    value = bound.value()
    if getattr(widget, "text_list", False):
        return _text_list(bound)
    if isinstance(widget, forms.CheckboxInput):
        return format_html(
            '<input type="checkbox" name="{}"{}>',
            bound.html_name,
            _attrs(id=bound.auto_id or None, checked=bool(widget.check_test(value))),
        )
    if isinstance(widget, forms.Textarea):
        return format_html(
            '<textarea name="{}" rows="{}"{}>{}</textarea>',
            bound.html_name,
            widget.attrs.get("rows", 2),
            _attrs(
                id=bound.auto_id or None,
                maxlength=getattr(bound.field, "max_length", None),
                required=bound.field.required,
            ),
            "" if value is None else value,
        )
    kind = "number" if isinstance(widget, forms.NumberInput) else "text"
    return format_html(
        '<input type="{}" name="{}"{}>',
        kind,
        bound.html_name,
        _attrs(
            value=None if value in (None, "") else value,
            id=bound.auto_id or None,
            maxlength=getattr(bound.field, "max_length", None),
            required=bound.field.required,
            min=getattr(bound.field, "min_value", None),
            max=getattr(bound.field, "max_value", None),
            inputmode=widget.attrs.get("inputmode"),
        ),
    )


@register.simple_tag
def schema_field(bound: BoundField, compact: bool = False, helped: bool = True) -> str:
    """The whole field: its label, input, help and errors (a choice group is a fieldset).
    Not `helped`: without its help (a row list says each column's help on its first row only,
    so that a list of forty units does not say it forty times)."""
    widget = bound.field.widget
    if widget.is_hidden:
        value = bound.value()
        if isinstance(value, (list, dict)):
            import json

            value = json.dumps(value)
        return format_html(
            '<input type="hidden" name="{}"{}>',
            bound.html_name,
            _attrs(value=value if value is not None else "", id=bound.auto_id or None),
        )
    errors = format_html_join(
        "", '<p class="error" role="alert">{}</p>', ((e,) for e in bound.errors)
    )
    help_ = (
        format_html('<small class="help">{}</small>', bound.help_text)
        if bound.help_text and helped
        else ""
    )
    multi = isinstance(widget, forms.CheckboxSelectMultiple)
    radio = isinstance(widget, forms.RadioSelect)
    check = isinstance(widget, forms.CheckboxInput)
    classes = (
        "field"
        + (" has-error" if bound.errors else "")
        + (" check" if check else "")
        + (" choices" if multi or radio else "")
        + (" compact" if compact else "")
    )
    if multi or radio:
        inner = _choice_group(bound, "checkbox" if multi else "radio")
    else:
        control = _select(bound) if isinstance(widget, forms.Select) else _input(bound)
        inner = format_html(
            '<label for="{}">{}{}</label>{}',
            bound.auto_id or "",
            bound.label,
            _required_mark(bound),
            control,
        )
    return format_html('<div class="{}">{}{}{}</div>', classes, inner, help_, errors)


@register.simple_tag
def schema_tick(bound: BoundField) -> str:
    """The tick of a row that is sent only when ticked (a row list's pick box)."""
    return _input(bound)
