"""A running render says it is alive: its job's heartbeat is written every few seconds.

A job "running" with no heartbeat for longer than HEARTBEAT_STALE has no task behind it (its
worker was killed, its machine lost): the sweep (rosters.sweep) and a new request for the same
sheet put it back in the queue, in seconds instead of at the end of the task's time limit.
The heartbeat is written from a thread of the rendering process (a render is one long call),
on that thread's own database connection.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.db import connections
from django.utils import timezone

from muster.connection_loss import drop_connection

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 2.0
HEARTBEAT_STALE = timedelta(seconds=8)  # three missed beats: a PostgreSQL restart or a long pause is not one


@contextmanager
def beating(job_id, attempt: int, every: float | None = None):
    """Write the job's heartbeat every `every` seconds while the block runs."""
    stop = threading.Event()
    thread = threading.Thread(target=_beat, args=(job_id, attempt, every or HEARTBEAT_SECONDS, stop),
                              name=f"heartbeat-{job_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


def _beat(job_id, attempt: int, every: float, stop: threading.Event) -> None:
    from .models import PrintJob

    try:
        while not stop.wait(every):
            try:
                PrintJob.objects.filter(pk=job_id, status=PrintJob.RUNNING, attempts=attempt).update(
                    heartbeat_at=timezone.now())
            except Exception as error:  # noqa: BLE001 - a missed beat only makes the job look stale sooner
                logger.warning("Could not write the heartbeat of print job %s: %s", job_id, error)
                drop_connection()
    finally:
        connections.close_all()  # this thread's connections only
