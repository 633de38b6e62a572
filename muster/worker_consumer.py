"""The worker's consumer, reconnecting to a broker that went away at a bounded pace.

Celery's consumer reconnects through kombu's ``ensure_connection`` with kombu's default back-off:
2 s, then 4, 6, ... up to 30 s between attempts, and gives up after 100 (a worker exits after
about 47 minutes without its broker). After an outage of a few minutes a worker whose Redis came
back waited up to 30 s more before it took work (docs/operations.md, "Faults"). This consumer
passes a ceiling of its own: 1 s, 2, 3, ... up to MUSTER_BROKER_RECONNECT_SECONDS (5 s) between
attempts, for as long as the broker is away (CELERY_BROKER_CONNECTION_MAX_RETRIES = None: a
worker outlives any outage instead of exiting). Set as the worker's consumer by
CELERY_WORKER_CONSUMER.
"""

from __future__ import annotations

import functools
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer
from django.conf import settings


def reconnect_intervals() -> dict[str, float]:
    """kombu's retry_over_time arguments: start at 1 s, 1 s more each time, never over the ceiling."""
    ceiling = max(1.0, float(getattr(settings, "MUSTER_BROKER_RECONNECT_SECONDS", 5.0)))
    return {"interval_start": 1.0, "interval_step": 1.0, "interval_max": ceiling}


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn: Any) -> Any:
        # Celery calls conn.ensure_connection(errback, max_retries, callback=...) with kombu's
        # default intervals: the connection's own method, given the bounded ones, for this call.
        conn.ensure_connection = functools.partial(conn.ensure_connection, **reconnect_intervals())
        return super().ensure_connected(conn)
