"""A digest of a part of a state (JSON-like data): the same for the same JSON, whatever the order
of its keys, and different for 1, 1.0 and true. The stored snapshot keeps one beside each side's
part (campaigns.services.snapshots), and an audience's position hashes the parts it may read by
their digests (campaigns.kept_answers.audiences)."""

from __future__ import annotations

import hashlib

import orjson

_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def canonical(value: object) -> bytes:
    """`value` as JSON, keys sorted: equal bytes, the same JSON."""
    return orjson.dumps(value, option=_CANONICAL, default=str)


def digest_of(encoded: bytes) -> str:
    return hashlib.sha256(encoded).hexdigest()[:32]


def part_digest(value: object) -> str:
    return digest_of(canonical(value))
