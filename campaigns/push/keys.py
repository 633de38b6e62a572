"""The site's VAPID key pair (RFC 8292), from settings: without both keys push is off. A pair is
made by `manage.py make_vapid_keys` (both printed base64url: the private key's 32 raw bytes, the
public key's uncompressed point, which is what a browser's PushManager.subscribe is given)."""

from __future__ import annotations

import base64
import time
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

CLAIM_SECONDS = 12 * 3600  # how long a signed claim is good for (RFC 8292: at most a day)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def public_key() -> str:
    return str(settings.MUSTER_VAPID_PUBLIC_KEY or "").strip()


def configured() -> bool:
    """Whether push is on: both keys set."""
    return bool(public_key() and str(settings.MUSTER_VAPID_PRIVATE_KEY or "").strip())


def subject() -> str:
    given = str(settings.MUSTER_VAPID_SUBJECT or "").strip()
    return given or f"mailto:{settings.DEFAULT_FROM_EMAIL}"


def make_pair() -> tuple[str, str]:
    """A new (private, public) pair, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(private), _b64(public)


def authorization(endpoint: str) -> dict[str, str]:
    """The VAPID Authorization header for a post to `endpoint` (its origin is the audience)."""
    parts = urlsplit(endpoint)
    vapid = Vapid02.from_string(str(settings.MUSTER_VAPID_PRIVATE_KEY).strip())
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "sub": subject(),
        "exp": int(time.time()) + CLAIM_SECONDS,
    }
    signed: dict[str, str] = vapid.sign(claims)
    return {"Authorization": signed["Authorization"]}
