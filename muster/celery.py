"""The Celery app. Without REDIS_URL, tasks run inline (see settings)."""

import os
from typing import Any

from celery import Celery, signals

from muster import broker_transport
from muster.config import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
load_settings_or_exit()  # a configuration error: one line, exit 2, before Celery starts

broker_transport.register()  # kombu's Redis transport, a worker surviving a late ack
app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _load_game_systems(**kwargs: Any) -> None:
    """Load the game systems (their rule tables) once in the worker's main process,
    before it forks its pool: a new pool process (after a crash, a time limit, or
    max-tasks-per-child) then starts work at once instead of re-reading every table."""
    import django

    django.setup()
    from campaigns.systems import all_systems

    all_systems()
    # Out of the collector's passes in every pool process, as in muster/wsgi.py.
    from muster.collector import settle

    settle()


def _start_the_heartbeat_and_the_sweep(**kwargs: Any) -> None:
    """This worker's print jobs say it is alive (rosters.heartbeat); work whose task is gone (a
    worker killed whole, Redis restarted empty) is sent again by every worker within seconds
    (rosters.sweep)."""
    from rosters import heartbeat, sweep

    heartbeat.start()
    sweep.start()


def _stop_the_heartbeat_and_the_sweep(**kwargs: Any) -> None:
    from rosters import heartbeat, sweep

    heartbeat.stop()
    sweep.stop()


# The worker's signals, connected by a call (the same as Celery's decorator).
signals.worker_init.connect(_load_game_systems)
signals.worker_ready.connect(_start_the_heartbeat_and_the_sweep)
signals.worker_shutdown.connect(_stop_the_heartbeat_and_the_sweep)
