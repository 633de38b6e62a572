"""Celery tasks of the campaigns app: thin doors into campaigns.services.

Tasks receive primary keys only (never secret data: arguments are copied into the broker and
logs) and are idempotent. A lost database connection is retried on a fresh one, with back-off
and a bound (muster.connection_loss.TASK_RETRY).
"""

from celery import shared_task

from muster.connection_loss import DATABASE_ERRORS, TASK_RETRY, RetryPolicy, drop_connection

from .mails import addresses, outbox as mail_outbox, sending
from .notices import making
from .push import outbox as push_outbox, sending as push_sending
from .services import invitation_mail, odds
from .webhooks import delivery as webhook_delivery


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **TASK_RETRY)
def compute_odds(campaign_id: int, side: str) -> None:
    """Exact odds of a side's upcoming rolls, kept in the cache for that side's pages."""
    try:
        odds.compute_and_store(campaign_id, side)
    except DATABASE_ERRORS:
        drop_connection()
        raise


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **TASK_RETRY)
def make_notices(campaign_id: int) -> None:
    """The notices of a campaign's changes (its outbox rows): idempotent, sent after commit and
    again by the sweep when lost. Their mails and pushes are planned when this task processed
    rows: a task sent after another append of the campaign, whose rows an earlier task took,
    has made nothing to plan (planning found nothing, in about half the task's time). Rows
    processed by a task that died or failed before planning are planned by the workers' sweep
    (mail_outbox.sweep and push_outbox.sweep, every minute)."""
    try:
        if making.process(campaign_id):
            mail_outbox.after_notices(campaign_id)  # their mails planned, those due sent
            push_outbox.after_notices(campaign_id)  # their pushes planned and sent
    except DATABASE_ERRORS:
        drop_connection()
        raise


# A mail server that is down or refuses for a while (OSError covers smtplib's errors): retried
# with a longer back-off than the database's, for about three-quarters of an hour.
MAIL_RETRY: RetryPolicy = dict(
    autoretry_for=(*DATABASE_ERRORS, OSError),
    retry_backoff=30,
    retry_backoff_max=600,
    retry_jitter=False,
    max_retries=8,
)


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **MAIL_RETRY)
def send_invitation(invitation_id: int) -> None:
    """E-mail an invitation (its id only: the code never goes through the broker). Sent once."""
    try:
        invitation_mail.send(invitation_id)
    except DATABASE_ERRORS:
        drop_connection()
        raise


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **TASK_RETRY)
def deliver_webhooks(webhook_id: int) -> None:
    """Post a club webhook's due events (its outbox rows): each row claimed, so a task sent twice
    posts nothing twice; a failed post is due again after its back-off (campaigns.webhooks)."""
    try:
        webhook_delivery.deliver_due(webhook_id)
    except DATABASE_ERRORS:
        drop_connection()
        raise


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **MAIL_RETRY)
def send_notice_mail(mail_id: int) -> None:
    """E-mail a person the notices of one mail-outbox row (its id only). Sent once."""
    try:
        sending.send(mail_id)
    except DATABASE_ERRORS:
        drop_connection()
        raise


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **TASK_RETRY)
def send_notice_push(push_id: int) -> None:
    """Push a notice to its recipient's devices (its push-outbox row's id only). Pushed once."""
    try:
        push_sending.send(push_id)
    except DATABASE_ERRORS:
        drop_connection()
        raise


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True, **MAIL_RETRY)
def send_address_confirmation(user_id: int) -> None:
    """E-mail the link that confirms a person's address (composed here: no token in the broker)."""
    try:
        addresses.send_confirmation(user_id)
    except DATABASE_ERRORS:
        drop_connection()
        raise
