"""Real services for the tests that need them: PostgreSQL, Redis, a Celery worker.

A test that needs a service it cannot find is skipped with the reason, unless
MUSTER_REQUIRE_SERVICES=1 (CI), where the missing service fails it.

``CeleryWorker`` starts ``celery worker`` as a separate process on the *test*
database (the worker only sees committed rows: use it with transactional_db), on
its own queues (sheets and odds), with MEDIA_ROOT shared with the test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

BASE_DIR = Path(__file__).resolve().parent.parent


def need(available: bool, reason: str) -> None:
    """Skip (or, in CI, fail) when a service is missing."""
    if available:
        return
    if settings.MUSTER_REQUIRE_SERVICES:
        pytest.fail(
            f"{reason} (MUSTER_REQUIRE_SERVICES=1: services are required here)", pytrace=False
        )
    pytest.skip(reason)


def redis_available() -> bool:
    if not settings.REDIS_URL:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def need_worker_services() -> None:
    need(
        connection.vendor == "postgresql",
        "needs PostgreSQL (set DATABASE_URL=postgres://...): a worker process cannot share SQLite's test database",
    )
    need(bool(settings.REDIS_URL), "needs Redis (set REDIS_URL=redis://...)")
    need(redis_available(), f"Redis at {settings.REDIS_URL} does not answer")


def worker_database_url() -> str:
    """The URL of the database the tests run on (test_<name>), for a worker process."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{db['NAME']}"


class CeleryWorker:
    """`celery worker` in its own process group: its own sheets and odds queues, the test database."""

    def __init__(self, media_root: Path, log_dir: Path, **env):
        self.queue = f"test-{uuid.uuid4().hex[:10]}"
        self.odds_queue = f"{self.queue}-odds"
        self.log_path = log_dir / f"worker-{self.queue}.log"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "muster.settings",
            "DATABASE_URL": worker_database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CACHE_REDIS_URL": settings.CACHES["default"].get("LOCATION") or settings.REDIS_URL,
            "CELERY_QUEUE": self.queue,
            "CELERY_ODDS_QUEUE": self.odds_queue,
            "MEDIA_ROOT": str(media_root),
            "MUSTER_EXTRA_SYSTEMS": ",".join(settings.MUSTER_EXTRA_SYSTEMS),
            "PYTHONPATH": str(BASE_DIR),
            **{k: str(v) for k, v in env.items()},
        }
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> CeleryWorker:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tests.worker_app",
            "worker",
            "-Q",
            f"{self.queue},{self.odds_queue}",
            "-n",
            f"{self.queue}@%h",
            "--pool",
            "prefork",
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.health = self.call(
            "rosters.tasks.worker_health", timeout=timeout
        )  # ready when it answers
        return self

    def call(self, name: str, *args, timeout: float = 30):
        """Send a task by name through Redis to this worker and wait for its result."""
        from muster.celery import app

        result = app.send_task(name, args=args, queue=self.queue)
        try:
            return result.get(timeout=timeout)
        except Exception:
            raise AssertionError(f"worker did not answer {name}:\n{self.log()}") from None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)
        self._log.close()
        try:  # the queue's leftovers, if any
            import redis

            redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(self.queue, self.odds_queue)
        except Exception:  # noqa: BLE001 - cleanup only
            pass


def wait_for(predicate, timeout: float, interval: float = 0.1, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")
