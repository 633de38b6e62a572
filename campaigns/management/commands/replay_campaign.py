"""Build a campaign from a journal file and print its resulting state as JSON."""

import json
import sys
from typing import Any, TypedDict

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.errors import DomainError
from campaigns.services.journal_files import full_state, plan_replay, read_journal, replay_journal


class _ReplayChoices(TypedDict):
    """The command's options as plan_replay and replay_journal take them."""

    user_map: dict[str, str]
    club_slug: str | None
    create_club: bool
    create_people: bool


class Command(BaseCommand):
    help = (
        "Build a campaign from a Muster journal (docs/journal.md) and print its state as JSON. "
        "The file is checked, never trusted: any fault exits with code 2 and writes nothing. A journal "
        "written by an earlier Muster is upgraded to today's journal versions first, and says so."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="journal file ('-' for standard input)")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="use existing person NEW wherever the journal names OLD (repeatable)",
        )
        parser.add_argument(
            "--club", help="replay into this existing club (slug) instead of creating the journal's"
        )
        parser.add_argument(
            "--create-club",
            action="store_true",
            help="create the journal's club (refused if a club with its slug exists)",
        )
        parser.add_argument(
            "--create-people",
            action="store_true",
            help="create the people the journal names who do not exist here (no password)",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="check the file and say what would be written (club, people, events, "
            "upgrades), writing nothing",
        )

    def handle(
        self,
        *args: Any,
        file: str,
        map: list[str],
        club: str | None,
        create_club: bool,
        create_people: bool,
        dry_run: bool,
        **options: Any,
    ) -> None:
        user_map: dict[str, str] = {}
        for pair in map:
            old, sep, new = pair.partition("=")
            if not sep or not old or not new:
                raise CommandError(f"--map {pair!r}: write OLD=NEW.", returncode=2)
            user_map[old] = new
        raw = self._read(file)
        how: _ReplayChoices = {
            "user_map": user_map,
            "club_slug": club,
            "create_club": create_club,
            "create_people": create_people,
        }
        try:
            document = read_journal(raw)
            if dry_run:
                for line in plan_replay(document, **how).describe():
                    self.stdout.write(line)
                self.stdout.write("Nothing was written (--dry-run).")
                return
            replayed = replay_journal(document, **how)
        except DomainError as error:
            raise CommandError(f"{error.field}: {error.message}", returncode=2) from None
        campaign = replayed.campaign
        if replayed.upgraded.ran:
            self.stderr.write(f"Journal {replayed.upgraded.summary()}.")
        state = full_state(campaign)
        self.stdout.write(
            json.dumps({"campaign": campaign.pk, "state": state}, indent=2, sort_keys=True)
        )

    def _read(self, file: str) -> bytes:
        """The file's bytes, reading at most one byte past the limit (refused before parsing)."""
        limit = settings.MUSTER_JOURNAL_MAX_BYTES
        try:
            if file == "-":
                return sys.stdin.buffer.read(limit + 1)
            with open(file, "rb") as handle:
                return handle.read(limit + 1)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=2) from None
