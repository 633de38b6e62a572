"""What the broker holds: whether a queued job's task is still somewhere in it.

A job is "queued" in the database from the moment it is asked for; its task is a message in the
broker. The two can part: the broker unreachable when the task was sent, or Redis restarted
empty (its queue lost). Celery cannot be asked for one task, so this reads the broker's Redis
the way kombu's Redis transport keeps it: the queue's lists (one per priority step) and the
messages delivered but not acknowledged yet (the `unacked` hash: a worker has them, running or
waiting for a retry's countdown). Only kombu's own channel names the keys, so a key prefix or
another priority setting is followed.

A delivered message counts only while its delivery is recent (DELIVERED_FRESH): a worker holds
at most a couple of tasks it has not started (prefetch), and starts them within a render's time.
One delivered long ago to a job still queued was taken by a worker that died with it (its
message would come back only after the visibility timeout, an hour). Taking it for lost when it
was not costs a second task, which finds the job taken and does nothing.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

logger = logging.getLogger(__name__)

READ_AT_MOST = 20000  # messages read per list; a longer queue answers "cannot say"
DELIVERED_FRESH = 60  # seconds a delivered, unacknowledged message counts as held


def held_task_ids(queue: str, delivered_within: float | None = DELIVERED_FRESH) -> set[str] | None:
    """Ids of the tasks the broker holds for `queue` (waiting, or delivered within
    `delivered_within` seconds and not acknowledged; None: delivered however long ago); None when
    it cannot say (tasks run inline, a broker other than Redis, unreachable, a queue too long to
    read)."""
    from celery import current_app as app

    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            # kombu's Redis channel: its queue keys are its own, untyped, read only if there
            channel: Any = conn.default_channel
            if not all(
                hasattr(channel, name)
                for name in ("_q_for_pri", "unacked_key", "unacked_index_key")
            ):
                return None  # not kombu's Redis transport
            client = channel.client
            held: set[str] = set()
            for priority in channel.priority_steps:
                found = client.lrange(channel._q_for_pri(queue, priority), 0, READ_AT_MOST)
                if len(found) > READ_AT_MOST:
                    return None
                held.update(_task_id(raw) for raw in found)
            since = "-inf" if delivered_within is None else time.time() - delivered_within
            recent = client.zrangebyscore(channel.unacked_index_key, since, "+inf")
            for raw in client.hmget(channel.unacked_key, recent) if recent else []:
                held.add(_task_id(raw, delivered=True))
            held.discard("")
            return held
    except Exception as error:  # noqa: BLE001 - the broker away: nobody can say, nothing is requeued
        logger.warning("Could not read the broker's queue %s: %s", queue, error)
        return None


def _task_id(raw: bytes | str, delivered: bool = False) -> str:
    try:
        message = json.loads(raw)
        if delivered:  # [message, exchange, routing key]
            message = message[0]
        return str((message.get("headers") or {}).get("id") or "")
    except (ValueError, TypeError, AttributeError, IndexError):
        return ""
