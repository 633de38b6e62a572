"""A side's part of a state (JSON-like data) as it is stored, and its digest: the stored snapshot
keeps each side's part as this text with its digest (campaigns.services.snapshots), and an
audience's position hashes the parts it may read by their digests
(campaigns.kept_answers.audiences). The text keeps the order the fold gave the keys (a game may
say a side's groups in their order); 1, 1.0 and true differ. A value JSON cannot hold (a set, an
object) is refused, as storing the state refuses it."""

from __future__ import annotations

import hashlib
import json

import orjson


def encoded(value: object) -> bytes:
    """`value` as JSON, its keys in their order. Encoded first as if every key were text (a state
    read as JSON: twice as fast as orjson's check of each key), then with keys that are not
    text written as text, the same bytes either way."""
    try:
        return orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except (orjson.JSONEncodeError, TypeError):  # an integer past 64 bits: Python's own encoder
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def digest_of(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()[:32]


def part_digest(value: object) -> str:
    return digest_of(encoded(value))
