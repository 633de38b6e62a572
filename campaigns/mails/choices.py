"""A person's choice of e-mail per campaign: "each at once", "a daily digest" or "nothing". A
campaign they set nothing for follows their default (a digest until they change it)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.errors import DomainError
from campaigns.models import Campaign, CampaignMailChoice, MailChoice, MailSettings


def settings_of(user: User) -> MailSettings:
    """`user`'s mail settings (made, with the defaults, the first time they are asked for)."""
    found, _ = MailSettings.objects.get_or_create(user=user)
    return found


def default_of(user_id: int) -> str:
    found = MailSettings.objects.filter(user_id=user_id).values_list("default", flat=True).first()
    return found or MailChoice.DIGEST


def choice_for(user_id: int, campaign_id: int) -> str:
    """What `user` chose for the campaign, else their default."""
    chosen = (
        CampaignMailChoice.objects.filter(user_id=user_id, campaign_id=campaign_id)
        .values_list("choice", flat=True)
        .first()
    )
    return chosen or default_of(user_id)


def _checked(choice: str) -> str:
    if choice not in MailChoice.values:
        raise DomainError("choice", "Choose each at once, a daily digest or nothing.")
    return choice


def set_choice(*, user: User, campaign: Campaign, choice: str) -> None:
    CampaignMailChoice.objects.update_or_create(
        user=user, campaign=campaign, defaults={"choice": _checked(choice)}
    )


def set_default(*, user: User, choice: str) -> None:
    """The choice of every campaign `user` set nothing for (and of those to come)."""
    MailSettings.objects.update_or_create(user=user, defaults={"default": _checked(choice)})


def stop_all(*, user_id: int) -> None:
    """No more mails at all: the default and every campaign's choice set to nothing."""
    with transaction.atomic():
        MailSettings.objects.update_or_create(
            user_id=user_id, defaults={"default": MailChoice.NOTHING}
        )
        CampaignMailChoice.objects.filter(user_id=user_id).update(choice=MailChoice.NOTHING)


def stop_campaign(*, user_id: int, campaign_id: int) -> None:
    if Campaign.objects.filter(pk=campaign_id).exists():
        CampaignMailChoice.objects.update_or_create(
            user_id=user_id, campaign_id=campaign_id, defaults={"choice": MailChoice.NOTHING}
        )
