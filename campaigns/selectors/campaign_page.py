"""The campaign page as a viewer sees it (the parts kept per audience), and the campaign lookup
every door starts from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.kept_answers import viewcache

from ..errors import NotFound
from ..models import Campaign
from ..services.state import current_state
from ..systems import get_system
from .todos import actions_for
from .waiting import waiting_on


@dataclass
class CampaignPage:
    """What a campaign page or API answer shows a viewer. The parts are kept per audience
    (campaigns.kept_answers.viewcache); the whole cut of the state (`state`) is loaded only when asked for."""

    campaign: Campaign
    viewer: Viewer
    actions: list = field(default_factory=list)
    procedure: list = field(default_factory=list)
    standings: list = field(default_factory=list)
    proposals: dict = field(
        default_factory=dict
    )  # the cut's proposals (reject to-dos need no more)
    waiting: list = field(default_factory=list)  # whom the campaign waits for, in words
    export_approved: bool = False  # the cut's: every side agreed to a full export
    load: Callable[[], dict] | None = field(default=None, repr=False)

    @cached_property
    def state(self) -> dict:
        """The viewer's cut of the state (visibility.view_state)."""
        return self.load()


def campaign_for(user, pk) -> tuple[Campaign, Viewer]:
    campaign, viewer = visibility.campaign_and_viewer(user, pk)
    if not viewer.member:
        raise NotFound("campaign")
    return campaign, viewer


def campaign_page(campaign: Campaign, viewer: Viewer) -> CampaignPage:
    full: dict = {}

    def state() -> dict:
        if "state" not in full:
            full["state"] = current_state(campaign)
        return full["state"]

    def parts() -> dict:
        system = get_system(campaign.system)
        cut = visibility.view_state(state(), viewer)
        return {
            "actions": actions_for(state(), viewer),
            "procedure": [
                s
                for s in system.procedure(state(), viewer.sides)
                if s.side is None or s.side in viewer.sides or viewer.referee
            ],
            "standings": system.standings(state()) if state()["game"] is not None else [],
            "proposals": cut["proposals"],
            "waiting": waiting_on(cut, viewer),
            "export_approved": bool(cut["export_approved"]),
        }

    def cut() -> dict:
        return viewcache.cached(
            campaign, viewer, "view", lambda: visibility.view_state(state(), viewer)
        )

    # One who plays no side may settle, or stand in for a side, by who they are (whether they
    # played, whom they left): their to-dos are kept per person, not per audience.
    kept_as = "page" if viewer.sides else f"page:{viewer.username}"
    return CampaignPage(
        campaign, viewer, **viewcache.cached(campaign, viewer, kept_as, parts), load=cut
    )


def full_export_allowed(
    campaign: Campaign, viewer: Viewer, page: CampaignPage | None = None
) -> bool:
    """May this viewer download the full journal (every side's secrets)? The referee may;
    an organizer once every side agreed (the cut says whether they did), if they were an
    organizer then already (visibility.organizer_when_export_agreed, as journal_files.may_export_full)."""
    page = page or campaign_page(campaign, viewer)
    if viewer.referee:
        return True
    return (
        viewer.organizer
        and page.export_approved
        and visibility.organizer_when_export_agreed(
            campaign, viewer, current_state(campaign)["export_approved"]
        )
    )
