"""kombu's Redis transport, with an acknowledgement on a closed connection said as a lost one.

A task that finishes after the worker lost Redis is acknowledged on the channel of the connection
that was closed meanwhile: kombu then builds a new connection pool from a connection that has no
client any more and raises AttributeError ("'NoneType' object has no attribute 'hostname'"),
which Celery does not take for a connection error: "Unrecoverable error", the worker stops, and
nothing takes work until something starts it again. Said as redis-py's ConnectionError, the
acknowledgement is logged as not made ("Couldn't ack") and the worker reconnects as for any other
loss; the task's message, not acknowledged, comes back after the visibility timeout (every task
is safe to run twice). Registered for ``redis://`` and ``rediss://`` brokers by muster.celery,
before any connection is made (kombu's own registry of transports: its URLs read as before).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import TRANSPORT_ALIASES, redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    @property
    def pool(self) -> Any:
        """The connection pool, or redis-py's ConnectionError once the connection was closed
        (kombu builds a new pool from the closed connection's client, gone: AttributeError)."""
        transport: Any = self.connection  # None once the channel is closed, whatever the stubs say
        if transport is None or transport.client is None:
            raise RedisConnectionError("the connection to the broker was closed")
        return super().pool


class Transport(kombu_redis.Transport):
    Channel = Channel


def register() -> None:
    for scheme in ("redis", "rediss"):
        TRANSPORT_ALIASES[scheme] = f"{__name__}:Transport"
