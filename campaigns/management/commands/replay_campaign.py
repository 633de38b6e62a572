"""Build a campaign from a journal file and print its resulting state as JSON."""

import json

from django.core.management.base import BaseCommand, CommandError

from campaigns.errors import DomainError
from campaigns.journal_io import full_state, replay


class Command(BaseCommand):
    help = "Build a campaign from a Muster journal (docs/journal.md) and print its state as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="journal file ('-' for standard input)")
        parser.add_argument(
            "--map", action="append", default=[], metavar="OLD=NEW",
            help="use existing user NEW wherever the journal names OLD (repeatable)",
        )
        parser.add_argument("--club", help="replay into this existing club (slug) instead of the journal's")

    def handle(self, *args, file, map, club, **options):
        user_map = {}
        for pair in map:
            old, sep, new = pair.partition("=")
            if not sep or not old or not new:
                raise CommandError(f"--map {pair!r}: write OLD=NEW.", returncode=2)
            user_map[old] = new
        try:
            if file == "-":
                import sys

                document = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    document = json.load(handle)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=2) from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{file}: not valid JSON (line {error.lineno}: {error.msg})", returncode=2) from None
        try:
            campaign = replay(document, user_map=user_map, club_slug=club)
        except DomainError as error:
            raise CommandError(f"{error.field}: {error.message}", returncode=2) from None
        state = full_state(campaign)
        self.stdout.write(json.dumps({"campaign": campaign.pk, "state": state}, indent=2, sort_keys=True))
