"""A person's devices that take push notices: subscribing (the browser's PushSubscription checked
field by field: an endpoint is posted to like a webhook URL, so it must lead over https to a
public address unless the operator allows otherwise), removing, and the bound per person."""

from __future__ import annotations

import base64
import binascii

from django import forms
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from campaigns.errors import DomainError
from campaigns.models import PushSubscription
from campaigns.webhooks import addresses

MAX_PER_PERSON = 10  # devices; the eleventh is refused until one is removed
MAX_ENDPOINT = PushSubscription._meta.get_field("endpoint").max_length


def _decoded(value: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


class SubscriptionForm(forms.Form):
    """What a browser's PushSubscription gives (its toJSON(): endpoint, keys.p256dh, keys.auth)
    and the person's label for the device."""

    endpoint = forms.CharField(max_length=MAX_ENDPOINT, strip=True)
    p256dh = forms.CharField(max_length=100, strip=True)
    auth = forms.CharField(max_length=50, strip=True)
    label = forms.CharField(max_length=60, required=False, strip=True)

    def clean_endpoint(self) -> str:
        endpoint: str = self.cleaned_data["endpoint"]
        try:
            addresses.resolve(
                endpoint,
                field="endpoint",
                allow_http=settings.MUSTER_PUSH_ALLOW_HTTP,
                allow_private=settings.MUSTER_PUSH_ALLOW_PRIVATE,
                poster="push notices go",
            )
        except DomainError as error:
            raise forms.ValidationError(error.message) from None
        return endpoint

    def clean_p256dh(self) -> str:
        value: str = self.cleaned_data["p256dh"]
        raw = _decoded(value)
        if raw is None or len(raw) != 65 or raw[0] != 4:
            raise forms.ValidationError("This is not a device's public key (P-256, base64url).")
        return value

    def clean_auth(self) -> str:
        value: str = self.cleaned_data["auth"]
        raw = _decoded(value)
        if raw is None or len(raw) != 16:
            raise forms.ValidationError("This is not a device's auth secret (16 bytes, base64url).")
        return value


def subscribe(user: User, data: dict[str, str]) -> PushSubscription:
    """The device subscribed for `user` (its keys renewed when it was already; taken from another
    person when it was theirs: one device, the person signed in on it). A DomainError when
    `user` has MAX_PER_PERSON devices already."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one subscribe at a time
        mine = PushSubscription.objects.filter(user=user).exclude(endpoint=data["endpoint"])
        if mine.count() >= MAX_PER_PERSON:
            raise DomainError(
                "endpoint",
                f"At most {MAX_PER_PERSON} devices take your notices: remove one first.",
            )
        found, _ = PushSubscription.objects.update_or_create(
            endpoint=data["endpoint"],
            defaults={
                "user": user,
                "p256dh": data["p256dh"],
                "auth": data["auth"],
                "label": data.get("label") or "",
                "last_success_at": None,
            },
        )
    return found


def remove(user: User, *, pk: int | None = None, endpoint: str | None = None) -> bool:
    """One of `user`'s devices removed (by its id or its endpoint); whether there was one."""
    mine = PushSubscription.objects.filter(user=user)
    if pk is not None:
        mine = mine.filter(pk=pk)
    elif endpoint:
        mine = mine.filter(endpoint=endpoint)
    else:
        return False
    deleted, _ = mine.delete()
    return deleted > 0


def devices_of(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("created_at", "pk"))
