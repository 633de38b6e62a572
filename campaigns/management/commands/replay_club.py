"""Restore a club from an archive written by export_club (another site's, or this one's)."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.errors import DomainError
from campaigns.services.club_archive import MAX_CAMPAIGNS, replay_club


class Command(BaseCommand):
    help = (
        "Restore a club from its archive (export_club): the club, its members and roles, every campaign. "
        "All or nothing: any fault exits with code 2 and writes nothing. People are found or made as "
        "replay_campaign does."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="use existing person NEW wherever the archive names OLD (repeatable)",
        )
        parser.add_argument(
            "--create-people",
            action="store_true",
            help="create the people the archive names who do not exist here (no password)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="check everything and say what would be done"
        )

    def handle(
        self,
        *args: Any,
        file: str,
        map: list[str],
        create_people: bool,
        dry_run: bool,
        **options: Any,
    ) -> None:
        user_map = {}
        for pair in map:
            old, sep, new = pair.partition("=")
            if not sep or not old or not new:
                raise CommandError(f"--map {pair!r}: write OLD=NEW.", returncode=2)
            user_map[old] = new
        limit = settings.MUSTER_JOURNAL_MAX_BYTES * (MAX_CAMPAIGNS + 1)
        try:
            with open(file, "rb") as handle:
                raw = handle.read(limit + 1)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=2) from None
        if len(raw) > limit:
            raise CommandError("file: Too large for a club archive.", returncode=2)
        try:
            _, said = replay_club(
                raw, user_map=user_map, create_people=create_people, dry_run=dry_run
            )
        except DomainError as error:
            raise CommandError(f"{error.field}: {error.message}", returncode=2) from None
        for line in said:
            self.stdout.write(line)
        if dry_run:
            self.stdout.write("Nothing was written (--dry-run).")
