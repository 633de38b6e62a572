"""A person's dashboard: their clubs, the campaigns they play or organize, what waits for them."""

from __future__ import annotations

from dataclasses import dataclass, field

from campaigns.access import visibility

from ..models import Campaign
from .todos import waiting_for
from .waiting import campaigns_waiting_on


@dataclass
class Dashboard:
    clubs: list  # (club, role)
    campaigns: list  # the campaigns one plays or referees
    waiting: list  # (campaign, [Action])
    organized: list = field(
        default_factory=list
    )  # campaigns of clubs one organizes, played by others
    waits: dict = field(default_factory=dict)  # campaign pk -> whom it waits for


def dashboard(user) -> Dashboard:
    from ..models import Membership

    roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
    everything = list(visibility.campaigns_for(user).order_by("status", "-updated_at"))
    viewers = visibility.viewers_for(user, everything)
    mine = [c for c in everything if viewers[c.pk].playing or viewers[c.pk].referee]
    organized = [
        c for c in everything if c not in mine and roles.get(c.club_id) == Membership.ORGANIZER
    ]
    return Dashboard(
        clubs=[(club, roles.get(club.pk)) for club in visibility.clubs_for(user).order_by("name")],
        campaigns=mine,
        waiting=waiting_for(user),
        organized=organized,
        waits=campaigns_waiting_on([c for c in mine + organized if c.status == Campaign.ACTIVE]),
    )
