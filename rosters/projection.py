"""Rebuild a campaign's RosterEntry rows from its state (see rosters.models)."""

from __future__ import annotations

from campaigns.systems import get_system

from .models import RosterEntry


def refresh(campaign, state: dict) -> None:
    entries = get_system(state["system"]).roster(state) if state.get("game") is not None else []
    wanted = {
        e["key"]: RosterEntry(
            campaign=campaign, key=e["key"], side=e.get("side", ""), audience=e.get("audience", "public"),
            kind=e["kind"], name=e["name"], status=e.get("status", ""), data=e.get("data", {}), order=order,
        )
        for order, e in enumerate(entries)
    }
    existing = {r.key: r for r in campaign.roster_entries.all()}
    stale = [pk for key, row in existing.items() if key not in wanted for pk in [row.pk]]
    if stale:
        RosterEntry.objects.filter(pk__in=stale).delete()
    fields = ["side", "audience", "kind", "name", "status", "data", "order"]
    changed, new = [], []
    for key, row in wanted.items():
        old = existing.get(key)
        if old is None:
            new.append(row)
        elif any(getattr(old, f) != getattr(row, f) for f in fields):
            for f in fields:
                setattr(old, f, getattr(row, f))
            changed.append(old)
    RosterEntry.objects.bulk_create(new)
    if changed:
        RosterEntry.objects.bulk_update(changed, fields)
