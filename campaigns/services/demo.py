"""The demo club (`manage.py load_demo`, run by `make run` at every start).

Its people join through the club services like anybody's (founding, invitation,
acceptance), so its club log reads like any other club's; each game system adds its
campaign through its own ``demo`` hook, handed a DemoTable: the game says what happens at the
table (who sits where, what each person submits) and the table does it through the services, so
no game imports a service. Safe to run again: nothing is duplicated, and
a demo password or role that was changed is put back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from campaigns.errors import DomainError
from campaigns.journal.state_shapes import plain
from campaigns.models import Campaign, Club, Membership
from campaigns.systems import all_systems
from campaigns.systems.base import GameSystem

from . import campaigns as campaign_service, clubs
from .journal import submit
from .state import current_state

PASSWORD = "muster-demo"  # published in the README: never on a public site (load_demo refuses)
CLUB_NAME, CLUB_SLUG = "Demo Club", "demo-club"
# role in the hook's users dict -> (username, club role); the organizer first: they found the club.
PEOPLE = {
    "organizer": ("demo-organizer", Membership.ORGANIZER),
    "alice": ("demo-alice", Membership.PLAYER),
    "bob": ("demo-bob", Membership.PLAYER),
    "referee": ("demo-referee", Membership.PLAYER),
}


@dataclass
class Demo:
    club: Club
    users: dict[str, User]
    made: list[str] = field(default_factory=list)  # "<system>: <campaign>" made this time
    failed: list[str] = field(default_factory=list)  # "<system>: <why>"


def load_demo() -> Demo:
    with transaction.atomic():
        users = {key: _demo_user(username) for key, (username, _) in PEOPLE.items()}
        demo = Demo(club=_demo_club(users), users=users)
    for slug, system in sorted(all_systems().items()):
        if Campaign.objects.filter(club=demo.club, system=slug).exists():
            continue
        try:
            with transaction.atomic():  # a failing demo leaves nothing half-made
                made = system.demo(DemoTable(demo.club, users, system))
        except Exception as error:  # noqa: BLE001 - one system's broken demo must not keep the site from running
            demo.failed.append(
                f"{system.name}: its demo campaign could not be created "
                f"({type(error).__name__}: {error})"
            )
            continue
        if made is not None:
            demo.made.append(f"{system.name}: {made}")
    return demo


class DemoTable:
    """What a game's demo hook plays its demo campaign with: the demo people by role ("organizer",
    "alice", "bob", "referee"), the campaign it creates, and each person's submissions, made
    through the services like anybody's (the same checks, the same journal)."""

    def __init__(self, club: Club, users: dict[str, User], system: GameSystem):
        self.club, self.users, self.system = club, users, system
        self.campaign: Campaign | None = None

    def username(self, role: str) -> str:
        return self.users[role].username

    def create(self, *, variant: str, name: str, options: dict[str, Any] | None = None) -> Campaign:
        """The game's demo campaign, created by the demo organizer."""
        self.campaign = campaign_service.create_campaign(
            club=self.club,
            user=self.users["organizer"],
            system=self.system.slug,
            variant=variant,
            name=name,
            options=options or {},
        )
        return self.campaign

    def seat(self, side: str, role: str) -> None:
        """The organizer seats the person of `role` on `side`."""
        campaign_service.assign_player(
            self._made(), self.users["organizer"], side=side, username=self.username(role)
        )

    def referee(self, role: str) -> None:
        campaign_service.assign_referee(
            self._made(), self.users["organizer"], username=self.username(role)
        )

    def submit(self, role: str, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """The person of `role` submits an event; the campaign's state after it."""
        submit(self._made(), self.users[role], kind, data or {})
        return self.state()

    def state(self) -> dict[str, Any]:
        """The campaign's whole state now (the demo plays every side), as a game reads it."""
        campaign = self._made()
        campaign.refresh_from_db()
        return plain(current_state(campaign))

    def _made(self) -> Campaign:
        assert self.campaign is not None, "the demo creates its campaign first"
        return self.campaign


def _demo_user(username: str) -> User:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.org"}
    )
    if created or not user.check_password(PASSWORD):
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    return user


def _demo_club(users: dict[str, User]) -> Club:
    """The demo club, founded by the demo organizer, each demo person in it with their role."""
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None:
        club = clubs.create_club(user=users["organizer"], name=CLUB_NAME)
    for key, (username, role) in PEOPLE.items():
        membership = club.memberships.filter(user=users[key]).first()
        if membership is None:
            invitation = clubs.invite(club=club, user=_an_organizer(club, users), role=role)
            clubs.accept_invitation(code=invitation.code, user=users[key])
        elif membership.role != role:
            clubs.set_role(
                club=club, user=_an_organizer(club, users), member_username=username, role=role
            )
    return club


def _an_organizer(club: Club, users: dict[str, User]) -> User:
    """Who invites or changes roles: the demo organizer while they are one, else any organizer."""
    organizers = club.memberships.filter(role=Membership.ORGANIZER).select_related("user")
    mine = organizers.filter(user=users["organizer"]).first() or organizers.order_by("pk").first()
    if mine is None:
        raise DomainError(
            "club",
            f"The club {CLUB_SLUG!r} has no organizer left to invite the demo people; "
            "delete it in the admin and load the demo again.",
        )
    return mine.user
