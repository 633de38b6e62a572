"""Pushing one notice to its recipient's devices, once.

The payload is the notice's own words and its link (a path on this site) as JSON, nothing else:
what the recipient reads in their inbox. It is encrypted to each device's keys (RFC 8291,
aes128gcm, by pywebpush) and posted with the site's VAPID signature to the device's endpoint
through the webhooks' checked transport (campaigns.webhooks: the endpoint resolved and every
address checked at each post, no redirect followed, short timeouts).

Once at most: the claim (`sent_at`) is written and committed under the row's lock before any
post, so a task delivered twice or retried pushes nothing again; a worker killed meanwhile leaves
the notice unpushed (it stays in the inbox and in the mail). At the claim the notice is read
again: read, resolved, its campaign archived or the person's choice for it now "nothing", and
nothing goes. A 404 or 410 from a push service (the device unsubscribed) removes the device."""

from __future__ import annotations

import json
import logging

import urllib3
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pywebpush import WebPusher, WebPushException

from campaigns.errors import DomainError
from campaigns.mails.choices import choice_for
from campaigns.models import MailChoice, NoticePush, PushSubscription
from campaigns.webhooks import addresses, delivery

from . import keys

log = logging.getLogger(__name__)
TTL_SECONDS = 24 * 3600  # a push service keeps a push for a phone that is off this long
GONE = (404, 410)


def payload(words: str, link: str) -> bytes:
    return json.dumps({"words": words, "link": link}, ensure_ascii=False).encode()


def _claim(push_id: int) -> tuple[bytes, list[PushSubscription]] | None:
    """Under the row's lock: the row claimed; the payload and the devices, None when nothing goes."""
    with transaction.atomic():
        row = (
            NoticePush.objects.select_for_update(of=("self",))
            .select_related("notice__campaign")
            .filter(pk=push_id, sent_at=None, wanted=True)
            .first()
        )
        if row is None:
            return None
        NoticePush.objects.filter(pk=row.pk).update(sent_at=timezone.now())
        notice = row.notice
        campaign = notice.campaign
        if campaign is None or campaign.archived_at is not None:
            return None
        if notice.read_at or notice.resolved_at:
            return None
        if choice_for(notice.recipient_id, campaign.pk) == MailChoice.NOTHING:
            return None
        devices = list(PushSubscription.objects.filter(user_id=notice.recipient_id))
    return payload(notice.words, notice.link), devices


def send(push_id: int) -> int:
    """Push the row's notice to every device of its recipient, if not pushed; how many took it."""
    if not keys.configured():
        return 0
    claimed = _claim(push_id)
    if claimed is None:
        return 0
    body, devices = claimed
    reached = sum(post(device, body) for device in devices)
    NoticePush.objects.filter(pk=push_id).update(devices_reached=reached)
    return reached


def post(device: PushSubscription, data: bytes) -> bool:
    """One encrypted post to one device; whether its push service took it. Gone: removed."""
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    try:
        target = addresses.resolve(
            device.endpoint,
            field="endpoint",
            allow_http=settings.MUSTER_PUSH_ALLOW_HTTP,
            allow_private=settings.MUSTER_PUSH_ALLOW_PRIVATE,
            poster="push notices go",
        )
        encoded = WebPusher(info).encode(data, "aes128gcm")
    except (DomainError, ValueError, WebPushException) as error:
        log.warning("push to device %s not sent: %s", device.pk, error)
        return False
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
        "Host": target.host_header,
        **keys.authorization(device.endpoint),
    }
    try:
        status = delivery.post_to(target, encoded["body"], headers)
    except (urllib3.exceptions.HTTPError, OSError) as error:
        log.warning("push to device %s failed: %s", device.pk, type(error).__name__)
        return False
    if status in GONE:
        PushSubscription.objects.filter(pk=device.pk).delete()
        return False
    if 200 <= status < 300:
        PushSubscription.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
        return True
    log.warning("push to device %s answered %s", device.pk, status)
    return False
