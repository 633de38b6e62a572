"""Addresses of people who accepted an invitation mailed to that address, before mails of notices
existed, count as confirmed (as they do from now on: campaigns.services.clubs.accept_invitation)."""

from django.db import migrations
from django.utils import timezone


def confirm_invited(apps, schema_editor):
    Invitation = apps.get_model("campaigns", "Invitation")
    MailSettings = apps.get_model("campaigns", "MailSettings")
    accepted = Invitation.objects.filter(
        accepted_by__isnull=False, mail_sent_at__isnull=False
    ).exclude(email="")
    for invitation in accepted.select_related("accepted_by").iterator():
        user = invitation.accepted_by
        if (user.email or "").strip().lower() != invitation.email.strip().lower():
            continue
        MailSettings.objects.update_or_create(
            user=user, defaults={"confirmed_email": user.email, "confirmed_at": timezone.now()}
        )


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0009_notice_mails")]

    operations = [migrations.RunPython(confirm_invited, migrations.RunPython.noop)]
