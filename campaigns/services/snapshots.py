"""The stored snapshot of a campaign's state (campaigns.models.Snapshot): written by the journal's
writers, an upgrade and the readers that fold (services.state).

An append writes it by difference on PostgreSQL (``store_after_append``): the parts of the state
that changed are set in the stored JSON (``jsonb_set``) rather than the whole state sent again,
which for a long A!P! campaign is a few hundred kilobytes encoded, quoted, sent and parsed on
every append."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import connection

from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign, Snapshot

DEPTH = 4  # how deep into the state a change is looked for (deeper: the part at this depth is set)
MOST = 64  # more changed parts than this: the whole state is written
_GONE = object()  # a part the state no longer has

_Change = tuple[list[str], Any]  # (path, the new value, or _GONE)


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


def store_after_append(campaign: Campaign, before: CampaignState, state: CampaignState) -> None:
    """The journal's writer, under the campaign's lock: `before` is the state it read (the row
    holds it when the row's seq is `before`'s), `state` the one to keep. On PostgreSQL only the
    parts that differ are written, in one UPDATE; otherwise, or when the row turns out to hold
    another seq, or too much changed, the whole state (``store_snapshot``)."""
    if connection.vendor == "postgresql":
        changes = difference(before, state)
        if changes is not None and _write_difference(campaign, before["seq"], state, changes):
            return
    store_snapshot(campaign, state)


def difference(before: Any, after: Any) -> list[_Change] | None:
    """The parts of `after` that differ from `before` (both JSON objects), as paths of keys
    (at most DEPTH long) and their new values (_GONE: removed); None when there are more than
    MOST or a key is not text. Equal means the same JSON: 1, 1.0 and True differ."""
    changes: list[_Change] = []
    stack: list[tuple[list[str], dict[str, Any], dict[str, Any]]] = [([], before, after)]
    while stack:
        path, old, new = stack.pop()
        if not all(isinstance(key, str) for key in (*old, *new)):
            return None
        changes.extend((path + [key], _GONE) for key in old.keys() - new.keys())
        for key, value in new.items():
            if key not in old:
                changes.append((path + [key], value))
            elif not _same(old[key], value):
                if isinstance(value, dict) and isinstance(old[key], dict) and len(path) + 1 < DEPTH:
                    stack.append((path + [key], old[key], value))
                else:
                    changes.append((path + [key], value))
        if len(changes) > MOST:
            return None
    return changes


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if a != b:
        return False
    try:  # equal in Python, and as JSON too (True == 1 == 1.0 in Python, not in JSON)
        option = orjson.OPT_SORT_KEYS
        return orjson.dumps(a, option=option) == orjson.dumps(b, option=option)
    except (orjson.JSONEncodeError, TypeError):
        return False


def _write_difference(
    campaign: Campaign, seq: int, state: CampaignState, changes: list[_Change]
) -> bool:
    expression = "state"
    params: list[Any] = []
    for path, value in changes:
        if value is _GONE:
            expression = f"({expression} #- %s::text[])"
            params.append(path)
        else:
            expression = f"jsonb_set({expression}, %s::text[], %s::jsonb)"
            params += [path, json.dumps(value)]
    sql = (
        f"UPDATE campaigns_snapshot SET seq = %s, state = {expression} "
        "WHERE campaign_id = %s AND seq = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [state["seq"], *params, campaign.pk, seq])
        return bool(cursor.rowcount == 1)
