"""Clubs, people and campaigns.

A campaign's play lives in its journal (`Event`): append-only, never edited.
`Snapshot`, `Side`, `SidePlayer`, `Scenario` and the status/referee fields of
`Campaign` are projections rebuilt from the journal after every append
(campaigns.projections); they exist so lists and permission checks can query.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    ORGANIZER = "organizer"
    PLAYER = "player"
    ROLES = [(ORGANIZER, "Organizer"), (PLAYER, "Player")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=ROLES, default=PLAYER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")
        ]
        ordering = ["club", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


def _invitation_code() -> str:
    return secrets.token_urlsafe(16)


def _invitation_expiry() -> datetime:
    return timezone.now() + timedelta(days=14)


class Invitation(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=40, unique=True, default=_invitation_code)
    role = models.CharField(max_length=20, choices=Membership.ROLES, default=Membership.PLAYER)
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=_invitation_expiry)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked = models.BooleanField(default=False)
    # Its e-mail, owed from the moment the invitation is stored (campaigns.services.invitation_mail):
    # when it was last asked of a worker (None: no address, no mail), the task asked (""
    # while none was sent: the broker was away), how many times the sweep asked again, and when it
    # went (the claim: set before the mail server is talked to, taken back if it refuses).
    mail_queued_at = models.DateTimeField(null=True, blank=True)
    mail_task_id = models.CharField(max_length=64, blank=True)
    mail_resent = models.PositiveSmallIntegerField(default=0)
    mail_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["mail_queued_at"],
                name="invitation_mail_owed",
                condition=models.Q(mail_queued_at__isnull=False, mail_sent_at__isnull=True),
            )
        ]

    @property
    def usable(self) -> bool:
        return not self.revoked and self.accepted_at is None and self.expires_at > timezone.now()


class ClubLogEntry(models.Model):
    """Who changed what in a club (members, roles, invitations, seat changes in a campaign in
    play): the audit trail a club reads across its campaigns. Append-only, written by
    campaigns.services.clubs and campaigns.services.seat_log."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(
        default=dict
    )  # usernames, roles, invitation id: never an invitation code

    class Meta:
        ordering = ["-at", "-pk"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("The club log is append-only.")
        super().save(*args, **kwargs)


class Campaign(models.Model):
    SETUP, ACTIVE, FINISHED = "setup", "active", "finished"
    STATUSES = [(SETUP, "Setting up"), (ACTIVE, "Active"), (FINISHED, "Finished")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="campaigns")
    system = models.CharField(max_length=40)
    variant = models.CharField(max_length=40)
    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Projections of the journal:
    status = models.CharField(max_length=20, choices=STATUSES, default=SETUP)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="refereed_campaigns",
    )
    last_seq = models.PositiveIntegerField(default=0)
    # The last change every member can see (a side's hidden steps leave it alone).
    updated_at = models.DateTimeField(default=timezone.now)
    # Each audience's position at last_seq (campaigns.kept_answers.viewcache): cache keys, never shown.
    positions = models.JSONField(default=dict, blank=True)
    # The journal versions its events are at ({"core": 1, "<system>": 3}: campaigns.versions) and the
    # Muster release that wrote or last upgraded them; None for campaigns stored before versions
    # (Muster 0.1.0): upgraded when next read, or by `migrate`.
    journal_versions = models.JSONField(null=True, blank=True, default=None)
    muster_release = models.CharField(max_length=40, blank=True, default="")
    # The club's bookkeeping, not the journal's: an organizer archives a campaign nobody plays
    # (out of the lists, still readable, no notices) and may restore it. Never a journal event.
    archived_at = models.DateTimeField(null=True, blank=True, default=None)
    archived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            # The list API's page of a club's campaigns, newest first, and their count (read
            # from the index's entries alone): out of the archive only, as the lists show them.
            models.Index(
                fields=["club", "-created_at", "-id"],
                condition=models.Q(archived_at=None),
                name="campaigns_listed",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Side(models.Model):
    """Projection: a side of a campaign, as the game system defines it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=80)
    order = models.PositiveSmallIntegerField(default=0)
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="SidePlayer", related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "slug"], name="side_slug_per_campaign")
        ]
        ordering = ["campaign", "order"]

    def __str__(self) -> str:
        return self.name


class SidePlayer(models.Model):
    """Projection: who plays a side (team play: several players per side)."""

    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="side_seats"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["side", "user"], name="one_seat_per_side")]


class Scenario(models.Model):
    """Projection: one round of the campaign (a CG half-day, a mission, a turn)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenarios")
    index = models.PositiveIntegerField()
    label = models.CharField(max_length=80)
    status = models.CharField(max_length=20)
    summary = models.JSONField(default=dict, blank=True)  # public result summary only

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index"], name="scenario_index_per_campaign"
            )
        ]
        ordering = ["campaign", "index"]


