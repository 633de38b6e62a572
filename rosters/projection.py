"""Rebuild a campaign's RosterEntry rows from its state (see rosters.models).

Only what changed is written: rows are read as plain values, an entry's `order` is its place
within its side (lists sort by side, then order), so a unit added to one side leaves every
other row alone.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from campaigns.models import Campaign
from campaigns.systems import get_system

from .models import RosterEntry

FIELDS = ("side", "audience", "kind", "name", "status", "data", "order")
_ONE_BY_ONE = 20  # up to this many changed rows, an UPDATE each beats one large CASE statement

_Row = dict[str, Any]  # a RosterEntry's FIELDS: the values its row is written with
_Change = tuple[int, _Row, _Row]  # (pk, the fields that changed, the whole row)


def refresh(
    campaign: Campaign,
    state: dict[str, Any],
    *,
    entries: list[dict[str, Any]] | None = None,
    before: list[dict[str, Any]] | None = None,
) -> None:
    """`entries`: the system's roster of `state`, if the caller has drawn it. `before`: the roster
    the rows were last written from; given, the rows are not read, only the difference written."""
    if entries is None:
        entries = get_system(state["system"]).roster(state) if state.get("game") is not None else []
    wanted = _rows(entries)
    if before is not None and _write_difference(campaign, _rows(before), wanted):
        return
    existing = {
        row[0]: row[1:] for row in campaign.roster_entries.values_list("key", "pk", *FIELDS)
    }
    stale = [row[0] for key, row in existing.items() if key not in wanted]
    if stale:
        RosterEntry.objects.filter(pk__in=stale).delete()
    new: list[RosterEntry] = []
    changed: list[_Change] = []
    for key, values in wanted.items():
        old = existing.get(key)
        if old is None:
            new.append(RosterEntry(campaign=campaign, key=key, **values))
        elif tuple(old[1:]) != tuple(values[f] for f in FIELDS):
            changed.append(
                (
                    old[0],
                    {f: values[f] for f, before in zip(FIELDS, old[1:]) if before != values[f]},
                    values,
                )
            )
    RosterEntry.objects.bulk_create(new)
    _update(changed)


def _rows(entries: list[dict[str, Any]]) -> dict[str, _Row]:
    wanted: dict[str, _Row] = {}
    places: dict[str, int] = {}
    for e in entries:
        side = e.get("side", "")
        places[side] = places.get(side, -1) + 1
        wanted[e["key"]] = {
            "side": side,
            "audience": e.get("audience", "public"),
            "kind": e["kind"],
            "name": e["name"],
            "status": e.get("status", ""),
            "data": e.get("data", {}),
            "order": places[side],
        }
    return wanted


def _write_difference(campaign: Campaign, had: dict[str, _Row], wanted: dict[str, _Row]) -> bool:
    """Writes what differs between two rosters, the rows being `had`'s; False when the rows turn
    out not to be (a changed row is missing): the caller then compares them all."""
    changed = {
        key: {f: v for f, v in values.items() if had[key][f] != v}
        for key, values in wanted.items()
        if key in had and had[key] != values
    }
    if changed and connection.vendor == "postgresql":
        if _update_by_key(campaign, {key: wanted[key] for key in changed}) != len(changed):
            return False
    elif len(changed) <= _ONE_BY_ONE:
        for key, values in changed.items():  # by key: no read of the rows' ids
            if not campaign.roster_entries.filter(key=key).update(**values):
                return False
    else:
        pks = dict(campaign.roster_entries.filter(key__in=list(changed)).values_list("key", "pk"))
        if len(pks) != len(changed):
            return False
        _update([(pks[key], values, wanted[key]) for key, values in changed.items()])
    stale = [key for key in had if key not in wanted]
    if stale:
        campaign.roster_entries.filter(key__in=stale).delete()
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(campaign=campaign, key=key, **values)
            for key, values in wanted.items()
            if key not in had
        ]
    )
    return True


_BY_KEY = """UPDATE rosters_rosterentry AS r SET side = v.side, audience = v.audience,
kind = v.kind, name = v.name, status = v.status, data = v.data::jsonb, "order" = v.place::integer
FROM (VALUES {rows}) AS v(key, side, audience, kind, name, status, data, place)
WHERE r.campaign_id = %s AND r.key = v.key"""


def _update_by_key(campaign: Campaign, rows: dict[str, _Row]) -> int:
    """PostgreSQL: the rows of these keys written whole in one UPDATE; how many there were."""
    params: list[Any] = []
    for key, row in rows.items():
        params += [key, row["side"], row["audience"], row["kind"], row["name"], row["status"]]
        params += [json.dumps(row["data"]), row["order"]]
    sql = _BY_KEY.format(rows=", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, campaign.pk])
        return int(cursor.rowcount)


def _update(changed: list[_Change]) -> None:
    """`changed`: (pk, the fields that changed, the whole row). Few: an UPDATE each; many: one bulk UPDATE."""
    if len(changed) <= _ONE_BY_ONE:
        for pk, values, _ in changed:
            RosterEntry.objects.filter(pk=pk).update(**values)
        return
    rows = [RosterEntry(pk=pk, **row) for pk, _, row in changed]
    RosterEntry.objects.bulk_update(rows, list(FIELDS), batch_size=500)
