"""Old print jobs and their files can be pruned; a deleted job leaves no file."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from rosters.models import PrintJob


def test_prune_deletes_old_finished_jobs_and_their_files(
    skirmish, people, request_job, settings, django_capture_on_commit_callbacks
):
    old = request_job(people["alice"], skirmish)
    recent = request_job(people["alice"], skirmish, paper="Letter")
    PrintJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=40))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("prune_sheets", "--days", "30")
    assert list(PrintJob.objects.values_list("pk", flat=True)) == [recent.pk]
    files = {p.name for p in (settings.MEDIA_ROOT / "sheets").iterdir()}
    assert files == {recent.file.name.split("/")[-1]}


def test_deleting_a_campaign_deletes_its_pdfs(
    skirmish, people, request_job, settings, django_capture_on_commit_callbacks
):
    request_job(people["alice"], skirmish)
    with django_capture_on_commit_callbacks(execute=True):
        skirmish.delete()
    assert list((settings.MEDIA_ROOT / "sheets").iterdir()) == []


def test_prune_refuses_nonsense(db):
    with pytest.raises(CommandError):
        call_command("prune_sheets", "--days", "0")
