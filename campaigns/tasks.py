"""Celery tasks of the campaigns app: thin doors into campaigns.services.

Tasks receive primary keys only (never secret data: arguments are copied into the broker and
logs) and are idempotent.
"""

from celery import shared_task

from .services import odds


@shared_task(ignore_result=True)
def compute_odds(campaign_id: int, side: str) -> None:
    """Exact odds of a side's upcoming rolls, kept in the cache for that side's pages."""
    odds.compute_and_store(campaign_id, side)
