"""What a page form of a game's event starts from beyond the campaign's own state: the game reads
the club's earlier campaigns of the same game (GameSystem.suggested_data), which the core reads for
it here, so no game queries the database (e.g. a club enters a ledger game's set-up once)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign
from ..systems import get_system
from .state import current_state

EARLIER = 20  # how many of the club's earlier campaigns a game may look through


def earlier_games(campaign: Campaign) -> Iterator[tuple[str, CampaignState]]:
    """(name, folded state) of the club's other campaigns of this campaign's game, newest first;
    each state is read only when the game asks for it."""
    found = Campaign.objects.filter(club=campaign.club, system=campaign.system).exclude(
        pk=campaign.pk
    )
    for other in found.order_by("-created_at", "-pk")[:EARLIER]:
        yield other.name, current_state(other)


def suggested_data(campaign: Campaign, kind: str) -> dict[str, Any]:
    """Values the page form of `kind` starts from in `campaign` ({} when the game suggests none)."""
    return get_system(campaign.system).suggested_data(kind, earlier_games(campaign))
