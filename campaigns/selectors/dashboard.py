"""A person's dashboard: their clubs, the campaigns they play or organize, what waits for them
(what has waited longest first, by their notices)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.access import visibility
from campaigns.notices import inbox

from ..models import Campaign, Club
from ..systems.base import Action
from .clubs import in_play_first
from .todos import waiting_for
from .waiting import campaigns_waiting_on


@dataclass
class Dashboard:
    clubs: list[tuple[Club, str | None]]  # (club, role)
    campaigns: list[Campaign]  # the campaigns one plays or referees
    waiting: list[tuple[Campaign, list[Action]]]
    # campaigns of clubs one organizes, played by others
    organized: list[Campaign] = field(default_factory=list)
    waits: dict[int, list[str]] = field(default_factory=dict)  # campaign pk -> whom it waits for


def dashboard(user: AbstractBaseUser | AnonymousUser) -> Dashboard:
    from ..models import Membership

    roles = dict(Membership.objects.filter(user=user.pk).values_list("club_id", "role"))
    # An archived campaign is out of the lists (the club page's "Archived" section shows it).
    everything = list(
        visibility.campaigns_for(user)
        .filter(archived_at=None)
        .order_by(in_play_first(), "-updated_at")
    )
    viewers = visibility.viewers_for(user, everything)
    mine = [c for c in everything if viewers[c.pk].playing or viewers[c.pk].referee]
    since = inbox.waiting_since(user)  # what has waited longest for this person comes first
    mine.sort(key=lambda c: _waited(since, c))
    played = {c.pk for c in mine}  # by key: a list's `in` compared every pair of rows
    organized = [
        c for c in everything if c.pk not in played and roles.get(c.club_id) == Membership.ORGANIZER
    ]
    return Dashboard(
        clubs=[(club, roles.get(club.pk)) for club in visibility.clubs_for(user).order_by("name")],
        campaigns=mine,
        waiting=sorted(
            waiting_for(user, (everything, viewers)), key=lambda row: _waited(since, row[0])
        ),
        organized=organized,
        waits=campaigns_waiting_on([c for c in mine + organized if c.status == Campaign.ACTIVE]),
    )


def _waited(since: dict[int, datetime], campaign: Campaign) -> tuple[bool, float]:
    """Longest waiting first (by the person's notices); the others after them, in their order."""
    at = since.get(campaign.pk)
    return at is None, at.timestamp() if at else 0.0
