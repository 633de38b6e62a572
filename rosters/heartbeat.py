"""A task that holds a print job says it is alive: the job's heartbeat is written every few seconds.

A job "running" with no heartbeat for longer than HEARTBEAT_STALE has no task behind it (its
worker was killed whole, its machine lost): the sweep (rosters.sweep) and a new request for the
same sheet put it back in the queue, in seconds instead of at the end of the task's time limit.

The heartbeat is written by each worker's main process, from a thread beside its event loop, for
every task it holds (running in its pool, or waiting for a retry's countdown): one UPDATE every
HEARTBEAT_SECONDS. The rendering process runs no thread of its own: WeasyPrint lays out a long
sheet in parts in forked children, which it does only in a process with one thread
(rosters.weasyprint_render).

A render run inline (no broker: CELERY_TASK_ALWAYS_EAGER, in the web process that asked for it)
has no worker's main process behind it: ``beating`` writes the same heartbeat from a thread of
the rendering process for as long as the render runs, so that a render longer than HEARTBEAT_STALE
is not taken for abandoned (sent again by a second request, offered a Retry). That thread holds a
lock through each beat, and a fork waits for it (os.register_at_fork): a child forked to lay out a
part copies no lock held in the middle of a beat, so WeasyPrint still forks beside it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.utils import timezone

from muster.connection_loss import drop_connection

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 2.0
HEARTBEAT_STALE = timedelta(
    seconds=8
)  # three missed beats: a PostgreSQL restart or a long pause is not one

_running: dict[str, threading.Event] = {}

INLINE_THREAD = "muster-inline-heartbeat"
_beating = threading.Lock()  # held through an inline beat; a fork waits for it


def _before_fork() -> None:
    _beating.acquire()


def _after_fork_in_parent() -> None:
    _beating.release()


def _after_fork_in_child() -> None:
    global _beating
    _beating = threading.Lock()  # the child has no beating thread: a lock of its own, free


if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_before_fork,
        after_in_parent=_after_fork_in_parent,
        after_in_child=_after_fork_in_child,
    )


def held_task_ids() -> list[str]:
    """The ids of the tasks this worker holds (Celery's state in its main process)."""
    from celery.worker import state

    for _ in range(3):
        try:
            return list(state.requests)
        except RuntimeError:  # changed while read by the event loop: read again
            continue
    return []


def beat(task_ids: Iterable[str]) -> int:
    """Write the heartbeat of the running jobs these tasks hold; how many."""
    from .models import PrintJob

    if not task_ids:
        return 0
    return PrintJob.objects.filter(status=PrintJob.RUNNING, task_id__in=list(task_ids)).update(
        heartbeat_at=timezone.now()
    )


def start(every: float | None = None) -> None:
    """Beat for this worker's tasks until ``stop()`` (the worker's main process, once it is ready)."""
    if "heartbeat" in _running:
        return
    stop_event = _running["heartbeat"] = threading.Event()
    interval = every or HEARTBEAT_SECONDS

    def loop() -> None:
        from django.db import connections

        try:
            while not stop_event.wait(interval):
                try:
                    beat(held_task_ids())
                except Exception as error:  # noqa: BLE001 - a missed beat only makes a job look stale sooner
                    logger.warning(
                        "Could not write the heartbeat of this worker's print jobs: %s", error
                    )
                    drop_connection()
        finally:
            connections.close_all()

    threading.Thread(target=loop, name="muster-heartbeat", daemon=True).start()


def stop() -> None:
    event = _running.pop("heartbeat", None)
    if event is not None:
        event.set()


@contextmanager
def beating(task_id: str, every: float | None = None) -> Iterator[None]:
    """The heartbeat of one task run inline (no broker), written as a worker's main process writes
    it for the tasks it holds: every HEARTBEAT_SECONDS while the block runs, from a thread that
    ends with it."""
    if not task_id:
        yield
        return
    stop_event = threading.Event()
    interval = every or HEARTBEAT_SECONDS

    def loop() -> None:
        from django.db import connections

        try:
            while not stop_event.wait(interval):
                with _beating:
                    try:
                        beat([task_id])
                    except Exception as error:  # noqa: BLE001 - a missed beat only makes a job look stale sooner
                        logger.warning(
                            "Could not write the heartbeat of an inline render: %s", error
                        )
                        drop_connection()
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=loop, name=INLINE_THREAD, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop_event.set()
        thread.join(timeout=10)


def forks_safely_beside(thread: threading.Thread) -> bool:
    """Whether a process may fork while this thread runs: an inline heartbeat's (see above)."""
    return thread.name == INLINE_THREAD
