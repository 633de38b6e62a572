"""Write the journal of a campaign as JSON (docs/journal.md)."""

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.access import visibility
from campaigns.models import Campaign
from campaigns.services.journal_files import export_journal


class Command(BaseCommand):
    help = (
        "Write a campaign's journal as JSON. Without --as it is the operator's full export; "
        "with --as USER it is what that person may export (a side's export for a player)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign_id", type=int)
        parser.add_argument(
            "--as", dest="as_user", metavar="USERNAME", help="export as this person would"
        )
        parser.add_argument("--output", "-o", help="write to this file instead of standard output")

    def handle(
        self, *args: Any, campaign_id: int, as_user: str | None, output: str | None, **options: Any
    ) -> None:
        campaign = (
            Campaign.objects.select_related("club", "created_by").filter(pk=campaign_id).first()
        )
        if campaign is None:
            raise CommandError(f"No campaign {campaign_id}.", returncode=2)
        viewer = None
        if as_user:
            user = get_user_model().objects.filter(username=as_user).first()
            viewer = visibility.viewer_for(user, campaign) if user else None
            if viewer is None or not viewer.member:
                raise CommandError(
                    f"{as_user} is not a member of this campaign's club.", returncode=2
                )
        text = json.dumps(export_journal(campaign, viewer), indent=2, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            self.stdout.write(text, ending="")
