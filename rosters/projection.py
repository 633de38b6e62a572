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
    if before is not None and _write_difference(campaign, *_difference(before, entries)):
        return
    wanted = _rows(entries)
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
        wanted[e["key"]] = _row(e, side, places[side])
    return wanted


def _row(e: dict[str, Any], side: str, place: int) -> _Row:
    return {
        "side": side,
        "audience": e.get("audience", "public"),
        "kind": e["kind"],
        "name": e["name"],
        "status": e.get("status", ""),
        "data": e.get("data", {}),
        "order": place,
    }


def _placed(entries: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], int]]:
    """key -> (entry, its place within its side)."""
    placed: dict[str, tuple[dict[str, Any], int]] = {}
    places: dict[str, int] = {}
    for e in entries:
        side = e.get("side", "")
        places[side] = places.get(side, -1) + 1
        placed[e["key"]] = (e, places[side])
    return placed


def _difference(
    before: list[dict[str, Any]], entries: list[dict[str, Any]]
) -> tuple[dict[str, _Row], dict[str, _Row], list[str]]:
    """Between the roster the rows were written from and the one wanted: the rows that changed
    and the new ones (whole), and the keys gone. An entry equal to its former self at the same
    place is its row unchanged: no row is drawn for it (a step moves one unit of hundreds)."""
    had = _placed(before)
    changed: dict[str, _Row] = {}
    new: dict[str, _Row] = {}
    places: dict[str, int] = {}
    for e in entries:
        side = e.get("side", "")
        place = places[side] = places.get(side, -1) + 1
        key = e["key"]
        old = had.get(key)
        if old is None:
            new[key] = _row(e, side, place)
        elif old[1] != place or old[0] != e:
            row = _row(e, side, place)
            if row != _row(old[0], old[0].get("side", ""), old[1]):
                changed[key] = row
    wanted = {e["key"] for e in entries}
    return changed, new, [key for key in had if key not in wanted]


def _write_difference(
    campaign: Campaign, changed: dict[str, _Row], new: dict[str, _Row], stale: list[str]
) -> bool:
    """Writes a difference (``_difference``: rows changed and new, whole, and keys gone) on rows
    that are the former roster's; False when they turn out not to be (a changed row is missing):
    the caller then compares them all."""
    if changed and connection.vendor == "postgresql":
        if _update_by_key(campaign, changed) != len(changed):
            return False
    elif len(changed) <= _ONE_BY_ONE:
        for key, values in changed.items():  # by key: no read of the rows' ids
            if not campaign.roster_entries.filter(key=key).update(**values):
                return False
    else:
        pks = dict(campaign.roster_entries.filter(key__in=list(changed)).values_list("key", "pk"))
        if len(pks) != len(changed):
            return False
        _update([(pks[key], values, values) for key, values in changed.items()])
    if stale:
        campaign.roster_entries.filter(key__in=stale).delete()
    RosterEntry.objects.bulk_create(
        [RosterEntry(campaign=campaign, key=key, **values) for key, values in new.items()]
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
