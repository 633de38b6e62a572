"""How a webhook's posts are signed, and how a receiver checks them (docs/operations.md shows a
receiver's few lines). The signed material is the timestamp, a dot and the raw body, so a captured
post cannot be sent again later with a new timestamp: a receiver refuses a timestamp older than a
few minutes, and a body or timestamp changed in the way breaks the signature."""

from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE = "X-Muster-Signature"
TIMESTAMP = "X-Muster-Timestamp"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=<hex>`: HMAC-SHA256, keyed by the webhook's secret, of `<timestamp>.<body>`."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def headers(secret: str, body: bytes, *, now: float | None = None) -> dict[str, str]:
    """The signature's headers for one attempt (a fresh timestamp each time)."""
    timestamp = str(int(time.time() if now is None else now))
    return {TIMESTAMP: timestamp, SIGNATURE: signature(secret, timestamp, body)}


def verify(
    secret: str,
    body: bytes,
    timestamp: str,
    signed: str,
    *,
    now: float | None = None,
    tolerance: int = TOLERANCE_SECONDS,
) -> bool:
    """What a receiver does: the timestamp recent, the signature recomputed and compared in
    constant time."""
    try:
        age = abs((time.time() if now is None else now) - int(timestamp))
    except ValueError:
        return False
    if age > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), signed)
