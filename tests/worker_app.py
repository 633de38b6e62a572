"""The Celery app of test workers (tests/workers.py): Muster's own app, plus a
delay before each sheet render when MUSTER_TEST_RENDER_DELAY is set, so a test
can kill the worker in the middle of a real render."""

import os
import time

from celery.signals import worker_process_init

from muster.celery import app  # noqa: F401  (celery -A tests.worker_app)


@worker_process_init.connect
def _slow_renders(**kwargs):
    delay = float(os.environ.get("MUSTER_TEST_RENDER_DELAY", "0") or 0)
    if not delay:
        return
    from rosters import services

    real = services.render_hook

    def slow(html):
        time.sleep(delay)
        return real(html)

    services.render_hook = slow
