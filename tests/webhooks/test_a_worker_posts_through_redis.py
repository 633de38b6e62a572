"""A real worker over Redis posts a club's webhook: the test post is owed in the request's
transaction, its task sent after commit goes through Redis to the worker process, which posts it,
signed, to the receiver (the operator's flags set in the worker's environment)."""

from __future__ import annotations

import pytest

from campaigns.models import Webhook, WebhookDelivery
from campaigns.webhooks import signing
from campaigns.webhooks.organizer import send_test
from tests.workers import wait_for

from .conftest import Receiver

pytestmark = pytest.mark.services


def test_the_worker_posts_the_test_signed(celery_worker, club, people, settings):
    worker = celery_worker(MUSTER_WEBHOOKS_ALLOW_PRIVATE="1", MUSTER_WEBHOOKS_ALLOW_HTTP="1")
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = settings.MUSTER_WEBHOOKS_ALLOW_HTTP = True
    receiver = Receiver()
    try:
        hook = Webhook.objects.create(club=club, url=receiver.url)
        send_test(user=people["olga"], webhook=hook)
        wait_for(lambda: receiver.posts, 60, message=f"the post\n{worker.log()}")
        post = receiver.posts[0]
        headers = post["headers"]
        assert signing.verify(
            hook.secret, post["body"], headers["X-Muster-Timestamp"], headers["X-Muster-Signature"]
        )
        delivered = wait_for(
            lambda: WebhookDelivery.objects.filter(status="delivered").first(), 30, message="row"
        )
        assert delivered.attempts == 1
    finally:
        receiver.close()
