"""A lost database connection (PostgreSQL restarted, a network blip, a failover), survived.

Django does not reconnect in the middle of a request or a task: once a query fails with the
connection gone, every later query on it fails too ("the connection is closed"). Here:

- ``DATABASE_ERRORS``: what a lost connection raises (the tasks retry on these);
- ``drop_connection``: closes this thread's unusable connection, so the next query opens a
  fresh one; it never raises;
- ``after_commit``: builds an answer once a write has committed, on a fresh connection if the
  first one is lost, and falls back to what needs no database, so that a stored write is never
  answered with an error.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypedDict, TypeVar

from django.db import InterfaceError, OperationalError, connections

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# A restarted PostgreSQL answers again within about half a second: a few short tries cover it,
# and a person waiting for the answer waits at most about 1.5 s more.
PAUSES = (0.0, 0.25, 0.5, 0.75)

T = TypeVar("T")


def timed_out(error: BaseException) -> bool:
    """A query PostgreSQL stopped (statement_timeout, lock_timeout, a cancel: SQLSTATE class 57014
    or 55P03), not a lost connection: the connection still works, and the same request sent at once
    would most likely be stopped again."""
    sqlstate = getattr(error.__cause__, "sqlstate", None) or getattr(error, "sqlstate", None)
    return sqlstate in ("57014", "55P03")


def drop_connection(alias: str = "default") -> None:
    """Close this thread's connection so that the next query opens a new one. Never raises:
    it is called on paths that must not fail themselves."""
    try:
        connection = connections[alias]
        if connection.in_atomic_block:
            connection.needs_rollback = True  # the block's own exit rolls back and closes
            return
        connection.close()
    except Exception:  # noqa: BLE001 - a broken socket may complain while being closed
        try:
            connections[alias].connection = None
        except Exception:  # noqa: BLE001
            pass


def after_commit(build: Callable[[], T], fallback: Callable[[], T], what: str = "answer") -> T:
    """``build()``; if the database connection is lost while it runs, again on a fresh connection
    (a few tries over about 1.5 s); if it still fails, ``fallback()``, which must not touch the
    database."""
    for pause in PAUSES:
        if pause:
            time.sleep(pause)
        try:
            return build()
        except DATABASE_ERRORS as error:
            logger.warning(
                "The database connection was lost while building the %s: %s", what, error
            )
            drop_connection()
    logger.error(
        "The database did not come back while building the %s: answered from what was stored", what
    )
    return fallback()


def retrying(action: Callable[[], T], what: str, tries: int = len(PAUSES)) -> T | None:
    """``action()`` on a fresh connection after a lost one, a few times; None (logged) if the
    database stays away. For failure paths that must never fail themselves."""
    for pause in PAUSES[:tries]:
        if pause:
            time.sleep(pause)
        try:
            return action()
        except DATABASE_ERRORS as error:
            logger.warning("The database connection was lost while %s: %s", what, error)
            drop_connection()
        except Exception:  # noqa: BLE001 - a failure path must not raise
            logger.exception("Failed while %s", what)
            return None
    logger.error("Gave up %s: the database did not answer", what)
    return None


# The Celery options of a task that touches the database: a lost connection is retried on a fresh
# one (the task closes the old one: drop_connection), after 1, 2, 4, then 8 s, at most 8 times
# (about 45 s); past that the job's heartbeat stops and the sweep re-enqueues it.
class RetryPolicy(TypedDict):
    """A task's automatic retry (Celery's task options of the same names)."""

    autoretry_for: tuple[type[BaseException], ...]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


TASK_RETRY: RetryPolicy = dict(
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=1,
    retry_backoff_max=8,
    retry_jitter=False,
    max_retries=8,
)
