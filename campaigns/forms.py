"""Page forms. They only turn posted text into the values the services expect;
every rule is checked by the services (a DomainError becomes a form error).

Forms built from an event kind's schema fields live in campaigns.schema_forms
(SchemaForm: real widgets, never a JSON box); the ones here are for people, clubs
and campaign setup.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import UsernameField
from django.core.exceptions import ValidationError

from .models import Membership
from .schema_forms import SchemaForm

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
