"""A task acknowledged after the worker's connection to Redis was closed (Redis went away while
it ran) is reported as a lost connection, which Celery logs and survives, never as the
AttributeError that stopped the worker."""

import logging
import uuid

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Queue

from muster.broker_transport import Transport
from tests.workers import need, redis_available


def _received_then_closed(transport: str | None):
    """A message received without acknowledgement, then its connection closed the way a worker's
    consumer closes it on a lost connection (pools dropped, the transport's client cleared)."""
    name = f"test-ack-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), name, auto_delete=True)
    connection = Connection(settings.REDIS_URL, transport=transport)
    channel = connection.channel()
    connection.Producer(channel).publish(
        {"task": 1}, exchange=queue.exchange, routing_key=name, declare=[queue]
    )
    message = queue(channel).get(no_ack=False)
    assert message is not None
    channel._disconnect_pools()
    connection._do_close_transport()
    return message, connection


@pytest.fixture
def redis_broker():
    """Redis, left as found: the test's message is taken out of kombu's unacknowledged ones."""
    need(redis_available(), "needs Redis (set REDIS_URL=redis://...)")
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    before = set(client.hkeys("unacked"))
    yield
    left = set(client.hkeys("unacked")) - before
    if left:
        client.hdel("unacked", *left)
        client.zrem("unacked_index", *left)


def test_an_acknowledgement_on_a_closed_connection_is_a_connection_error_the_worker_survives(
    redis_broker, caplog
):
    message, connection = _received_then_closed(None)
    with caplog.at_level(logging.CRITICAL):
        message.ack_log_error(logging.getLogger("celery.worker"), connection.connection_errors)
    assert "Couldn't ack" in caplog.text


def test_kombus_own_transport_raises_what_stopped_the_worker(redis_broker):
    """Why the transport is Muster's: kombu's own raises an error Celery takes for a crash (when
    kombu fixes it, this fails, and muster.broker_transport can go)."""
    message, connection = _received_then_closed("kombu.transport.redis:Transport")
    with pytest.raises(AttributeError):
        message.ack_log_error(logging.getLogger("celery.worker"), connection.connection_errors)


def test_a_redis_url_uses_muster_s_transport_and_still_reads_as_redis(redis_broker):
    connection = Connection(settings.REDIS_URL)
    assert isinstance(connection.transport, Transport)
    assert connection.as_uri().startswith("redis://")
