"""Carry every stored campaign to today's journal versions (migrate does it too)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.errors import DomainError
from campaigns.models import Campaign
from campaigns.services.upgrades import Outcome, upgrade_all


class Command(BaseCommand):
    help = (
        "Upgrade every stored campaign whose journal is at earlier versions (docs/journal.md): each "
        "upgrade is recorded in the campaign's journal and its journal as it was is archived. `migrate` "
        "runs this too. Exit code 2 when a journal cannot be upgraded (that campaign is left as it was)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would be upgraded, writing nothing"
        )

    def handle(self, *args: Any, dry_run: bool, **options: Any) -> None:
        failed: list[str] = []

        def report(campaign: Campaign, outcome: Outcome | DomainError) -> None:
            name = f"Campaign {campaign.pk} “{campaign.name}” ({campaign.club.slug})"
            if isinstance(outcome, DomainError):
                failed.append(name)
                self.stderr.write(f"{name}: NOT upgraded: {outcome.field}: {outcome.message}")
            else:
                verb = "would be" if dry_run else "was"
                self.stdout.write(f"{name} {verb} upgraded: {outcome.summary}.")

        done = upgrade_all(dry_run=dry_run, report=report)
        if not done:
            self.stdout.write("Every campaign is at today's journal versions.")
        if failed:
            raise CommandError(
                f"{len(failed)} campaign(s) could not be upgraded; they are left as they were and "
                "their pages show their stored state.",
                returncode=2,
            )
