"""Page forms. They only turn posted text into the values the services expect;
every rule is checked by the services (a DomainError becomes a form error).

Forms built from an event kind's schema fields live in campaigns.schema.forms
(SchemaForm: real widgets, never a JSON box); the ones here are for people, clubs
and campaign setup.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from django import forms
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.forms import PasswordChangeForm, UsernameField
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from campaigns.schema.forms import SchemaForm

from .models import Membership, Webhook

if TYPE_CHECKING:
    from campaigns.dice.tables import Table
    from campaigns.schema.fields import Field
    from campaigns.systems.base import GameSystem


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """A form's own copy of one of its choice fields, whose choices a page sets."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a choice field")
    return field


# --- people -----------------------------------------------------------------------------


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, the old password checked as a sign-in is: a
    wrong one counts towards the sign-in lockout of that username from that address
    (muster.signin, django-axes), and while locked out even the right one is refused (429)."""

    def __init__(
        self, user: User, *args: Any, request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        old: str = self.cleaned_data["old_password"]
        signed_in = authenticate(self.request, username=self.user.get_username(), password=old)
        if signed_in is None or signed_in.pk != self.user.pk:
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old


class SignupForm(forms.Form):
    username = UsernameField(max_length=150, help_text="Letters, digits and @/./+/-/_ only.")
    email = forms.EmailField(required=False, help_text="For password resets.")
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        get_user_model().username_validator(username)
        return username

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ.")
        elif one:
            user = get_user_model()(
                username=cleaned.get("username", ""), email=cleaned.get("email", "")
            )
            try:
                password_validation.validate_password(one, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="Club name")


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.ROLES, initial=Membership.PLAYER)
    email = forms.EmailField(
        required=False,
        label="E-mail address",
        help_text="Optional: Muster e-mails the invitation there. Without one, send the link "
        "yourself (it works for anyone who has it).",
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.ROLES)


class HandOverForm(forms.Form):
    username = forms.ChoiceField(label="New organizer", choices=())

    def __init__(self, *args: Any, members: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "username").choices = [(m, m) for m in members]


class WebhookForm(forms.Form):
    url = forms.CharField(
        max_length=500,
        label="Address (URL)",
        widget=forms.URLInput(attrs={"placeholder": "https://", "inputmode": "url"}),
        help_text="Where the club's public events are posted: a Discord channel's webhook address, "
        "or your own receiver's (https, on the public internet).",
    )
    format = forms.ChoiceField(
        choices=Webhook.FORMATS,
        initial=Webhook.PLAIN,
        widget=forms.RadioSelect,
        label="What is posted",
    )


# --- campaigns ----------------------------------------------------------------------------


class NewCampaignForm(SchemaForm):
    """Name, variant and the system's options (with the dice mode)."""

    def __init__(
        self, system: GameSystem, option_fields: Iterable[Field], *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(option_fields, *args, **kwargs)
        self.fields = {
            "name": forms.CharField(max_length=120, label="Campaign name"),
            "variant": forms.ChoiceField(
                choices=[(v.slug, v.name) for v in system.variants],
                label="Variant",
                help_text="; ".join(f"{v.name}: {len(v.calendar)} rounds" for v in system.variants),
            ),
            **self.fields,
        }


class PlayerForm(forms.Form):
    prefix_id = "player"
    side = forms.ChoiceField(choices=())
    username = forms.ChoiceField(label="Member", choices=())

    def __init__(
        self,
        *args: Any,
        sides: Iterable[tuple[str, str]] = (),
        members: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("auto_id", f"id_{self.prefix_id}_%s")
        super().__init__(*args, **kwargs)
        choice_field(self, "side").choices = list(sides)
        choice_field(self, "username").choices = [(m, m) for m in members]


class ReplaceForm(forms.Form):
    prefix_id = "replace"
    side = forms.ChoiceField(choices=())
    old = forms.ChoiceField(label="Player leaving", choices=())
    new = forms.ChoiceField(label="Member joining", choices=())

    def __init__(
        self,
        *args: Any,
        sides: Iterable[tuple[str, str]] = (),
        members: Iterable[str] = (),
        players: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("auto_id", f"id_{self.prefix_id}_%s")
        super().__init__(*args, **kwargs)
        choice_field(self, "side").choices = list(sides)
        choice_field(self, "old").choices = [(p, p) for p in players]
        choice_field(self, "new").choices = [(m, m) for m in members]


class RefereeForm(forms.Form):
    prefix_id = "referee"
    username = forms.ChoiceField(label="Referee", choices=(), required=False)

    def __init__(self, *args: Any, members: Iterable[str] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"id_{self.prefix_id}_%s")
        super().__init__(*args, **kwargs)
        choice_field(self, "username").choices = [("", "— no referee —")] + [
            (m, m) for m in members
        ]


class HouseRuleForm(forms.Form):
    """A house rule: a constant, or a table cell picked table → row → column from the system's
    own lists (``house_rule_table``: "constants" or a table id); ``key`` may be given instead
    ("table:row:column" or a constant's key)."""

    key = forms.CharField(max_length=200, required=False, widget=forms.HiddenInput)
    rule_table = forms.CharField(max_length=80, required=False, widget=forms.HiddenInput)
    row = forms.ChoiceField(label="Row", required=False, choices=())
    column = forms.ChoiceField(label="Column", required=False, choices=())
    value = forms.CharField(
        max_length=200, help_text="The club's value (a number like the book's, or text)."
    )
    note = forms.CharField(
        max_length=500, required=False, help_text="Why (shown beside the value)."
    )

    def __init__(
        self,
        *args: Any,
        system: GameSystem | None = None,
        table: str | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("auto_id", "id_hr_%s")
        super().__init__(*args, **kwargs)
        table = table or (self.data.get("rule_table") if self.is_bound else None)
        # What the rule changes: a constant, a table's cell, or not known yet (no table picked).
        self.table: Literal["constants"] | Table | None = None
        if system is not None and table == "constants":
            self.table = "constants"
            self.fields["row"].label = "Value"
            choice_field(self, "row").choices = constant_rows(system)
            self.fields[
                "value"
            ].required = False  # a reading picked from the list carries its value
            del self.fields["column"]
        elif system is not None and table in system.tables.tables:
            bound = system.tables.tables[table]
            self.table = bound
            self.fields["row"].label = "Row" if bound.dice is None else "Final roll (row)"
            choice_field(self, "row").choices = [(row.label, row.label) for row in bound.rows]
            choice_field(self, "column").choices = list(bound.columns.items())
        else:
            del self.fields["row"], self.fields["column"]
        self.initial.setdefault("rule_table", table or "")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        key = (cleaned.get("key") or "").strip()
        if not key and self.table == "constants":
            key = cleaned.get("row") or ""
            if READING in key:  # "key=reading": a constant that is a choice between readings
                key, reading = key.split(READING, 1)
                if cleaned.get("value") not in (None, "", reading):
                    self.add_error("value", "The reading picked is the value: leave this empty.")
                cleaned["value"] = reading
            elif cleaned.get("value") in (None, ""):
                self.add_error("value", "Give the club's value.")
        elif not key and self.table is not None and self.table != "constants":
            from campaigns.dice.tables import cell_key

            if cleaned.get("row") and cleaned.get("column"):
                key = cell_key(self.table.id, cleaned["row"], cleaned["column"])
        if not key:
            raise ValidationError("Choose the value to change.")
        cleaned["key"] = key
        return cleaned

    def clean_value(self) -> object:
        text: str = self.cleaned_data["value"].strip()
        try:
            return json.loads(text)
        except ValueError:
            return text


READING = "="


def constant_rows(system: GameSystem) -> list[tuple[str, str]]:
    """The constants a house rule may change; a constant that is a choice between readings of the
    rules (``choices``) gives one row per reading, picked with its value (the book's puts it back)."""
    rows: list[tuple[str, str]] = []
    for key, constant in system.constants().items():
        heading = f"{constant.get('label', key)} ({constant.get('rule', '')})"
        if constant.get("choices"):
            rows += [
                (
                    f"{key}{READING}{choice}",
                    f"{heading}: {choice}"
                    + (
                        " (the book's)"
                        if choice == constant["value"]
                        else f" — book: {constant['value']}"
                    ),
                )
                for choice in constant["choices"]
            ]
        else:
            rows.append((key, f"{heading} — book: {constant['value']}"))
    return rows


def house_rule_tables(system: GameSystem) -> list[tuple[str, str]]:
    """(id, words) of everything a house rule may change, grouped: the constants, then each table."""
    found = [("constants", "Numbers of the rules (constants)")]
    found += [(t.id, f"{t.name} ({t.rule})") for t in system.tables.tables.values()]
    return found


class ProposalForm(forms.Form):
    """A late house rule, or a full export, proposed to the other sides."""

    reason = forms.CharField(
        max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_proposal_%s")
        super().__init__(*args, **kwargs)


class FinishForm(forms.Form):
    reason = forms.CharField(max_length=500, label="Why the campaign ends")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_finish_%s")
        super().__init__(*args, **kwargs)


class LikeCampaignForm(NewCampaignForm):
    """A new campaign like a past one (services.campaigns.template_of): its name, variant and
    options to change, and its house rules and seats, each kept unless unticked; the referee."""

    def __init__(
        self,
        system: GameSystem,
        option_fields: Iterable[Field],
        *args: Any,
        rules: Iterable[tuple[str, str]] = (),
        seats: Iterable[tuple[str, str]] = (),
        members: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(system, option_fields, *args, **kwargs)
        self.fields["house_rules"] = forms.MultipleChoiceField(
            choices=list(rules),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label="House rules to keep",
        )
        self.fields["seats"] = forms.MultipleChoiceField(
            choices=list(seats),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label="Players to seat again",
            help_text="Each is seated as on the setup page; more can be added there afterwards.",
        )
        self.fields["referee"] = forms.ChoiceField(
            choices=[("", "No referee"), *((m, m) for m in members)],
            required=False,
            label="Referee",
        )

    def seat_pairs(self) -> list[tuple[str, str]]:
        """The seats ticked, as (side, username)."""
        pairs = (value.split(":", 1) for value in self.cleaned_data["seats"])
        return [(side, name) for side, name in pairs]
