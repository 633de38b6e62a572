"""Delete print jobs (and their PDFs) older than some days: they are caches, any
sheet can be requested again. `python manage.py prune_sheets --days 30`."""

from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from rosters.models import PrintJob


class Command(BaseCommand):
    help = "Delete print jobs and their PDF files older than --days (default 30); jobs in progress are kept."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--days", type=int, default=30)

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        if days < 1:
            raise CommandError("--days must be at least 1.")
        old = PrintJob.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).exclude(
            status__in=[PrintJob.QUEUED, PrintJob.RUNNING]
        )
        count = 0
        for job in old.iterator():
            job.delete()  # its file goes with it (rosters.models)
            count += 1
        self.stdout.write(f"Deleted {count} print job(s) older than {days} days.")
