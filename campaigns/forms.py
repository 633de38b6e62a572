"""Page forms. They only turn posted text into the values the services expect;
every rule is checked by the services (a DomainError becomes a form error).

``SchemaForm`` renders a list of ``campaigns.schema.Field`` generically (an event
kind's data, a system's options): int/str/bool/choice as inputs, an object of
plain fields as one input per sub-field ("data.red"), lists/objects/json as a
JSON text area.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import UsernameField
from django.core.exceptions import ValidationError

from .models import Membership
from .schema import Field

_SCALAR = ("str", "int", "bool", "choice")


def _plain_object(field: Field) -> bool:
    return field.type == "object" and bool(field.fields) and all(f.type in _SCALAR for f in field.fields)


class _Json(forms.CharField):
    """JSON typed in a text area; parsed, the services check its shape."""

    widget = forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "class": "mono"})

    def to_python(self, value):
        value = super().to_python(value)
        if value in ("", None):
            return None
        try:
            return json.loads(value)
        except ValueError:
            raise ValidationError("Not valid JSON (e.g. {\"key\": 1} or [1, 2]).") from None

    def prepare_value(self, value):
        # Posted text is shown as typed; initial values arrive as JSON text (SchemaForm).
        if value is None or isinstance(value, str):
            return value
        return json.dumps(value)


def _choice_field(field: Field, required: bool) -> forms.Field:
    by_text = {str(c): c for c in field.choices}
    return forms.TypedChoiceField(
        # A blank first option: nothing is chosen by accident (a sealed choice above all).
        choices=[("", "—" if not required else "— choose —")] + [(str(c), str(c)) for c in field.choices],
        coerce=lambda text: by_text.get(text, text), required=required, empty_value=None,
    )


def form_field(field: Field, *, required: bool | None = None) -> forms.Field:
    """One Django form field for one schema field (the services validate again)."""
    required = field.required if required is None else required
    if field.type == "int":
        made = forms.IntegerField(required=required, min_value=field.min, max_value=field.max)
    elif field.type == "bool":
        made = forms.BooleanField(required=False)
    elif field.type == "choice" or (field.type == "str" and field.choices):
        made = _choice_field(field, required)
    elif field.type == "str":
        long = field.max_length > 200
        made = forms.CharField(
            required=required, max_length=field.max_length, strip=True,
            widget=forms.Textarea(attrs={"rows": 2}) if long else forms.TextInput,
        )
    else:
        made = _Json(required=required)
        kind = {"list": "a JSON list", "object": "a JSON object"}.get(field.type, "JSON")
        field_help = f"{field.help} ({kind})" if field.help else f"Enter {kind}."
        made.help_text = field_help
    made.label = field.title
    if field.type in _SCALAR and field.help:
        made.help_text = field.help
    if field.default is not None:
        made.initial = field.default
    return made


def flat_fields(fields) -> list[tuple[str, Field]]:
    """(form name, schema field) pairs; plain objects are flattened to "obj.sub"."""
    out = []
    for field in fields:
        if _plain_object(field):
            out.extend((f"{field.name}.{sub.name}", sub) for sub in field.fields)
        else:
            out.append((field.name, field))
    return out


class SchemaForm(forms.Form):
    """A form for a schema field list. ``fixed`` names fields whose value is given
    (e.g. the scenario a confirmation is about): sent as hidden inputs."""

    def __init__(self, fields, *args, fixed: dict | None = None, dice_needs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.schema = tuple(fields)
        self.fixed = dict(fixed or {})
        for name, field in flat_fields(self.schema):
            if name in self.fixed:
                # Given by the page (a scenario, a proposal's uid): not typed, not parsed.
                made = forms.CharField(widget=forms.HiddenInput(), required=False, initial=_as_text(self.fixed[name]))
            else:
                made = form_field(field)
            self.fields[name] = made
        for name, made in self.fields.items():
            if isinstance(made, _Json) and name in self.initial:
                self.initial[name] = json.dumps(self.initial[name])  # "attack" -> "\"attack\"": valid JSON
        self.dice_needs = list(dice_needs)
        for need in self.dice_needs:
            self.fields[f"dice:{need['key']}"] = forms.CharField(
                label=f"Dice for {need['key']} ({need['expr']})", help_text="The faces rolled, e.g. 3 5",
            )
        # A resubmission after "enter the dice" posts them back.
        if self.is_bound:
            for key in self.data:
                if key.startswith("dice:") and key not in self.fields:
                    self.fields[key] = forms.CharField(label=f"Dice for {key[5:]}")

    @property
    def visible_count(self) -> int:
        return sum(1 for f in self if not f.is_hidden)

    def clean(self):
        cleaned = super().clean()
        for name, value in self.fixed.items():
            if name in self.fields:
                cleaned[name] = value  # given by the page, not by the person
        return cleaned

    def event_data(self) -> dict:
        """The cleaned values nested back as the event kind expects them."""
        data: dict = {}
        for name, field in flat_fields(self.schema):
            value = self.cleaned_data.get(name)
            if value is None and field.type != "bool":
                if not field.required:
                    continue
            head, _, tail = name.partition(".")
            if tail:
                data.setdefault(head, {})[tail] = value
            else:
                data[name] = value
        return data

    def dice(self) -> dict | None:
        found = {}
        for name, value in self.cleaned_data.items():
            if name.startswith("dice:"):
                try:
                    found[name[5:]] = [int(part) for part in str(value).replace(",", " ").split()]
                except ValueError:
                    self.add_error(name, "Enter the faces as whole numbers, e.g. 3 5.")
                    return None
        return found or None

    def add_domain_error(self, field: str, message: str) -> None:
        """Put a service's error on the field it names (or on the form)."""
        name = field if field in self.fields else f"dice:{field[5:]}" if field.startswith("dice.") else None
        if name is None:
            head = field.split("[")[0]
            name = head if head in self.fields else None
        self.add_error(name if name in self.fields else None, message)


