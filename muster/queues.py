"""Tasks sent by name. A service that hands work to a worker looks the task up by its name among
those its app registers (campaigns.tasks and rosters.tasks, imported by each app's ``ready()``):
the task module, a door, imports the service, never the other way round (no import circle)."""

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from celery import Task, current_app

log = logging.getLogger(__name__)


def task(name: str) -> Task[Any, Any]:
    """The registered Celery task `name` ("campaigns.tasks.compute_odds")."""
    found: Task[Any, Any] = current_app.tasks[name]
    return found


def send_each(name: str, ids: Iterable[int], mark: str, again_after: timedelta) -> int:
    """Send task `name` for each id whose task was not sent within `again_after` (a cache mark
    `mark` + id: a task sent meanwhile may still be waiting or retrying); the broker refusing one
    stops the round and takes its mark back (the next sweep tries again). How many were sent."""
    from django.core.cache import cache

    sent = 0
    for found in ids:
        key = f"{mark}{found}"
        if not cache.add(key, True, int(again_after.total_seconds())):
            continue
        if not send_or_log(name, found):
            cache.delete(key)
            break
        sent += 1
    return sent


def send_or_log(name: str, found: int) -> bool:
    """Send task `name` for `found` on the site's queue; False (logged) when the broker refuses."""
    from django.conf import settings

    try:
        task(name).apply_async(args=(found,), queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    except Exception as error:  # noqa: BLE001 - a broker away: the caller's sweep sends it again
        log.warning("could not enqueue %s for %s: %s", name, found, error)
        return False
    return True
