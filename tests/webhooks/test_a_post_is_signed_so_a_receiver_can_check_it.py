"""Every post carries X-Muster-Timestamp and X-Muster-Signature (sha256= the HMAC-SHA256 of the
timestamp, a dot and the raw body, keyed by the webhook's secret): a receiver recomputing it as
docs/operations.md shows accepts the post, and refuses it changed, replayed late, or signed with
another secret."""

from __future__ import annotations

import hashlib
import hmac
import time

from campaigns.webhooks import delivery, signing
from campaigns.webhooks.organizer import send_test


def genuine(secret: str, body: bytes, timestamp: str, signature: str) -> bool:
    """A receiver's check, as the documentation writes it (not Muster's own code)."""
    if abs(time.time() - int(timestamp)) > 300:
        return False
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + mac.hexdigest(), signature)


def test_a_receiver_recomputing_the_hmac_accepts_the_post(hook, receiver, people):
    send_test(user=people["olga"], webhook=hook)
    assert delivery.deliver_due(hook.pk) == 1
    post = receiver.posts[0]
    timestamp = post["headers"]["X-Muster-Timestamp"]
    signature = post["headers"]["X-Muster-Signature"]
    assert signature.startswith("sha256=") and len(signature) == 7 + 64
    assert genuine(hook.secret, post["body"], timestamp, signature)
    assert signing.verify(hook.secret, post["body"], timestamp, signature)


def test_the_timestamp_is_the_time_of_the_post_and_part_of_what_is_signed(hook, receiver, people):
    send_test(user=people["olga"], webhook=hook)
    delivery.deliver_due(hook.pk)
    post = receiver.posts[0]
    timestamp, signature = (
        post["headers"]["X-Muster-Timestamp"],
        post["headers"]["X-Muster-Signature"],
    )
    assert abs(int(timestamp) - time.time()) < 60
    later = str(int(timestamp) + 1)
    assert not genuine(hook.secret, post["body"], later, signature)  # another time: not signed


def test_a_changed_body_another_secret_or_a_late_replay_is_refused(hook, receiver, people):
    send_test(user=people["olga"], webhook=hook)
    delivery.deliver_due(hook.pk)
    post = receiver.posts[0]
    timestamp, signature = (
        post["headers"]["X-Muster-Timestamp"],
        post["headers"]["X-Muster-Signature"],
    )
    assert not genuine(hook.secret, post["body"] + b" ", timestamp, signature)
    assert not genuine("another secret", post["body"], timestamp, signature)
    assert not signing.verify(
        hook.secret, post["body"], timestamp, signature, now=int(timestamp) + 301
    )


def test_each_attempt_is_signed_afresh_with_the_current_time():
    first = signing.headers("s", b"{}", now=1000)
    second = signing.headers("s", b"{}", now=1060)
    assert first["X-Muster-Timestamp"] == "1000" and second["X-Muster-Timestamp"] == "1060"
    assert first["X-Muster-Signature"] != second["X-Muster-Signature"]
