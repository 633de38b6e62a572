"""An invitation given an e-mail address is e-mailed (through Django's mail backend) by a
Celery task, campaigns.tasks.send_invitation. The task is handed the invitation's id only: its
code is a key to the club and never goes through the broker or its logs; the mail is composed
here, from the database, when it is sent."""

from __future__ import annotations

import logging
import textwrap

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import dateformat, timezone

from muster import queues

from ..models import ClubLogEntry, Invitation, Membership

logger = logging.getLogger(__name__)

EMAILED = "invitation.emailed"  # the club log's record that the mail went (sent once)


def enqueue(invitation_id: int) -> None:
    """Send the task (call after commit: the worker must see the row). A broker outage leaves the
    invitation as it is, its link on the club page; the request itself does not fail."""
    send_invitation = queues.task("campaigns.tasks.send_invitation")
    try:
        send_invitation.apply_async(args=(invitation_id,), queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    except Exception:  # noqa: BLE001 - a broker outage must not turn a saved invitation into a 500
        logger.exception("Could not enqueue the e-mail of invitation %s", invitation_id)


def send(invitation_id: int) -> bool:
    """E-mail the invitation, once. False when there is nothing to send: no address, already sent,
    or no longer usable (withdrawn, used or expired before the task ran).

    The club log's entry is the claim: written and committed before the mail goes, so that a task
    delivered twice, even to two workers at once, sends one mail, and the mail server is talked to
    with no transaction open and no row locked (it may take EMAIL_TIMEOUT seconds: withdrawing the
    invitation meanwhile must not wait for it). A mail that fails takes its claim back and the task
    retries; a worker killed between the two leaves the claim, the mail unsent and the link on the
    club page (one mail at most: a second is worse than none for an invitation)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("club", "created_by")
            .filter(pk=invitation_id)
            .first()
        )
        if invitation is None or not invitation.email or not invitation.usable:
            return False
        if ClubLogEntry.objects.filter(
            club=invitation.club, action=EMAILED, detail__invitation=invitation.pk
        ).exists():
            return False  # the task ran twice (redelivered): one mail
        subject, body = compose(invitation)
        claim = ClubLogEntry.objects.create(
            club=invitation.club,
            actor=invitation.created_by,
            action=EMAILED,
            detail={"invitation": invitation.pk, "email": invitation.email},
        )
    try:
        send_mail(subject, body, None, [invitation.email])
    except BaseException:
        ClubLogEntry.objects.filter(pk=claim.pk).delete()  # not sent: the retry may send it
        raise
    return True


def link(invitation: Invitation) -> str:
    site: str = settings.SITE_URL
    return site.rstrip("/") + reverse("join", args=[invitation.code])


def compose(invitation: Invitation) -> tuple[str, str]:
    """(subject, text) in words a newcomer understands: who invites, to which club, the link,
    until when it works, and what to do if unexpected."""
    club, inviter = invitation.club.name, _name(invitation.created_by)
    role = (
        "as an organizer (you will be able to invite people and set up campaigns)"
        if invitation.role == Membership.ORGANIZER
        else "as a player"
    )
    until = timezone.localtime(invitation.expires_at)
    days = max(1, round((invitation.expires_at - timezone.now()).total_seconds() / 86400))
    subject, url = f"{inviter} invites you to join {club} on Muster", link(invitation)
    paragraphs = [
        "Hello,",
        f"{inviter} invites you to join {club} {role}. {club} is a wargame club that keeps its campaigns on "
        "Muster, a website where each player records what happened at the table and sees what comes next.",
        "To join, open this link:",
        url,  # on a line of its own, never wrapped
        "There you choose a username and a password (or sign in, if you already have an account on this site). "
        f"The link works once, until {dateformat.format(until, 'l j F Y, H:i')} ({settings.TIME_ZONE}), "
        f"{days} day{'s' if days != 1 else ''} from now.",
        "If you were not expecting this, ignore this e-mail: nothing happens unless you open the link and join.",
        f"Muster, for {club}",
    ]
    body = (
        "\n\n".join(
            p if p == url else textwrap.fill(p, 72, break_long_words=False, break_on_hyphens=False)
            for p in paragraphs
        )
        + "\n"
    )
    return subject, body


def _name(user: User) -> str:
    full = user.get_full_name().strip()
    return f"{full} ({user.username})" if full else user.username
