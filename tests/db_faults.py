"""A database connection lost for real, in-process: PostgreSQL ends the backend (as a restart or
`pg_terminate_backend` does), and, for "the database stays away", new connections are refused."""

from contextlib import contextmanager

import psycopg
from django.db import connection


def lose_connection() -> None:
    """PostgreSQL ends this thread's connection: its next query fails ("terminating connection due
    to administrator command", then "the connection is closed")."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@contextmanager
def database_away():
    """The connection lost, and every new one refused (a port nothing listens on) until the end of
    the block; then a fresh connection again."""
    import socket

    lose_connection()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    saved = connection.settings_dict["HOST"], connection.settings_dict["PORT"]
    connection.settings_dict["HOST"], connection.settings_dict["PORT"] = "127.0.0.1", str(dead_port)
    try:
        yield
    finally:
        connection.settings_dict["HOST"], connection.settings_dict["PORT"] = saved
        connection.close()
