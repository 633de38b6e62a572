"""An invitation given an e-mail address is e-mailed (through Django's mail backend) by a
Celery task, campaigns.tasks.send_invitation. The task is handed the invitation's id only: its
code is a key to the club and never goes through the broker or its logs; the mail is composed
here, from the database, when it is sent.

The mail is owed from the moment the invitation is stored: its row says so, in the same
transaction (``Invitation.mail_queued_at``; ``mail_sent_at`` stays empty until it goes). A task
lost with the broker — sent while Redis was away, or lost when it restarted empty — is sent again
by the workers' sweep (``sweep``, run every few seconds by rosters.sweep) once its task is in no
queue of the broker, at most MAX_RESENT times (a mail server that refuses an address for ever does
not keep the workers busy for ever). Sent once all the same: ``send`` claims the mail first.
"""

from __future__ import annotations

import logging
import textwrap
import uuid
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import dateformat, timezone

from muster import connection_loss, queues
from rosters import broker

from ..models import ClubLogEntry, Invitation, Membership

logger = logging.getLogger(__name__)

EMAILED = "invitation.emailed"  # the club log's record that the mail went (sent once)
QUEUED_BOUND = timedelta(seconds=5)  # owed this long with its task in no queue of the broker: lost
MAX_RESENT = 3  # times the sweep sends the task again for one mail


def enqueue(invitation_id: int, resend: bool = False) -> None:
    """Send the task (call after commit: the worker must see the row), and note its id on the
    invitation: the sweep looks for it in the broker. A broker outage leaves the mail owed with no
    task, and the sweep sends it once the broker is back; the request itself does not fail. A
    resend counts towards MAX_RESENT only once its task is in the broker: the sweep keeps trying
    while Redis is away or has not got its queues back."""
    send_invitation = queues.task("campaigns.tasks.send_invitation")
    task_id = str(uuid.uuid4())
    try:
        send_invitation.apply_async(
            args=(invitation_id,), queue=settings.CELERY_TASK_DEFAULT_QUEUE, task_id=task_id
        )
    except Exception:  # noqa: BLE001 - a broker outage must not turn a saved invitation into a 500
        logger.exception("Could not enqueue the e-mail of invitation %s", invitation_id)
        return
    connection_loss.retrying(
        lambda: Invitation.objects.filter(
            pk=invitation_id, mail_sent_at__isnull=True, mail_task_id=""
        ).update(mail_task_id=task_id, **({"mail_resent": F("mail_resent") + 1} if resend else {})),
        f"noting the task of the e-mail of invitation {invitation_id}",
    )


def send(invitation_id: int) -> bool:
    """E-mail the invitation, once. False when there is nothing to send: no address, already sent,
    or no longer usable (withdrawn, used or expired before the task ran).

    The claim (``mail_sent_at``, and the club log's entry) is written and committed before the
    mail goes, so that a task delivered twice, or sent again by the sweep, even to two workers at
    once, sends one mail, and the mail server is talked to with no transaction open and no row
    locked (it may take EMAIL_TIMEOUT seconds: withdrawing the invitation meanwhile must not wait
    for it). A mail that fails takes its claim back and the task retries; a worker killed between
    the two leaves the claim, the mail unsent and the link on the club page (one mail at most: a
    second is worse than none for an invitation)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("club", "created_by")
            .filter(pk=invitation_id)
            .first()
        )
        if invitation is None or not invitation.email or not invitation.usable:
            return False
        if invitation.mail_sent_at is not None:
            return False  # the task ran twice (redelivered, retried, sent again): one mail
        subject, body = compose(invitation)
        claim = ClubLogEntry.objects.create(
            club=invitation.club,
            actor=invitation.created_by,
            action=EMAILED,
            detail={"invitation": invitation.pk, "email": invitation.email},
        )
        Invitation.objects.filter(pk=invitation.pk).update(mail_sent_at=timezone.now())
    try:
        send_mail(subject, body, None, [invitation.email])
    except BaseException:
        with transaction.atomic():  # not sent: the retry may send it
            ClubLogEntry.objects.filter(pk=claim.pk).delete()
            Invitation.objects.filter(pk=invitation.pk).update(mail_sent_at=None)
        raise
    return True


def owed() -> Q:
    """Invitations whose mail is owed and not sent, still usable."""
    return Q(
        mail_queued_at__isnull=False,
        mail_sent_at__isnull=True,
        revoked=False,
        accepted_at__isnull=True,
        expires_at__gt=timezone.now(),
    ) & ~Q(email="")


def sweep(limit: int = 100) -> int:
    """Send again the task of every mail owed whose task is gone (sent while the broker was away,
    or lost with it); how many. A broker that cannot be read leaves them be. Run by every worker
    every few seconds (rosters.sweep): the conditional update lets one worker send each."""
    now = timezone.now()
    waiting = list(
        Invitation.objects.filter(owed(), mail_queued_at__lt=now - QUEUED_BOUND)
        .filter(mail_resent__lt=MAX_RESENT)
        .order_by("mail_queued_at")
        .values_list("pk", "mail_task_id", "mail_queued_at")[:limit]
    )
    if not waiting:
        return 0
    # Held: waiting in the queue, or delivered to a worker and not acknowledged however long ago
    # (a mail's retry waits up to 10 minutes in a worker for its countdown).
    held = broker.held_task_ids(settings.CELERY_TASK_DEFAULT_QUEUE, delivered_within=None)
    if held is None:
        return 0
    resent = 0
    for pk, task_id, queued_at in waiting:
        if task_id in held:
            continue
        moved = Invitation.objects.filter(
            pk=pk, mail_sent_at__isnull=True, mail_task_id=task_id, mail_queued_at=queued_at
        ).update(mail_task_id="", mail_queued_at=now)
        if moved:
            logger.warning("The e-mail of invitation %s had no task in the broker: sent again", pk)
            transaction.on_commit(partial(enqueue, pk, resend=True))
            resent += 1
    return resent


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
