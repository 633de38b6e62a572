"""Stopping mails without signing in: a signed token per person and campaign (or for every
mail), in each mail's footer and its RFC 8058 one-click `List-Unsubscribe` header. The token only
ever stops mail, so it needs no expiry; a POST acts (one click from the mail program, or the
button of the page a GET shows: mail scanners follow links, so a GET never unsubscribes)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

from campaigns.models import Campaign

from .choices import stop_all, stop_campaign

SALT = "muster.mails.unsubscribe"
EVERY_CAMPAIGN = 0


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    campaign_id: int  # EVERY_CAMPAIGN: every mail


def token(user_id: int, campaign_id: int = EVERY_CAMPAIGN) -> str:
    return signing.dumps([user_id, campaign_id], salt=SALT)


def url(user_id: int, campaign_id: int = EVERY_CAMPAIGN) -> str:
    site: str = settings.SITE_URL
    return site.rstrip("/") + reverse("mails-unsubscribe", args=[token(user_id, campaign_id)])


def read(value: str) -> Unsubscribe | None:
    """What a token stops; None when it is not one of ours."""
    try:
        user_id, campaign_id = signing.loads(value, salt=SALT)
        return Unsubscribe(int(user_id), int(campaign_id))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def campaign_name(found: Unsubscribe) -> str | None:
    """The campaign's name for the confirm page (the mail named it already); None: every mail."""
    if found.campaign_id == EVERY_CAMPAIGN:
        return None
    name = Campaign.objects.filter(pk=found.campaign_id).values_list("name", flat=True).first()
    return name or "this campaign"


def apply(found: Unsubscribe) -> None:
    if found.campaign_id == EVERY_CAMPAIGN:
        stop_all(user_id=found.user_id)
    else:
        stop_campaign(user_id=found.user_id, campaign_id=found.campaign_id)
