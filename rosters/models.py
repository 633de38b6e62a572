"""Rosters: units and soldiers as the journal leaves them.

RosterEntry rows are a projection of the campaign state (rebuilt after every
change), so lists can be paginated and scoped in the database. The truth is the
journal; a unit's history over time is the history of the events that touched it.
"""

import secrets
import uuid
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from campaigns.models import Campaign


class RosterEntry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roster_entries")
    key = models.CharField(max_length=120)  # stable id of the unit within its campaign
    side = models.CharField(max_length=40, blank=True)
    audience = models.CharField(max_length=10, default="public")  # public | side
    kind = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=40, blank=True)
    data = models.JSONField(default=dict, blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="roster_key_per_campaign")
        ]
        ordering = ["campaign", "side", "order"]
        indexes = [models.Index(fields=["campaign", "side", "audience"])]

    def __str__(self) -> str:
        return self.name


def _sheet_file_name(instance: "PrintJob", filename: str) -> str:
    # A random name: file names are never guessable, and downloads go through a
    # permission-checked view anyway (MEDIA is never served directly).
    return f"sheets/{secrets.token_urlsafe(24)}.pdf"


class PrintJob(models.Model):
    """One PDF of one sheet, for one audience, of one campaign state.

    ``content_hash`` covers everything printed (the render context stored in
    ``context``), the audience, the paper, the sheet and the template version:
    the same request twice finds the same job and renders once.
    """

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Rendering"), (DONE, "Ready"), (FAILED, "Failed")]
    A4, LETTER = "A4", "Letter"
    PAPERS = [(A4, "A4"), (LETTER, "US Letter")]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No campaign: a blank sheet of `system` (empty rows, nothing of any campaign: audience "blank")
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="print_jobs"
    )
    system = models.CharField(max_length=60, blank=True)  # a blank sheet's game system
    sheet = models.CharField(max_length=60)
    paper = models.CharField(max_length=10, choices=PAPERS, default=A4)
    audience = models.CharField(max_length=60)  # public | side:<slug> | referee | blank
    content_hash = models.CharField(max_length=64)
    title = models.CharField(max_length=200, blank=True)  # "Supply record, Red only": for lists
    context = models.JSONField()  # what is printed: the render works from this alone
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)  # 0-100
    error = models.CharField(max_length=300, blank=True)  # shown to users: never a secret
    file = models.FileField(upload_to=_sheet_file_name, blank=True, max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)  # render attempts since last queued
    task_id = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(
        null=True, blank=True
    )  # a running job past this is abandoned
    heartbeat_at = models.DateTimeField(
        null=True, blank=True
    )  # its task was alive then (rosters.heartbeat)
    claimed_by = models.CharField(max_length=120, blank=True)  # host:pid of the rendering worker

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "content_hash"], name="one_print_job_per_content"
            ),
            models.UniqueConstraint(
                fields=["content_hash"],
                condition=models.Q(campaign__isnull=True),
                name="one_blank_print_job_per_content",
            ),
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="print_job_progress_max_100"
            ),
        ]
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["campaign", "audience", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.sheet} ({self.audience}, {self.paper}): {self.status}"


class AskedAgain(models.Model):
    """A person asked again for a job that failed or lost its task, and it went back in the queue:
    a render asked for as much as a new job is, so rosters.print_limits counts it with them."""

    job = models.ForeignKey(PrintJob, on_delete=models.CASCADE, related_name="asked_again")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["at"])]

    def __str__(self) -> str:
        return f"{self.job_id} asked again at {self.at:%Y-%m-%d %H:%M}"


class PaperChoice(models.Model):
    """The paper a person prints on (A4 or US Letter), remembered from the last sheet they asked
    for; without a row, settings.SHEET_PAPER_DEFAULT (rosters.services.paper_for)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="paper_choice"
    )
    paper = models.CharField(max_length=10, choices=PrintJob.PAPERS, default=PrintJob.A4)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.paper}"


@receiver(post_delete, sender=PrintJob)
def _delete_sheet_file(sender: type[PrintJob], instance: PrintJob, **kwargs: Any) -> None:
    """A job's PDF goes with it (also when its campaign is deleted), once that commits."""
    if instance.file and instance.file.name:  # a FieldFile is true when it has a name
        storage, name = instance.file.storage, instance.file.name
        transaction.on_commit(lambda: storage.delete(name))
