"""Composing and sending one notice mail, once.

The mail's words are its notices' own words and links (made absolute from SITE_URL), the
campaign's name (which its recipient, seated in it, sees on every page) and the unsubscribe and
settings links: nothing else about the campaign, so it tells no more than the notices may. A
notice read or resolved before the mail goes is left out; with none left, no mail goes.

Sent once (at most): the claim (`sent_at`) is written and committed before the mail server is
talked to, under the row's lock, so a task delivered twice, retried or sent again by the sweep,
even to two workers at once, finds it claimed and sends nothing; a mail server that refuses takes
the claim back and the task retries. A worker killed between the claim and the send leaves the
mail unsent: the notices stay in the inbox, and a reminder lost is better than one sent twice.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.models import MailChoice, Notice, NoticeMail

from . import unsubscribe
from .addresses import confirmed_address
from .choices import choice_for

MAX_NOTICES = 20  # per mail; the rest as "and N more", with a link to the inbox


def _site(path: str) -> str:
    site: str = settings.SITE_URL
    return site.rstrip("/") + path


def still_open(mail: NoticeMail) -> list[Notice]:
    """The mail's notices neither read nor resolved, oldest first."""
    return list(
        Notice.objects.filter(
            mail_entry__mail=mail, read_at=None, resolved_at=None, recipient_id=mail.recipient_id
        ).order_by("created_at", "pk")
    )


def compose(mail: NoticeMail, notices: list[Notice], address: str, choice: str) -> EmailMessage:
    user_id, campaign_id = mail.recipient_id, mail.campaign_id
    name = mail.campaign.name
    lines = [f"In {name}:", ""]
    for notice in notices[:MAX_NOTICES]:
        lines += [f"- {notice.words}", f"  {_site(notice.link)}"]
    more = len(notices) - MAX_NOTICES
    if more > 0:
        lines += ["", f"and {more} more: {_site(reverse('notices'))}"]
    how = "each at once" if choice == MailChoice.AT_ONCE else "a daily digest"
    one, every = unsubscribe.url(user_id, campaign_id), unsubscribe.url(user_id)
    lines += [
        "",
        "-- ",
        f"You get the notices of {name} by mail ({how}). Change it: "
        + _site(reverse("mail-settings")),
        f"No more mails of {name}: {one}",
        f"No more mails from Muster at all: {every}",
    ]
    count = len(notices)
    subject = f"{name}: {count} notice{'s' if count != 1 else ''} for you"
    return EmailMessage(
        subject,
        "\n".join(lines) + "\n",
        None,
        [address],
        headers={
            "List-Unsubscribe": f"<{one}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def _claim(mail_id: int) -> tuple[NoticeMail, EmailMessage] | None:
    """Under the row's lock: the mail claimed and composed; None when it is not to go (claimed,
    not due, or nothing left to say, nobody to say it to, or the campaign archived: then marked
    skipped)."""
    now = timezone.now()
    with transaction.atomic():
        mail = (
            NoticeMail.objects.select_for_update()
            .select_related("campaign")
            .filter(pk=mail_id, sent_at=None, due_at__lte=now)
            .first()
        )
        if mail is None:
            return None
        user = User.objects.get(pk=mail.recipient_id)
        notices, address = still_open(mail), confirmed_address(user) if user.is_active else None
        choice = choice_for(user.pk, mail.campaign_id)
        archived = mail.campaign.archived_at is not None  # an archived campaign sends nothing
        if not notices or address is None or choice == MailChoice.NOTHING or archived:
            NoticeMail.objects.filter(pk=mail.pk).update(sent_at=now, skipped=True)
            return None
        message = compose(mail, notices, address, choice)
        NoticeMail.objects.filter(pk=mail.pk).update(sent_at=now, notices_sent=len(notices))
    return mail, message


def send(mail_id: int) -> bool:
    """Send the mail if it is due and not sent; whether a mail went."""
    claimed = _claim(mail_id)
    if claimed is None:
        return False
    mail, message = claimed
    try:
        message.send()
    except BaseException:
        with transaction.atomic():  # not sent: the retry may send it
            NoticeMail.objects.filter(pk=mail.pk).update(sent_at=None, notices_sent=0)
        raise
    return True