class Event(models.Model):
    """One entry of a campaign's append-only journal."""

    PUBLIC, SIDE, REFEREE = "public", "side", "referee"
    AUDIENCES = [(PUBLIC, "Club"), (SIDE, "One side"), (REFEREE, "Referee only")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(max_length=60)
    data = models.JSONField(default=dict)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.CharField(max_length=40, blank=True)
    audience = models.CharField(max_length=10, choices=AUDIENCES, default=PUBLIC)
    created_at = models.DateTimeField(default=timezone.now)
    # NULL, not "": the unique constraint below must not hold two events without a key.
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="event_seq_per_campaign"),
            # A key belongs to the person who sent it: another person's same key is a fresh one
            # (a shared key would let one person probe for another's submissions).
            models.UniqueConstraint(
                fields=["campaign", "actor", "idempotency_key"], name="event_idempotency_per_person"
            ),
        ]
        ordering = ["campaign", "seq"]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.pop("_allow_update", False):
            raise RuntimeError("Journal events are append-only.")
        super().save(*args, **kwargs)


class JournalArchive(models.Model):
    """A campaign's journal as it stood before an upgrade rewrote it (campaigns.versions): the
    events exactly as stored, kept so that nothing an upgrade changed is ever lost. Read-only."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="journal_archives"
    )
    archived_at = models.DateTimeField(default=timezone.now)
    journal_versions = models.JSONField(
        null=True, blank=True
    )  # the versions it was at (None: before versions)
    muster_release = models.CharField(
        max_length=40, blank=True
    )  # the release that wrote it ("" before 0.2)
    upgraded_by = models.CharField(max_length=40)  # the release that upgraded it
    summary = models.TextField(blank=True)  # what the upgrade did, in words
    events = (
        models.JSONField()
    )  # [{seq, uid, kind, at, actor, side, audience, data, idempotency_key}]

    class Meta:
        ordering = ["campaign", "-archived_at"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise RuntimeError("An archived journal is never changed.")
        super().save(*args, **kwargs)


class Snapshot(models.Model):
    """Cached state after `seq` events; dropped and rebuilt when the journal changes. `state` holds
    the state but for each side's private part of the game (``state["game"]["sides"][side]``),
    which is a SnapshotPart of its own: an append writes only the parts it changed
    (campaigns.services.snapshots, which alone reads and writes both)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="snapshot")
    seq = models.PositiveIntegerField()
    state = models.JSONField()


class SnapshotPart(models.Model):
    """One side's private part of a campaign's stored snapshot, at `position` among the sides, as
    JSON text (its keys in the fold's order): only ever read and written whole."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshot_parts")
    side = models.TextField()  # a key of state["game"]["sides"]: whatever text the game uses
    position = models.PositiveIntegerField()
    value = models.TextField()
    # campaigns.journal.state_digest.part_digest(value): an append tells a changed part, and an
    # audience's position hashes the parts it reads, without encoding the others again.
    digest = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side"], name="one_snapshot_part_a_side")
        ]


class Notice(models.Model):
    """Something that waits for one person (their side's step, a result to confirm, a proposal to
    agree to), or news for them (an invitation, a sheet ready, a campaign started): made by
    campaigns.notices from what that person's audience may see, never written by a door. Its
    words are drawn from the recipient's own cut; its key names what waits, never a value of it.
    An e-mail digest, a webhook outbox or a push reads these rows."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )  # None: a club's or the site's (an invitation)
    key = models.CharField(max_length=200)  # what waits: "turn/german", "proposal/<uid>", …
    words = models.CharField(max_length=300)  # a sentence the recipient may read
    link = models.CharField(max_length=300)  # the exact place to act, a path on this site
    waiting = models.BooleanField(default=True)  # resolved when nothing waits; else when read
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "campaign", "key"],
                condition=models.Q(resolved_at__isnull=True),
                name="one_open_notice_per_key",
            ),
            models.UniqueConstraint(
                fields=["recipient", "key"],
                condition=models.Q(resolved_at__isnull=True, campaign__isnull=True),
                name="one_open_club_notice_per_key",
            ),
        ]
        indexes = [
            # The header's unread count: one indexed count per page.
            models.Index(
                fields=["recipient", "read_at"],
                condition=models.Q(resolved_at__isnull=True),
                name="open_notices_by_recipient",
            ),
            models.Index(fields=["campaign", "resolved_at"], name="notices_by_campaign"),
            # The lists' "since when it waits for them" (campaign_lists.mine_sql): each campaign's
            # oldest open waiting notice of a person, read from the index's entries alone. Every
            # column the lookup reads is a key: SQLite reads the rows for a column that is only
            # in a partial index's condition (three times the time, with a notice or more for
            # every campaign of theirs).
            models.Index(
                fields=["recipient", "campaign", "created_at", "waiting", "resolved_at"],
                condition=models.Q(waiting=True, resolved_at__isnull=True),
                name="open_waiting_notices",
            ),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.recipient}: {self.words}"


