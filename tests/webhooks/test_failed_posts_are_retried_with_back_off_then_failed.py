"""A post the receiver refuses (500) is due again after a back-off that doubles, posted again from
its outbox row (the same event, signed afresh), delivered once the receiver takes it; after
MAX_ATTEMPTS it is failed, its last error in words on the organizer's page."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from campaigns.models import WebhookDelivery
from campaigns.webhooks import delivery, outbox
from campaigns.webhooks.organizer import send_test


def _due_now(row: WebhookDelivery) -> None:
    """The back-off's time come (as if its minutes had passed)."""
    WebhookDelivery.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())


def test_a_500_then_a_200_is_delivered_on_the_second_attempt_after_a_back_off(
    hook, receiver, people
):
    receiver.answers = [500, 200]
    send_test(user=people["olga"], webhook=hook)
    before = timezone.now()
    assert delivery.deliver_due(hook.pk) == 0
    row = WebhookDelivery.objects.get(webhook=hook)
    assert (row.status, row.attempts) == (WebhookDelivery.PENDING, 1)
    assert row.last_error == "The receiver answered 500 instead of accepting the post."
    wait = row.next_attempt_at - before
    assert timedelta(seconds=55) < wait <= timedelta(seconds=65)
    assert delivery.deliver_due(hook.pk) == 0  # not due yet: nothing posted
    assert len(receiver.posts) == 1
    _due_now(row)
    assert delivery.deliver_due(hook.pk) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == (WebhookDelivery.DELIVERED, 2)
    assert row.delivered_at is not None
    assert len(receiver.posts) == 2
    assert receiver.posts[0]["body"] == receiver.posts[1]["body"]  # the same event again
    ids = {post["headers"]["X-Muster-Delivery"] for post in receiver.posts}
    assert ids == {row.event_key}  # a receiver can tell it is the same event
    assert delivery.deliver_due(hook.pk) == 0  # delivered: never posted again
    assert len(receiver.posts) == 2


def test_the_back_off_doubles_and_is_bounded():
    waits = [delivery.backoff(n).total_seconds() / 60 for n in range(1, delivery.MAX_ATTEMPTS)]
    assert waits == [1, 2, 4, 8, 16, 32]


def test_a_post_refused_every_time_is_failed_after_the_last_attempt_and_shown_in_words(
    hook, receiver, people, client_for
):
    receiver.answers = [500] * delivery.MAX_ATTEMPTS
    send_test(user=people["olga"], webhook=hook)
    row = WebhookDelivery.objects.get(webhook=hook)
    for _ in range(delivery.MAX_ATTEMPTS):
        _due_now(row)
        delivery.deliver_due(hook.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (WebhookDelivery.FAILED, delivery.MAX_ATTEMPTS)
    _due_now(row)
    delivery.deliver_due(hook.pk)
    assert len(receiver.posts) == delivery.MAX_ATTEMPTS  # failed: no more attempts
    page = client_for("olga").get(f"/clubs/{hook.club.slug}/webhooks/")
    text = page.content.decode()
    assert "Failed" in text
    assert "The receiver answered 500 instead of accepting the post." in text
    assert "Send again" in text


def test_the_organizer_sends_a_failed_post_again(hook, receiver, people, client_for):
    receiver.answers = [500] * delivery.MAX_ATTEMPTS
    send_test(user=people["olga"], webhook=hook)
    row = WebhookDelivery.objects.get(webhook=hook)
    WebhookDelivery.objects.filter(pk=row.pk).update(
        status=WebhookDelivery.FAILED, attempts=delivery.MAX_ATTEMPTS
    )
    answer = client_for("olga").post(
        f"/clubs/{hook.club.slug}/webhooks/{hook.pk}/deliveries/{row.pk}/again/"
    )
    assert answer.status_code == 302
    row.refresh_from_db()
    assert (row.status, row.attempts) == (WebhookDelivery.PENDING, 0)


def test_the_task_posts_after_commit_and_a_lost_task_is_sent_again_by_the_sweep(
    hook, receiver, people, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send_test(user=people["olga"], webhook=hook)  # the task runs inline (no broker here)
    assert WebhookDelivery.objects.get(webhook=hook).status == WebhookDelivery.DELIVERED
    sent = []
    monkeypatch.setattr(
        outbox.queues,
        "task",
        lambda name: type(
            "T", (), {"apply_async": staticmethod(lambda args, **kw: sent.append(args[0]))}
        ),
    )
    send_test(user=people["olga"], webhook=hook)  # its task lost (never run)
    outbox.sweep()
    assert sent == []  # due only a moment: its own task may still come
    WebhookDelivery.objects.filter(status=WebhookDelivery.PENDING).update(
        next_attempt_at=timezone.now() - timedelta(minutes=1)
    )
    outbox.sweep()
    outbox.sweep()  # sent a moment ago: left to its task
    assert sent == [hook.pk]


def test_a_worker_posting_a_row_keeps_another_from_posting_it(hook, receiver, people):
    send_test(user=people["olga"], webhook=hook)
    row = WebhookDelivery.objects.get(webhook=hook)
    WebhookDelivery.objects.filter(pk=row.pk).update(
        claimed_until=timezone.now() + timedelta(seconds=30)
    )
    assert delivery.attempt(row.pk) is False
    assert receiver.posts == []
