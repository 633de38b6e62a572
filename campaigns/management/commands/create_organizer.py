"""python manage.py create_organizer USERNAME --club SLUG [--club-name NAME] [--email EMAIL] [--no-input]

The first account of a site (there is no public sign-up: people join through a club's
invitations): a person who organizes a club, founding the club when no club has that slug.
Asked at a terminal, it prompts for the password (Django's password rules apply); with
--no-input it prints a link, valid for PASSWORD_RESET_TIMEOUT (3 days), where the person
chooses their own password over the site's https. Run again, it changes nothing that is done:
an existing person keeps their password and becomes an organizer of the club.
Exit code 2 for bad input, nothing changed.
"""

import getpass
import sys
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaigns.errors import DomainError
from campaigns.models import Club
from campaigns.services import clubs


class Command(BaseCommand):
    help = "Create a club organizer (the site's first account), founding the club if it does not exist."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--club", required=True, help="the club's slug (lowercase letters, digits, hyphens)"
        )
        parser.add_argument(
            "--club-name",
            default="",
            help="the name of a club founded now (default: from the slug)",
        )
        parser.add_argument("--email", default="", help="for password resets")
        parser.add_argument(
            "--no-input",
            action="store_true",
            help="ask nothing: print a link where the person chooses their password",
        )

    def handle(
        self,
        *args: Any,
        username: str,
        club: str,
        club_name: str,
        email: str,
        no_input: bool,
        **options: Any,
    ) -> None:
        User = get_user_model()
        username = username.strip()
        try:
            User._meta.get_field("username").run_validators(username)
            User.username_validator(username)
            if not username:
                raise ValidationError("A username is required.")
        except ValidationError as error:
            raise CommandError(
                f"Username {username!r}: {' '.join(error.messages)}", returncode=2
            ) from None
        user = User.objects.filter(username=username).first()
        password = None
        if user is None and not no_input:
            if not sys.stdin.isatty():
                raise CommandError(
                    "No terminal to ask a password at: use --no-input to print a link where "
                    "the person chooses it.",
                    returncode=2,
                )
            password = self._ask_password(User(username=username, email=email))
        existing = Club.objects.filter(slug=club).first()
        try:
            with transaction.atomic():
                created = user is None
                if user is None:
                    user = User.objects.create_user(
                        username=username, email=email, password=password
                    )
                    if password is None:
                        user.set_unusable_password()
                        user.save(update_fields=["password"])
                if existing is None:
                    name = club_name.strip() or club.replace("-", " ").title()
                    existing = clubs.operator_create_club(slug=club, name=name, organizer=user)
                    self.stdout.write(
                        f"Founded the club “{existing.name}” ({existing.slug}) with {username} as organizer."
                    )
                elif clubs.operator_make_organizer(club=existing, user=user):
                    self.stdout.write(f"{username} is now an organizer of “{existing.name}”.")
                else:
                    self.stdout.write(
                        f"{username} already organizes “{existing.name}”: nothing to do."
                    )
        except DomainError as error:
            raise CommandError(error.message, returncode=2) from None
        site = settings.SITE_URL.rstrip("/")
        if created:
            self.stdout.write(f"Created the account {username}.")
        if not user.has_usable_password():
            path = reverse(
                "password_reset_confirm",
                args=[
                    urlsafe_base64_encode(force_bytes(user.pk)),
                    default_token_generator.make_token(user),
                ],
            )
            days = settings.PASSWORD_RESET_TIMEOUT // 86400
            self.stdout.write(
                f"{username} chooses a password here (the link works once, for {days} days):"
            )
            self.stdout.write(f"  {site}{path}")
        self.stdout.write(
            f"Sign in at {site}{reverse('login')}; the club: {site}{reverse('club', args=[existing.slug])}"
        )

    def _ask_password(self, user: User) -> str:
        for _ in range(3):
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("The two passwords differ.")
                continue
            try:
                password_validation.validate_password(password, user)
                return password
            except ValidationError as error:
                self.stderr.write(" ".join(error.messages))
        raise CommandError("No password was set: nothing was created.", returncode=2)
