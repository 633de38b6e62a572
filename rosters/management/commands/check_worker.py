"""python manage.py check_worker [--timeout 10]: asks the workers of the sheets queue and of the
odds queue what they work with (rosters.health) and says it, with the broker's eviction policy.
Exit 0 when both answered on this site's database, the sheets worker can make PDFs and the
broker never evicts a task; 1 otherwise, 2 on a bad option."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rosters import health


class Command(BaseCommand):
    help = (
        "Check that workers answer on this site's sheets and odds queues, use its database, can make PDFs, "
        "and that the broker never evicts a task."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--timeout", type=float, default=10, help="seconds to wait for an answer (default 10)"
        )

    def handle(self, *args: Any, timeout: float, **options: Any) -> None:
        if not 0 < timeout <= health.MAX_TIMEOUT:
            raise CommandError(
                f"--timeout must be more than 0 and at most {health.MAX_TIMEOUT} seconds.",
                returncode=2,
            )
        check = health.check_worker(timeout)
        if check.inline:
            self.stdout.write(
                "No broker is configured (REDIS_URL is empty): sheets render inline, in the web "
                "process; no worker is needed."
            )
            if check.answer is not None:  # always when inline: this process's own
                self._describe(check.answer, sheets=True)
        for asked in check.queues:
            answer = asked.answer
            if answer:
                self.stdout.write(
                    f"Worker {answer['hostname']} (pid {answer['pid']}) answered on the {asked.role} "
                    f"queue in {asked.seconds:.1f} s."
                )
                self._describe(answer, sheets=asked.role == "sheets")
        if check.queues:
            self.stdout.write(
                f"Broker  maxmemory-policy {check.broker_policy or 'unknown (CONFIG refused)'}"
            )
        for problem in check.problems:
            self.stderr.write(problem)
        if check.problems:
            raise CommandError("The worker check failed.", returncode=1)
        self.stdout.write(
            self.style.SUCCESS("The workers are ready." if check.queues else "Sheets are ready.")
        )

    def _describe(self, answer: health.ProcessFacts, sheets: bool) -> None:
        self.stdout.write(f"  database    {health.describe_database(answer)}")
        self.stdout.write(f"  queue       {answer['queue'] or '(inline)'}")
        if sheets:
            self.stdout.write(f"  WeasyPrint  {answer['weasyprint'] or 'not available'}")
            self.stdout.write(f"  MEDIA_ROOT  {answer['media_root']}")
