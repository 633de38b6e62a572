"""The campaign page as a viewer sees it (the parts kept per audience), and the campaign lookup
every door starts from. The page holds facts (its to-dos, the cut's proposals, whether every side
agreed to a full export); whether the viewer may do anything is campaigns.access.permissions'
answer, asked with those facts (the page's `offered`; permissions.full_export_allowed with
`export_approved` and `export_agreed_at`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.access import visibility
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import plain
from campaigns.kept_answers import viewcache

from ..errors import NotFound
from ..models import Campaign
from ..services.state import current_state
from ..systems import get_system
from ..systems.base import Action, StepStatus
from .todos import actions_for, offered
from .waiting import waiting_on


@dataclass
class CampaignPage:
    """What a campaign page or API answer shows a viewer. The parts are kept per audience
    (campaigns.kept_answers.viewcache); the whole cut of the state (`state`) is loaded only when
    asked for."""

    campaign: Campaign
    viewer: Viewer
    actions: list[Action] = field(default_factory=list)  # todos.actions_for: the audience's
    procedure: list[StepStatus] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)
    # the cut's proposals (reject to-dos need no more)
    proposals: dict[str, Any] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)  # whom the campaign waits for, in words
    export_approved: bool = False  # the cut's: every side agreed to a full export
    load: Callable[[], dict[str, Any]] | None = field(default=None, repr=False)

    @cached_property
    def state(self) -> dict[str, Any]:
        """The viewer's cut of the state (visibility.view_state)."""
        assert self.load is not None, "a page built without its state"
        return self.load()

    def offered(self) -> list[Action]:
        """Everything this viewer may submit now (todos.offered): the page's to-dos made
        personal, and a Reject (or Withdraw) for each proposal they may turn down."""
        return offered(self.campaign, self.viewer, self.actions, self.proposals)

    def export_agreed_at(self) -> int | None:
        """The event by which every side agreed to a full export (the full state's), for
        permissions.full_export_allowed; loads the state."""
        seq: int | None = current_state(self.campaign)["export_approved"]
        return seq


def campaign_for(user: AbstractBaseUser | AnonymousUser, pk: object) -> tuple[Campaign, Viewer]:
    campaign, viewer = visibility.campaign_and_viewer(user, pk)
    if not viewer.member:
        raise NotFound("campaign")
    return campaign, viewer


def campaign_page(campaign: Campaign, viewer: Viewer) -> CampaignPage:
    full: dict[str, dict[str, Any]] = {}

    def state() -> dict[str, Any]:
        if "state" not in full:
            full["state"] = plain(current_state(campaign))
        return full["state"]

    def parts() -> dict[str, Any]:
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

    def cut() -> dict[str, Any]:
        view: dict[str, Any] = viewcache.cached(
            campaign, viewer, "view", lambda: visibility.view_state(state(), viewer)
        )
        return view

    # One who plays no side may settle, or stand in for a side, by who they are (whether they
    # played, whom they left): their to-dos are kept per person, not per audience.
    kept_as = "page" if viewer.sides else f"page:{viewer.username}"
    return CampaignPage(
        campaign, viewer, **viewcache.cached(campaign, viewer, kept_as, parts), load=cut
    )