def _as_text(value):
    return json.dumps(value) if isinstance(value, (dict, list)) else value


# --- people -----------------------------------------------------------------------------


class SignupForm(forms.Form):
    username = UsernameField(max_length=150, help_text="Letters, digits and @/./+/-/_ only.")
    email = forms.EmailField(required=False, help_text="For password resets.")
    password1 = forms.CharField(label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_username(self):
        username = self.cleaned_data["username"]
        get_user_model().username_validator(username)
        return username

    def clean(self):
        cleaned = super().clean()
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ.")
        elif one:
            user = get_user_model()(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(one, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="Club name")


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.ROLES, initial=Membership.PLAYER)
    email = forms.EmailField(required=False, help_text="Optional: who it is for (a note; the link works for anyone).")


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.ROLES)


class HandOverForm(forms.Form):
    username = forms.ChoiceField(label="New organizer", choices=())

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].choices = [(m, m) for m in members]


# --- campaigns ----------------------------------------------------------------------------


class NewCampaignForm(SchemaForm):
    """Name, variant and the system's options (with the dice mode)."""

    def __init__(self, system, option_fields, *args, **kwargs):
        super().__init__(option_fields, *args, **kwargs)
        self.fields = {
            "name": forms.CharField(max_length=120, label="Campaign name"),
            "variant": forms.ChoiceField(
                choices=[(v.slug, v.name) for v in system.variants], label="Variant",
                help_text="; ".join(f"{v.name}: {len(v.calendar)} rounds" for v in system.variants),
            ),
            **self.fields,
        }


class PlayerForm(forms.Form):
    side = forms.ChoiceField(choices=())
    username = forms.ChoiceField(label="Member", choices=())

    def __init__(self, *args, sides=(), members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = list(sides)
        self.fields["username"].choices = [(m, m) for m in members]


class ReplaceForm(forms.Form):
    side = forms.ChoiceField(choices=())
    old = forms.CharField(max_length=150, label="Player leaving")
    new = forms.ChoiceField(label="Member joining", choices=())

    def __init__(self, *args, sides=(), members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = list(sides)
        self.fields["new"].choices = [(m, m) for m in members]


class RefereeForm(forms.Form):
    username = forms.ChoiceField(label="Referee", choices=(), required=False)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].choices = [("", "— no referee —")] + [(m, m) for m in members]


class HouseRuleForm(forms.Form):
    key = forms.CharField(
        max_length=200, label="Table cell or constant",
        help_text='A cell as "table:row:column" or a constant\'s name; pick from the list.',
        widget=forms.TextInput(attrs={"list": "house-rule-keys", "class": "mono", "autocomplete": "off"}),
    )
    value = forms.CharField(max_length=200, help_text="The club's value (a number like the book's, or text).")
    note = forms.CharField(max_length=500, required=False, help_text="Why (shown beside the value).")

    def clean_value(self):
        text = self.cleaned_data["value"].strip()
        try:
            return json.loads(text)
        except ValueError:
            return text


class ProposalForm(forms.Form):
    """A late house rule, or a full export, proposed to the other sides."""

    reason = forms.CharField(max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 2}))


class FinishForm(forms.Form):
    reason = forms.CharField(max_length=500, label="Why the campaign ends")
