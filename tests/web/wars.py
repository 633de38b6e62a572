"""Skirmish campaigns for page tests: alice plays red, bob blue, rita referees; olga, the club's
organizer, sets each up."""

from campaigns.services import campaigns as svc
from campaigns.services.journal import submit


def skirmish_war(club, people, name, *, start=True):
    """A Skirmish campaign named `name` in `club`, started unless `start` is false."""
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name=name
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    if start:
        submit(campaign, olga, "campaign.started")
    return campaign
