"""Plan the notices not yet in a mail and send the mails come due (the daily digest at its hour):
what every worker's sweep does. For a site that runs no worker (tasks inline), from cron, say every
ten minutes (docs/operations.md, "E-mail")."""

from typing import Any

from django.core.management.base import BaseCommand

from campaigns.mails import outbox


class Command(BaseCommand):
    help = "Put new notices into their mails and send the mails come due (each one once)."

    def handle(self, *args: Any, **options: Any) -> None:
        planned = outbox.plan()
        sent = outbox.send_due()
        self.stdout.write(f"{planned} notice(s) planned, {sent} mail(s) sent or asked of a worker")
