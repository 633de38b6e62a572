"""The journal versions of this Muster: the core's and each game's, and whether their signatures
are the ones kept for those versions (docs/journal.md, "Bumping a version")."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns import versions
from campaigns.versions import signatures


class Command(BaseCommand):
    help = (
        "List the journal version of the core and of every game system and check each against the "
        "signature kept for it; --record keeps today's signature for a version that has none yet."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--record",
            action="store_true",
            help="record today's signature for each journal version not recorded yet "
            "(a recorded version never changes: bump the version instead)",
        )

    def handle(self, *args: Any, record: bool, **options: Any) -> None:
        self.stdout.write(f"Muster {versions.release()}")
        problems = []
        for journal, version, signature, path in signatures.journals():
            if record:
                try:
                    self.stdout.write(signatures.record(journal, version, signature, path))
                except ValueError as error:
                    problems.append(str(error))
                continue
            problem = signatures.problem(journal, version, signature, path)
            kept = str(version) in signatures.read(path)["versions"]
            self.stdout.write(
                f"{journal} v{version}: "
                f"{'ok' if problem is None else 'CHANGED' if kept else 'not recorded'}"
            )
            if problem:
                problems.append(problem)
        if problems:
            raise CommandError("\n".join(problems), returncode=2)
