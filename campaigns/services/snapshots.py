"""The stored snapshot of a campaign's state (campaigns.models.Snapshot and SnapshotPart): written
by the journal's writers, an upgrade and the readers that fold (services.state), read here only.

A state is stored in parts: each side's private part of the game (``state["game"]["sides"][side]``)
in a SnapshotPart row of its own, the rest (the core) in the Snapshot row. An append writes the
parts it changed and, on PostgreSQL, the core by difference (``store_after_append``: the changed
keys set in the stored JSON with ``jsonb_set``). So a side's step writes the core and that side's
own part, whatever the other side keeps in secret, rather than a few hundred kilobytes of a long
A!P! campaign encoded, sent, parsed and compressed whole on every append."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
from django.db import connection, transaction
from psycopg.abc import Buffer
from psycopg.adapt import Loader

from campaigns.journal.state_copy import copy_json
from campaigns.journal.state_digest import digest_of, encoded, part_digest
from campaigns.journal.state_shapes import CampaignState

from ..models import Campaign, Snapshot, SnapshotPart

DEPTH = 4  # how deep into the state a change is looked for (deeper: the part at this depth is set)
MOST = 64  # more changed parts than this: the whole state is written
_GONE = object()  # a part the state no longer has

_Change = tuple[list[str], Any]  # (path, the new value, or _GONE)


_Part = tuple[str, Any]  # (side, that side's private part of the game)


def split(state: CampaignState) -> tuple[dict[str, Any], list[_Part]]:
    """The core of `state` (its game's sides left empty; shallow copies, `state` unchanged) and
    each side's part, in the state's order."""
    game = state.get("game")
    sides = game.get("sides") if isinstance(game, dict) else None
    if not isinstance(game, dict) or not isinstance(sides, dict) or not sides:
        return dict(state), []
    return {**state, "game": {**game, "sides": {}}}, list(sides.items())


def joined(core: dict[str, Any], parts: Iterable[Sequence[Any]]) -> CampaignState:
    """The state `split` took apart (`parts` as (side, part) pairs, in order); `core` is used.
    A core that holds its sides' parts itself was stored whole (by a release before parts, or by
    hand): it is the state, and parts left from an earlier state are not joined over it."""
    parts = list(parts)
    game = core.get("game")
    if parts and isinstance(game, dict) and game.get("sides") == {}:
        game["sides"] = {part[0]: part[1] for part in parts}
    return cast(CampaignState, core)


_READ = {
    # The parts' JSON texts run together in their order, with each one's side and length in
    # bytes (both by position, then side): the database parses and prints none of them (a long
    # campaign's parts are a few hundred kilobytes), and each can be parsed on its own
    # (``Kept.parts_as_read``). Text is read as the UTF-8 bytes stored: orjson parses bytes
    # several times faster than a str holding a character past Latin-1 (a "≥" in a unit's note),
    # and nothing is decoded first. On PostgreSQL a text column's bytes are those the server sends
    # (``_AsSent``; bytea would come hex-encoded, twice as long); on SQLite, cast to a BLOB.
    "postgresql": """SELECT s.campaign_id, s.seq, s.state::text, (
        SELECT coalesce(string_agg(p.value, '' ORDER BY p.position, p.side), '')
        FROM campaigns_snapshotpart p WHERE p.campaign_id = s.campaign_id
    ), (
        SELECT coalesce(json_agg(
            json_build_array(p.side, octet_length(p.value)) ORDER BY p.position, p.side
        ), '[]')::text
        FROM campaigns_snapshotpart p WHERE p.campaign_id = s.campaign_id
    ), (
        SELECT coalesce(json_object_agg(p.side, p.digest), '{}')::text
        FROM campaigns_snapshotpart p WHERE p.campaign_id = s.campaign_id AND p.digest <> ''
    ) FROM campaigns_snapshot s WHERE s.campaign_id = ANY(%s)""",
    "sqlite": """SELECT s.campaign_id, s.seq, CAST(s.state AS BLOB), (
        SELECT coalesce(CAST(group_concat(p.value, '') AS BLOB), X'') FROM (
            SELECT value FROM campaigns_snapshotpart WHERE campaign_id = s.campaign_id
            ORDER BY position, side) p
    ), (
        SELECT coalesce(json_group_array(json_array(p.side, length(CAST(p.value AS BLOB)))), '[]')
        FROM (
            SELECT side, value FROM campaigns_snapshotpart WHERE campaign_id = s.campaign_id
            ORDER BY position, side) p
    ), (
        SELECT coalesce(json_group_object(p.side, p.digest), '{}')
        FROM campaigns_snapshotpart p WHERE p.campaign_id = s.campaign_id AND p.digest <> ''
    ) FROM campaigns_snapshot s WHERE s.campaign_id IN (SELECT value FROM json_each(%s))""",
}


@dataclass(frozen=True)
class Kept:
    """A stored snapshot as read: its seq, its core as JSON text (or its value, read by the ORM),
    its parts ((side, the part's JSON text or value) pairs) and their digests as stored (a part
    stored without one left out)."""

    seq: int
    core: Any
    parts: list[tuple[str, Any]]
    digests: dict[str, str]

    def state(self) -> CampaignState:
        """The whole state, a copy of its own at every call (parsed again from the text read)."""
        return joined(_json(self.core), self._parsed())

    def state_twice(self) -> tuple[CampaignState, CampaignState]:
        """The whole state twice (an append's `before` and the copy it folds onto): the cores
        parsed apart, the side parts parsed once and shared by the two. Once folded,
        ``unshare`` gives `before` back the parts the fold changed, as read."""
        parts = self._parsed()
        return joined(_json(self.core), parts), joined(_json(self.core), parts)

    def parts_as_read(self, sides: Collection[str]) -> dict[str, Any]:
        """These sides' parts as read, parsed again (on PostgreSQL only theirs)."""
        return dict(self._parsed(sides))

    def _parsed(self, sides: Collection[str] | None = None) -> list[_Part]:
        """(side, part) pairs: each part parsed from its text, or copied from its value."""
        return [(side, _json(part)) for side, part in self.parts if sides is None or side in sides]


def cut_parts(text: bytes, lengths: bytes) -> list[tuple[str, memoryview]]:
    """The parts run together in `text`, cut by their (side, length in bytes) in `lengths`."""
    view, start, out = memoryview(text), 0, []
    for side, length in orjson.loads(lengths):
        out.append((side, view[start : start + length]))
        start += length
    return out


def stored(campaign_ids: Sequence[int]) -> dict[int, Kept]:
    """The stored snapshots of these campaigns, in one query (so one consistent read while a
    writer commits). On PostgreSQL or SQLite; another database reads with the ORM."""
    sql = _READ.get(connection.vendor)
    if sql is None:
        return _stored_orm(campaign_ids)
    ids: Any = list(campaign_ids)
    if connection.vendor == "sqlite":
        ids = json.dumps(ids)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.cursor.adapters.register_loader("text", _AsSent)
        cursor.execute(sql, [ids])
        rows = cursor.fetchall()
    return {
        pk: Kept(seq, core, cut_parts(parts, lengths), orjson.loads(digests))
        for pk, seq, core, parts, lengths, digests in rows
    }


class _AsSent(Loader):
    """A text column as the bytes PostgreSQL sends (UTF-8, the connection's encoding), not
    decoded to a str: for this one cursor of ``stored``."""

    def load(self, data: Buffer) -> bytes:
        return bytes(data)


def _json(value: Any) -> Any:
    if isinstance(value, (str, bytes, memoryview)):
        return orjson.loads(value)
    return copy_json(value)


def _stored_orm(campaign_ids: Sequence[int]) -> dict[int, Kept]:
    with transaction.atomic():
        snapshots = list(Snapshot.objects.filter(campaign_id__in=campaign_ids))
        parts = SnapshotPart.objects.filter(campaign_id__in=campaign_ids).order_by("position")
        by_campaign: dict[int, list[_Part]] = {}
        digests: dict[int, dict[str, str]] = {}
        for part in parts:
            by_campaign.setdefault(part.campaign_id, []).append(
                (part.side, orjson.loads(part.value))
            )
            if part.digest:
                digests.setdefault(part.campaign_id, {})[part.side] = part.digest
    return {
        s.campaign_id: Kept(
            s.seq, s.state, by_campaign.get(s.campaign_id, []), digests.get(s.campaign_id, {})
        )
        for s in snapshots
    }


def stored_state(campaign: Campaign) -> CampaignState | None:
    """A campaign's stored snapshot, whole (None: none is stored)."""
    found = stored([campaign.pk]).get(campaign.pk)
    return found.state() if found else None


def store_snapshot(campaign: Campaign, state: CampaignState) -> None:
    """Keeps `state` unless a later one is kept already: a reader outside the journal's lock (the
    odds task) that folded an older journal must not overwrite what a writer stored since, or
    the next append would fold the whole journal again."""
    core, parts = split(state)
    _store_whole(campaign, state["seq"], core, [_encoded(side, part) for side, part in parts])


def _store_whole(
    campaign: Campaign, seq: int, core: dict[str, Any], parts: list[EncodedPart]
) -> None:
    with transaction.atomic():
        # An UPDATE first: a campaign has its snapshot from its first event on (no read first).
        if not Snapshot.objects.filter(campaign=campaign, seq__lte=seq).update(seq=seq, state=core):
            if Snapshot.objects.filter(campaign=campaign).exists():
                return
            Snapshot.objects.update_or_create(
                campaign=campaign, defaults={"seq": seq, "state": core}
            )
        _replace_parts(campaign, parts)


@dataclass(frozen=True)
class EncodedPart:
    """A side's part ready to be written: as JSON (``state_digest.encoded``) and its digest."""

    side: str
    data: bytes  # the JSON as UTF-8
    digest: str

    @property
    def text(self) -> str:
        """The JSON as text, as it is written (decoded only for a part that is written)."""
        return self.data.decode()


def _encoded(side: str, part: Any) -> EncodedPart:
    data = encoded(part)
    return EncodedPart(side, data, digest_of(data))


def encoded_parts(state: CampaignState) -> list[EncodedPart]:
    """Each side's part of `state` as it would be stored, with its digest, in the state's order."""
    return [_encoded(side, part) for side, part in split(state)[1]]


def unshare(
    before: CampaignState,
    state: CampaignState,
    digests: dict[str, str],
    parts: list[EncodedPart],
    as_read: Callable[[Collection[str]], dict[str, Any]],
) -> None:
    """After a fold onto `state`, whose side parts `before` shared (``Kept.state_twice``): each
    part the fold changed in place (its digest in `parts` is not the stored one in `digests`) is
    given back to `before` as read (`as_read`), so `before` is again the state the fold began
    with. A part the fold left alone stays shared: it is the same JSON either way."""
    old, new = _sides(before), _sides(state)
    after = {part.side: part.digest for part in parts}
    changed = [
        side
        for side, part in old.items()
        if part is new.get(side) and (not digests.get(side) or digests[side] != after.get(side))
    ]
    if changed:
        read = as_read(changed)
        for side in changed:
            old[side] = read[side]


def _sides(state: CampaignState) -> dict[str, Any]:
    game = cast(dict[str, Any], state).get("game")
    sides = game.get("sides") if isinstance(game, dict) else None
    return sides if isinstance(sides, dict) else {}


def _replace_parts(campaign: Campaign, parts: list[EncodedPart]) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(*_upsert_parts_sql(campaign, list(enumerate(parts)), every=True))
        return
    SnapshotPart.objects.filter(campaign=campaign).delete()
    SnapshotPart.objects.bulk_create(
        SnapshotPart(
            campaign=campaign,
            side=part.side,
            position=n,
            value=part.text,
            digest=part.digest,
        )
        for n, part in enumerate(parts)
    )


def _upsert_parts_sql(
    campaign: Campaign, parts: list[tuple[int, EncodedPart]], every: bool = False
) -> tuple[str, list[Any]]:
    """One statement writing `parts` ((position, part)): an upsert, as PostgreSQL and SQLite both
    say it; with `every` (PostgreSQL), these are all the parts and the others are deleted."""
    params: list[Any] = []
    delete = ""
    if every:
        delete = (
            "WITH gone AS (DELETE FROM campaigns_snapshotpart WHERE campaign_id = %s "
            "AND NOT (side = ANY(%s::text[]))) "
        )
        params += [campaign.pk, [part.side for _, part in parts]]
    if not parts:
        return f"{delete}SELECT 1", params
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(parts))
    for n, part in parts:
        params += [campaign.pk, part.side, n, part.text, part.digest]
    return (
        f"{delete}INSERT INTO campaigns_snapshotpart "
        f"(campaign_id, side, position, value, digest) VALUES {values} "
        "ON CONFLICT (campaign_id, side) DO UPDATE SET position = excluded.position, "
        "value = excluded.value, digest = excluded.digest",
        params,
    )


def _dumps(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value)


def store_after_append(
    campaign: Campaign,
    before: CampaignState,
    state: CampaignState,
    digests: dict[str, str] | None = None,
    parts: list[EncodedPart] | None = None,
) -> dict[str, str]:
    """The journal's writer, under the campaign's lock: `before` is the state it read (the rows
    hold it when the snapshot's seq is `before`'s; `digests`: its parts' digests as stored),
    `state` the one to keep (`parts`: its parts encoded, ``encoded_parts``, if done already).
    On PostgreSQL the core by difference, on SQLite whole, then the side parts whose digest
    changed, whole; otherwise, or when the row turns out to hold another seq, too much
    changed, or the sides are not the same ones in the same order, the whole state
    (``store_snapshot``). Answers the digest of each side's part of `state`."""
    core = split(state)[0]
    encoded = parts if parts is not None else encoded_parts(state)
    after = {part.side: part.digest for part in encoded}
    if connection.vendor in ("postgresql", "sqlite"):
        core_before, parts_before = split(before)
        if [part.side for part in encoded] == [side for side, _ in parts_before]:
            known = digests or {}
            was = {side: known.get(side) or part_digest(old) for side, old in parts_before}
            changed = [(n, part) for n, part in enumerate(encoded) if was[part.side] != part.digest]
            update = _core_update(core_before, core)
            if update is not None and _write_changed(
                campaign, before["seq"], state["seq"], update, changed, core_before
            ):
                return after
    _store_whole(campaign, state["seq"], core, encoded)
    return after


def _sides_as_stored(core: dict[str, Any]) -> str | None:
    """The sides a core holds, as JSON text (None: it has no game or no sides)."""
    game = core.get("game")
    return _dumps(game["sides"]) if isinstance(game, dict) and "sides" in game else None


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


def _core_update(before: dict[str, Any], core: dict[str, Any]) -> tuple[str, list[Any]] | None:
    """How the core's column becomes `core`: on PostgreSQL its changed keys set with `jsonb_set`
    (None: more changed than MOST), on SQLite the whole text (JSON is text there, rewritten whole
    anyway)."""
    if connection.vendor == "sqlite":
        return "%s", [_dumps(core)]
    changes = difference(before, core)
    if changes is None:
        return None
    expression = "state"
    params: list[Any] = []
    for path, value in changes:
        if value is _GONE:
            expression = f"({expression} #- %s::text[])"
            params.append(path)
        else:
            expression = f"jsonb_set({expression}, %s::text[], %s::jsonb)"
            params += [path, _dumps(value)]
    return expression, params


_CORE_HOLDS = {  # the stored core's sides, compared with the ones read
    "postgresql": "(state #> '{game,sides}') IS NOT DISTINCT FROM %s::jsonb",
    "sqlite": "json_extract(state, '$.game.sides') IS %s",
}


def _write_changed(
    campaign: Campaign,
    seq: int,
    new_seq: int,
    update: tuple[str, list[Any]],
    parts: list[tuple[int, EncodedPart]],
    core_before: dict[str, Any],
) -> bool:
    """The core (`update`: ``_core_update``), then the changed `parts` (the core's row first, as
    every writer locks them: no two writers wait on each other); False, with nothing written,
    when the row does not hold `seq` or holds its sides' parts itself (a state stored whole,
    before snapshots were stored in parts)."""
    expression, params = update
    sql = (
        f"UPDATE campaigns_snapshot SET seq = %s, state = {expression} "
        f"WHERE campaign_id = %s AND seq = %s AND {_CORE_HOLDS[connection.vendor]}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [new_seq, *params, campaign.pk, seq, _sides_as_stored(core_before)])
        if cursor.rowcount != 1:
            return False
        if parts:
            cursor.execute(*_upsert_parts_sql(campaign, parts))
    return True
