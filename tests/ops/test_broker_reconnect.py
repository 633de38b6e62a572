"""A worker reconnects to its broker at a bounded pace and never gives up (muster.worker_consumer);
tests/faults/ stops a real Redis for a minute and times the worker's return to work."""

from celery.worker.consumer import Consumer as CeleryConsumer

from muster import worker_consumer
from muster.celery import app


def test_the_worker_uses_the_bounded_consumer_and_retries_for_ever():
    assert app.conf.worker_consumer == "muster.worker_consumer:Consumer"
    assert app.conf.broker_connection_max_retries is None


def test_its_reconnection_waits_at_most_the_ceiling(settings, monkeypatch):
    settings.MUSTER_BROKER_RECONNECT_SECONDS = 5.0
    asked = {}

    class Connection:
        def ensure_connection(self, *args, **kwargs):
            asked.update(kwargs, args=args)
            return self

    def celerys(consumer, conn):  # what Celery's own does with the connection
        return conn.ensure_connection("errback", None, callback="maybe_shutdown")

    monkeypatch.setattr(CeleryConsumer, "ensure_connected", celerys)
    consumer = worker_consumer.Consumer.__new__(worker_consumer.Consumer)
    consumer.ensure_connected(Connection())
    assert asked == {
        "args": ("errback", None),
        "callback": "maybe_shutdown",
        "interval_start": 1.0,
        "interval_step": 1.0,
        "interval_max": 5.0,
    }
