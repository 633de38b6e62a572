"""python manage.py load_demo: the demo club, its people, and one campaign per
game system (each system's ``demo`` hook). Safe to run again: nothing is duplicated."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Club, Membership
from campaigns.systems import all_systems

PASSWORD = "muster-demo"
CLUB_NAME, CLUB_SLUG = "Demo Club", "demo-club"
# role in the hook's users dict -> (username, club role)
PEOPLE = {
    "organizer": ("demo-organizer", Membership.ORGANIZER),
    "alice": ("demo-alice", Membership.PLAYER),
    "bob": ("demo-bob", Membership.PLAYER),
    "referee": ("demo-referee", Membership.PLAYER),
}


def load_demo(stdout=None, stderr=None) -> tuple[Club, dict]:
    User = get_user_model()
    with transaction.atomic():
        club, _ = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": CLUB_NAME})
        users = {}
        for key, (username, role) in PEOPLE.items():
            user, created = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.org"}
            )
            if created or not user.check_password(PASSWORD):
                user.set_password(PASSWORD)
                user.save(update_fields=["password"])
            Membership.objects.update_or_create(club=club, user=user, defaults={"role": role})
            users[key] = user
    for slug, system in sorted(all_systems().items()):
        if Campaign.objects.filter(club=club, system=slug).exists():
            continue
        try:
            with transaction.atomic():  # a failing demo leaves nothing half-made
                made = system.demo(club, users)
        except Exception as error:  # noqa: BLE001 - one system's broken demo must not keep the site from running
            if stderr is not None:
                stderr.write(f"  {system.name}: its demo campaign could not be created ({type(error).__name__}: {error})")
            continue
        if made is not None and stdout is not None:
            stdout.write(f"  {system.name}: {made}")
    return club, users


class Command(BaseCommand):
    help = "Load the demo club, its people (password muster-demo) and a campaign per game system."

    def handle(self, *args, **options):
        club, _ = load_demo(self.stdout, self.stderr)
        campaigns = Campaign.objects.filter(club=club).count()
        url = settings.SITE_URL.rstrip("/") + "/"
        self.stdout.write(self.style.SUCCESS(f"Demo club “{club.name}” is ready ({campaigns} campaign(s))."))
        self.stdout.write(f"Open {url} and log in as (password {PASSWORD}, for the demo only):")
        for username, role in PEOPLE.values():
            note = {"demo-referee": "referee", "demo-organizer": "organizer"}.get(username, "player")
            self.stdout.write(f"  {username:<16} {note}")
