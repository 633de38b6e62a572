"""Write a club as one archive: the club, its members and roles, every campaign's journal."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.models import Club
from campaigns.services.club_archive import export_club


class Command(BaseCommand):
    help = (
        "Write a club (its members and roles, every campaign's full journal) as one zip archive, to move it "
        "to another site with replay_club (docs/operations.md). Never a password hash or an invitation."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's slug")
        parser.add_argument(
            "--output", "-o", default="-", help="the archive's file ('-': standard output)"
        )

    def handle(self, *args: Any, slug: str, output: str, **options: Any) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club {slug!r}.", returncode=2)
        data = export_club(club)
        if output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            with open(output, "wb") as handle:
                handle.write(data)
            self.stderr.write(
                f"{club.name}: {club.campaigns.count()} campaigns, {club.memberships.count()} "
                f"members written to {output}."
            )
