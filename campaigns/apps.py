from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from django.apps import AppConfig
from django.db.models.signals import post_migrate

if TYPE_CHECKING:
    from .errors import DomainError
    from .models import Campaign
    from .services.upgrades import Outcome


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Clubs and campaigns"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 - registers the tasks services send by name (muster.queues)

        post_migrate.connect(upgrade_journals_after_migrate, sender=self)


def upgrade_journals_after_migrate(
    sender: AppConfig,
    verbosity: int = 1,
    plan: object = None,
    stdout: TextIO | None = None,
    **kwargs: object,
) -> None:
    """`migrate` brings every stored campaign to today's journal versions (services.upgrades), so
    a campaign stored by the previous release plays on at once (docs/operations.md)."""
    import sys

    from django.db import connection

    from .models import Campaign

    if Campaign._meta.db_table not in connection.introspection.table_names():
        return  # migrated backwards past the campaigns
    from .errors import DomainError
    from .services.upgrades import upgrade_all

    out = stdout or sys.stdout

    def report(campaign: Campaign, outcome: Outcome | DomainError) -> None:
        name = f"Campaign {campaign.pk} “{campaign.name}” ({campaign.club.slug})"
        if isinstance(outcome, DomainError):
            out.write(
                f"  {name}: NOT upgraded ({outcome.field}: {outcome.message}); "
                "see python manage.py upgrade_journals\n"
            )
        elif verbosity >= 1:
            out.write(f"  {name} upgraded: {outcome.summary}.\n")

    upgrade_all(report=report)
