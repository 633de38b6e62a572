"""An organizer's webhooks of a club: add, change, remove, a new secret, a test post, and the
webhooks with their last deliveries as the settings page shows them. Organizers only: a player of
the club is refused (Forbidden), a stranger finds no club (NotFound, from visibility)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.access import visibility
from campaigns.errors import DomainError, Forbidden, NotFound
from campaigns.models import Club, ClubLogEntry, Webhook, WebhookDelivery

from . import addresses, events
from .outbox import send, write

LOG_SIZE = 10
MAX_PER_CLUB = 5


@dataclass(frozen=True)
class Shown:
    webhook: Webhook
    deliveries: list[WebhookDelivery]  # the last LOG_SIZE, newest first


def _require_organizer(user: User, club: Club) -> None:
    if not visibility.is_organizer(user, club):
        raise Forbidden("Only a club organizer can see or change its webhooks.")


def _log(club: Club, user: User, action: str, webhook: Webhook) -> None:
    # The host only: a webhook's address may carry a token (Discord's do), and members read the log.
    host = addresses.urlsplit_host(webhook.url)
    ClubLogEntry.objects.create(club=club, actor=user, action=action, detail={"host": host})


def webhooks_of(*, user: User, club: Club) -> QuerySet[Webhook]:
    _require_organizer(user, club)
    return Webhook.objects.filter(club=club).order_by("pk")


def webhook_of(*, user: User, club: Club, webhook_id: int) -> Webhook:
    webhook = webhooks_of(user=user, club=club).filter(pk=webhook_id).first()
    if webhook is None:
        raise NotFound("webhook")
    return webhook


def shown(*, user: User, club: Club) -> list[Shown]:
    return [
        Shown(hook, list(hook.deliveries.order_by("-created_at", "-pk")[:LOG_SIZE]))
        for hook in webhooks_of(user=user, club=club)
    ]


def _format(format_: str) -> str:
    if format_ not in dict(Webhook.FORMATS):
        raise DomainError("format", "Choose plain JSON or Discord.")
    return format_


def add(*, user: User, club: Club, url: str, format_: str) -> Webhook:
    """A new webhook (its secret made here, shown to the organizer once)."""
    _require_organizer(user, club)
    url, format_ = addresses.check(url), _format(format_)
    with transaction.atomic():
        if Webhook.objects.filter(club=club).count() >= MAX_PER_CLUB:
            raise DomainError("url", f"A club has at most {MAX_PER_CLUB} webhooks.")
        webhook = Webhook.objects.create(club=club, url=url, format=format_, created_by=user)
        _log(club, user, "webhook.added", webhook)
    return webhook


def change(*, user: User, webhook: Webhook, url: str, format_: str) -> Webhook:
    _require_organizer(user, webhook.club)
    webhook.url, webhook.format = addresses.check(url), _format(format_)
    webhook.save(update_fields=["url", "format"])
    _log(webhook.club, user, "webhook.changed", webhook)
    return webhook


def remove(*, user: User, webhook: Webhook) -> None:
    _require_organizer(user, webhook.club)
    with transaction.atomic():
        _log(webhook.club, user, "webhook.removed", webhook)
        webhook.delete()


def new_secret(*, user: User, webhook: Webhook) -> str:
    """A new secret: the old one signs nothing more."""
    _require_organizer(user, webhook.club)
    webhook.secret = Webhook._meta.get_field("secret").get_default()
    webhook.save(update_fields=["secret"])
    _log(webhook.club, user, "webhook.secret", webhook)
    return webhook.secret


def send_test(*, user: User, webhook: Webhook) -> None:
    """A test post, delivered (and logged) like any event."""
    _require_organizer(user, webhook.club)
    with transaction.atomic():
        write([webhook], [events.trial_event(webhook.club, f"test/{uuid.uuid4().hex[:12]}")])


def send_again(*, user: User, webhook: Webhook, delivery_id: int) -> None:
    """A failed post, due again now (its attempts counted afresh)."""
    _require_organizer(user, webhook.club)
    with transaction.atomic():
        found = webhook.deliveries.filter(pk=delivery_id, status=WebhookDelivery.FAILED).update(
            status=WebhookDelivery.PENDING,
            attempts=0,
            claimed_until=None,
            next_attempt_at=timezone.now(),
        )
        if not found:
            raise NotFound("delivery")
        send(webhook.pk)
