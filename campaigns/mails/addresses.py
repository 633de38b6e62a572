"""Confirmed addresses: notices are mailed only to an address its owner showed they read. A
confirm link (signed, expiring after CONFIRM_DAYS) is mailed when an address is set or changed;
an address an invitation was mailed to and accepted from counts as confirmed (whoever accepted
read that mail). Changing the address takes the confirmation away until the new one is confirmed.
"""

from __future__ import annotations

import logging
import textwrap
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.models import MailSettings
from muster import queues

log = logging.getLogger(__name__)
SALT = "muster.mails.confirm-address"
CONFIRM_DAYS = 3


def confirmed_address(user: User) -> str | None:
    """The address mail may go to: `user`'s own, if confirmed; else None."""
    email = (user.email or "").strip()
    if not email:
        return None
    found = MailSettings.objects.filter(user=user, confirmed_at__isnull=False).first()
    if found is None or found.confirmed_email.lower() != email.lower():
        return None
    return email


def confirm(user: User, email: str) -> bool:
    """`email` confirmed for `user`, if it is still their address; whether it was."""
    if not email or (user.email or "").strip().lower() != email.strip().lower():
        return False
    MailSettings.objects.update_or_create(
        user=user, defaults={"confirmed_email": user.email, "confirmed_at": timezone.now()}
    )
    return True


def token_for(user: User) -> str:
    return signing.dumps([user.pk, user.email], salt=SALT)


def confirm_token(token: str) -> User | None:
    """Confirm the address a token was made for (a link from a confirmation mail): the person,
    or None when the token is bad, expired, or names an address no longer theirs."""
    try:
        user_id, email = signing.loads(token, salt=SALT, max_age=timedelta(days=CONFIRM_DAYS))
    except (signing.BadSignature, ValueError, TypeError):
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not confirm(user, str(email)):
        return None
    return user


def set_address(*, user: User, email: str) -> bool:
    """`user`'s address changed to `email`; a confirm link is mailed to it after commit (unless
    that address is already confirmed). Whether a link was sent."""
    email = email.strip()
    user.email = email
    user.save(update_fields=["email"])
    if not email or confirmed_address(user):
        return False
    ask_to_confirm(user.pk)
    return True


def ask_to_confirm(user_id: int) -> None:
    """After commit, the task that mails the confirm link (a broker away: "send again")."""

    def enqueue() -> None:
        try:
            queues.task("campaigns.tasks.send_address_confirmation").apply_async(
                args=(user_id,), queue=settings.CELERY_TASK_DEFAULT_QUEUE
            )
        except Exception:  # noqa: BLE001 - the page says "send again"; the change stands
            log.exception("could not enqueue the confirmation mail of person %s", user_id)

    transaction.on_commit(enqueue)


def send_confirmation(user_id: int) -> bool:
    """Mail the confirm link to `user`'s address, unless it is gone or already confirmed."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or confirmed_address(user):
        return False
    site: str = settings.SITE_URL
    url = site.rstrip("/") + reverse("mails-confirm", args=[token_for(user)])
    text = (
        f"Hello {user.username},\n\n"
        + textwrap.fill(
            "Someone (you, we hope) gave this address to Muster for the e-mail of their "
            "notices. To confirm it is yours, open this link and press Confirm:",
            72,
        )
        + f"\n\n{url}\n\n"
        + textwrap.fill(
            f"The link works for {CONFIRM_DAYS} days. If this was not you, ignore this mail: "
            "nothing is sent to this address unless it is confirmed.",
            72,
        )
        + "\n\nMuster\n"
    )
    send_mail("Confirm your e-mail address on Muster", text, None, [user.email])
    return True
