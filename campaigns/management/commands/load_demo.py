"""python manage.py load_demo: the demo club, its people and one campaign per game
system (campaigns.services.demo). Safe to run again: nothing is duplicated.

Its accounts share a published password, so it refuses a site configured for the
public (DEBUG off, ALLOWED_HOSTS beyond the loopback) unless told --yes-on-production.
"""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.errors import DomainError
from campaigns.models import Campaign
from campaigns.services import demo as demo_service
from muster import serving


class Command(BaseCommand):
    help = "Load the demo club, its people (password muster-demo) and a campaign per game system."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--yes-on-production",
            action="store_true",
            help="Load it even on a site configured for the public (its accounts' password is published).",
        )

    def handle(self, *args: Any, yes_on_production: bool = False, **options: Any) -> None:
        if serving.is_public(settings.DEBUG, settings.ALLOWED_HOSTS) and not yes_on_production:
            raise CommandError(
                "Nothing was loaded: this site is configured for the public (DEBUG is off and ALLOWED_HOSTS "
                f"names {', '.join(settings.ALLOWED_HOSTS)}), and the demo's accounts share the published "
                f"password {demo_service.PASSWORD!r}. If you really want them here, run "
                "`manage.py load_demo --yes-on-production`.",
                returncode=2,
            )
        try:
            demo = demo_service.load_demo()
        except DomainError as error:
            raise CommandError(error.message, returncode=2) from None
        for line in demo.made:
            self.stdout.write(f"  {line}")
        for line in demo.failed:
            self.stderr.write(f"  {line}")
        campaigns = Campaign.objects.filter(club=demo.club).count()
        url = settings.SITE_URL.rstrip("/") + "/"
        self.stdout.write(
            self.style.SUCCESS(f"Demo club “{demo.club.name}” is ready ({campaigns} campaign(s)).")
        )
        self.stdout.write(
            f"Open {url} and log in as (password {demo_service.PASSWORD}, for the demo only):"
        )
        for username, _ in demo_service.PEOPLE.values():
            note = {"demo-referee": "referee", "demo-organizer": "organizer"}.get(
                username, "player"
            )
            self.stdout.write(f"  {username:<16} {note}")
