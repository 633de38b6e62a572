"""Rebuild a campaign's RosterEntry rows from its state (see rosters.models).

Only what changed is written: rows are read as plain values, an entry's `order` is its place
within its side (lists sort by side, then order), so a unit added to one side leaves every
other row alone.
"""

from __future__ import annotations

from campaigns.systems import get_system

from .models import RosterEntry

FIELDS = ("side", "audience", "kind", "name", "status", "data", "order")
_ONE_BY_ONE = 20  # up to this many changed rows, an UPDATE each beats one large CASE statement


def refresh(campaign, state: dict) -> None:
    entries = get_system(state["system"]).roster(state) if state.get("game") is not None else []
    wanted: dict[str, dict] = {}
    places: dict[str, int] = {}
    for e in entries:
        side = e.get("side", "")
        places[side] = places.get(side, -1) + 1
        wanted[e["key"]] = {"side": side, "audience": e.get("audience", "public"), "kind": e["kind"],
                            "name": e["name"], "status": e.get("status", ""), "data": e.get("data", {}),
                            "order": places[side]}
    existing = {row[0]: row[1:] for row in campaign.roster_entries.values_list("key", "pk", *FIELDS)}
    stale = [row[0] for key, row in existing.items() if key not in wanted]
    if stale:
        RosterEntry.objects.filter(pk__in=stale).delete()
    new, changed = [], []
    for key, values in wanted.items():
        old = existing.get(key)
        if old is None:
            new.append(RosterEntry(campaign=campaign, key=key, **values))
        elif tuple(old[1:]) != tuple(values[f] for f in FIELDS):
            changed.append((old[0], {f: values[f] for f, before in zip(FIELDS, old[1:]) if before != values[f]}))
    RosterEntry.objects.bulk_create(new)
    if len(changed) <= _ONE_BY_ONE:
        for pk, values in changed:
            RosterEntry.objects.filter(pk=pk).update(**values)
    else:
        keys = {old[0]: key for key, old in existing.items()}
        rows = [RosterEntry(pk=pk, **wanted[keys[pk]]) for pk, _ in changed]
        RosterEntry.objects.bulk_update(rows, list(FIELDS), batch_size=500)