class NoticeOutbox(models.Model):
    """A change of a campaign's journal whose notices are still to be made: written in the
    append's transaction (campaigns.notices.outbox), processed by a task after commit, sent again
    by the workers' sweep when the task was lost. `made_for`: the audiences' positions (and the
    campaign's status) the notices were made for, on the processed row."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notice_outbox")
    seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    processed_at = models.DateTimeField(null=True, blank=True)
    made_for = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["campaign", "processed_at"], name="notice_outbox_open")]
        ordering = ["campaign", "pk"]


def _webhook_secret() -> str:
    return secrets.token_hex(32)


class Webhook(models.Model):
    """A club's webhook: a URL told of the club's public events (campaigns.webhooks), each post
    signed with `secret`. Set by an organizer; the secret is shown to them once."""

    PLAIN, DISCORD = "json", "discord"
    FORMATS = [(PLAIN, "Plain JSON"), (DISCORD, "Discord (a one-line message)")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.CharField(max_length=500)
    format = models.CharField(max_length=20, choices=FORMATS, default=PLAIN)
    secret = models.CharField(max_length=64, default=_webhook_secret)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "pk"]


class WebhookDelivery(models.Model):
    """One club event owed to one webhook: the outbox row, written in the event's own transaction
    (one per webhook and event: a retried write adds none), delivered by a task, retried with
    back-off, then failed. `body`: the public words of the event, never a side's secret."""

    PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"
    STATUSES = [(PENDING, "Waiting to be sent"), (DELIVERED, "Delivered"), (FAILED, "Failed")]

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event_key = models.CharField(max_length=200)  # "campaign/12/started", "member/3/7", "test/…"
    event = models.JSONField()  # the public event: kind, words, campaign name, sides, result
    status = models.CharField(max_length=20, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(null=True, blank=True)  # a worker is sending it
    last_error = models.CharField(max_length=300, blank=True)  # in words
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "event_key"], name="one_delivery_per_webhook_and_event"
            )
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_due")]
        ordering = ["-created_at", "-pk"]


class MailChoice(models.TextChoices):
    """How a person hears of a campaign's notices by e-mail (campaigns.mails)."""

    AT_ONCE = "at_once", "Each at once"
    DIGEST = "digest", "A daily digest"
    NOTHING = "nothing", "Nothing"


class MailSettings(models.Model):
    """A person's e-mail of notices: their choice for campaigns they set nothing for, and the
    address they confirmed (campaigns.mails.addresses). Mail goes only to `User.email` while it
    equals `confirmed_email`: changing the address takes its confirmation away."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_settings"
    )
    default = models.CharField(max_length=10, choices=MailChoice.choices, default=MailChoice.DIGEST)
    confirmed_email = models.EmailField(blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)


class CampaignMailChoice(models.Model):
    """A person's choice of e-mail for one campaign (else their MailSettings.default)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    choice = models.CharField(max_length=10, choices=MailChoice.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "campaign"], name="one_mail_choice_per_campaign"
            )
        ]


class NoticeMail(models.Model):
    """The mail-outbox: one mail owed to a person for a campaign's notices in one window
    ("at-once/<first notice>" or "digest/<date>/<first notice>"), written in the transaction that puts its
    notices in it (campaigns.mails.outbox). `sent_at` is the claim, set before the mail server is
    talked to and taken back if it refuses; `skipped` when nothing was left to say (the notices
    read or resolved meanwhile) or no confirmed address: no mail then."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    window = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    skipped = models.BooleanField(default=False)
    notices_sent = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "campaign", "window"], name="one_mail_per_window"
            ),
            # Notices that come while a mail is still to go join it: one such mail at a time.
            models.UniqueConstraint(
                fields=["recipient", "campaign"],
                condition=models.Q(sent_at=None),
                name="one_mail_to_go_per_campaign",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], name="notice_mail_owed", condition=models.Q(sent_at=None)
            )
        ]


class NoticeMailEntry(models.Model):
    """A notice put in a mail (`mail` None: its recipient wanted no mail of it when it came). One
    per notice: a notice is planned once, so it is in one mail at most."""

    notice = models.OneToOneField(Notice, on_delete=models.CASCADE, related_name="mail_entry")
    mail = models.ForeignKey(
        NoticeMail, null=True, blank=True, on_delete=models.CASCADE, related_name="entries"
    )


class PushSubscription(models.Model):
    """A device's Web Push subscription (what its browser's PushManager gave): the push service's
    endpoint and the keys a payload is encrypted to. An endpoint is one device: subscribed by
    another person, it moves to them. Bounded: campaigns.push.subscriptions.MAX_PER_PERSON."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=100)  # the device's public key (base64url)
    auth = models.CharField(max_length=50)  # its auth secret (base64url)
    label = models.CharField(max_length=60, blank=True)  # "Pixel, Firefox": the person's words
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)


class NoticePush(models.Model):
    """A notice to be pushed to its recipient's devices, one per notice (written when the notice
    is planned, so it is pushed once at most); `sent_at` the claim, written before any post."""

    notice = models.OneToOneField(Notice, on_delete=models.CASCADE, related_name="push_entry")
    wanted = models.BooleanField(default=True)  # False: the recipient wanted nothing of it
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    devices_reached = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"], name="notice_push_owed", condition=models.Q(sent_at=None)
            )
        ]
