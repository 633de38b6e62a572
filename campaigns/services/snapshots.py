"""The stored snapshot of a campaign's state (campaigns.models.Snapshot): written by the journal's
writers, an upgrade and the readers that fold (services.state)."""

from __future__ import annotations

from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign, Snapshot


def store_snapshot(campaign: Campaign, state: CampaignState) -> None:
    """Keeps `state` unless a later one is kept already: a reader outside the journal's lock (the
    odds task) that folded an older journal must not overwrite what a writer stored since, or
    the next append would fold the whole journal again."""
    # An UPDATE first: a campaign has its snapshot from its first event on (no read before the write).
    if Snapshot.objects.filter(campaign=campaign, seq__lte=state["seq"]).update(
        seq=state["seq"], state=state
    ):
        return
    if not Snapshot.objects.filter(campaign=campaign).exists():
        Snapshot.objects.update_or_create(
            campaign=campaign, defaults={"seq": state["seq"], "state": state}
        )
