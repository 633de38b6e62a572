"""Seat changes in play, in the club's log: who was seated or taken off which side of
which campaign, who proposed it and who agreed for each side, above all when a side's last player,
gone with no referee, agreed for it (seats.stand_in_for). The journal says it too; the log
is where a club looks across its campaigns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User

from campaigns.access.seats import SEAT_KINDS
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign, ClubLogEntry


def _change(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": kind,
        **{k: v for k, v in data.items() if k in ("side", "username", "old", "new")},
    }


def record(
    campaign: Campaign,
    user: User,
    before: CampaignState,
    after: CampaignState,
    records: Iterable[Record],
) -> None:
    """Log the seat changes among `records` (one submission) made once play had started."""
    if before.get("status") == "setup":
        return
    entries = []
    for record in records:
        base = {"campaign": campaign.pk, "name": campaign.name, "event": record.uid}
        if record.kind in SEAT_KINDS:
            entries.append(("campaign.seat", {**base, **_change(record.kind, record.data)}))
        elif record.kind in ("proposal.made", "proposal.applied"):
            number = record.seq if record.kind == "proposal.made" else record.data.get("proposal")
            proposal = after.get("proposals", {}).get(str(number))
            if (
                not proposal
                or proposal["action"] != "seat"
                or not isinstance(proposal.get("data"), dict)
            ):
                continue
            change = _change(proposal["data"]["kind"], proposal["data"]["data"])
            if record.kind == "proposal.made":
                entries.append(
                    ("campaign.seat.proposed", {**base, **change, "needs": proposal["needs"]})
                )
            else:
                entries.append(
                    (
                        "campaign.seat.agreed",
                        {
                            **base,
                            **change,
                            "proposed_by": proposal["by"],
                            "agreed": proposal["approved"],
                            "stand_ins": proposal.get("stand_ins", {}),
                        },
                    )
                )
    ClubLogEntry.objects.bulk_create(
        [
            ClubLogEntry(club_id=campaign.club_id, actor=user, action=action, detail=detail)
            for action, detail in entries
        ]
    )
