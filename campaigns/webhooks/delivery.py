"""Posting a webhook's rows: each claimed for a moment (so two workers never post one row at once),
posted signed to the checked address of its URL (campaigns.webhooks.addresses: resolved and checked
at each attempt, no redirect followed, short timeouts, a bounded answer read), then marked
delivered, or due again after a back-off that doubles each time, or failed after MAX_ATTEMPTS with
its last error in words for the organizer's page."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import urllib3
from django.db.models import F
from django.utils import timezone

from campaigns.errors import DomainError
from campaigns.models import WebhookDelivery

from . import addresses, events, signing
from .outbox import due, send

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 7
BACKOFF_SECONDS = 60  # then 2, 4, 8, 16 and 32 minutes: about an hour in all
CLAIM = timedelta(seconds=60)
TIMEOUT = urllib3.Timeout(connect=3.0, read=5.0)
MAX_BODY = 16 * 1024  # what is posted
MAX_ANSWER = 1024  # what is read of the answer
BATCH = 20
CA_CERTS: str | None = None  # the system's trusted authorities (a test names its own)


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt."""
    return timedelta(seconds=BACKOFF_SECONDS * 2 ** max(attempts - 1, 0))


def deliver_due(webhook_id: int) -> int:
    """Post a webhook's due rows, oldest first; how many were delivered."""
    rows = WebhookDelivery.objects.filter(due(), webhook_id=webhook_id).order_by("pk")
    return sum(attempt(pk) for pk in list(rows.values_list("pk", flat=True)[:BATCH]))


def attempt(delivery_id: int) -> bool:
    """One attempt at one row, if it is due and nobody else is at it; True when delivered."""
    now = timezone.now()
    claimed = WebhookDelivery.objects.filter(due(), pk=delivery_id).update(
        claimed_until=now + CLAIM, attempts=F("attempts") + 1
    )
    if not claimed:
        return False
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    error = post(delivery)
    if error is None:
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=WebhookDelivery.DELIVERED,
            delivered_at=timezone.now(),
            claimed_until=None,
            last_error="",
        )
        return True
    if delivery.attempts >= MAX_ATTEMPTS:
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=WebhookDelivery.FAILED, claimed_until=None, last_error=error[:300]
        )
        return False
    wait = backoff(delivery.attempts)
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        next_attempt_at=timezone.now() + wait, claimed_until=None, last_error=error[:300]
    )
    send(delivery.webhook_id, countdown=wait.total_seconds())
    return False


def payload(delivery: WebhookDelivery) -> bytes:
    shaped = events.body(delivery.event, delivery.event_key, delivery.webhook.format)
    return json.dumps(shaped, separators=(",", ":"), ensure_ascii=False).encode()


def post(delivery: WebhookDelivery) -> str | None:
    """Post one row; None when the receiver took it (2xx), otherwise what went wrong in words."""
    body = payload(delivery)
    if len(body) > MAX_BODY:
        return "The event is too long to post."
    try:
        target = addresses.resolve(delivery.webhook.url)
    except DomainError as error:
        return error.message
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Muster-Webhooks/1",
        "Host": target.host_header,
        "X-Muster-Event": str(delivery.event.get("kind", "")),
        "X-Muster-Delivery": delivery.event_key,
        **signing.headers(delivery.webhook.secret, body),
    }
    try:
        status = post_to(target, body, headers)
    except urllib3.exceptions.SSLError:
        return "The receiver's certificate was refused (https could not be trusted)."
    except urllib3.exceptions.NewConnectionError:  # (a ConnectTimeoutError to urllib3)
        return "The receiver could not be reached (the connection was refused or failed)."
    except (urllib3.exceptions.ConnectTimeoutError, urllib3.exceptions.ReadTimeoutError):
        return "The receiver did not answer in time."
    except (urllib3.exceptions.HTTPError, OSError):
        return "The receiver could not be reached (the connection failed)."
    if 200 <= status < 300:
        return None
    if 300 <= status < 400:
        return f"The receiver answered {status}, a redirect: give the address it redirects to."
    return f"The receiver answered {status} instead of accepting the post."


def post_to(target: addresses.Target, body: bytes, headers: dict[str, str]) -> int:
    """POST to the checked address (never the name again: nothing is resolved twice); the status.
    Web Push posts through it too (campaigns.push.sending)."""
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            timeout=TIMEOUT,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            ca_certs=CA_CERTS,
            assert_hostname=target.host,
            server_hostname=target.host,
        )
    else:
        pool = urllib3.HTTPConnectionPool(
            target.address, target.port, timeout=TIMEOUT, retries=False
        )
    with pool:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers=headers,
            redirect=False,
            retries=False,
            assert_same_host=False,
            preload_content=False,
        )
        try:
            response.read(MAX_ANSWER)  # read a little: the status is what counts
        finally:
            response.release_conn()
        return response.status
