"""Print a new VAPID key pair for Web Push, as the lines of a .env (README, Configuration). Keep
the private key as secret as SECRET_KEY; changing the pair ends every device's subscription."""

from typing import Any

from django.core.management.base import BaseCommand

from campaigns.push import keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (MUSTER_VAPID_PRIVATE_KEY, MUSTER_VAPID_PUBLIC_KEY)."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = keys.make_pair()
        self.stdout.write(f"MUSTER_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"MUSTER_VAPID_PUBLIC_KEY={public}")
