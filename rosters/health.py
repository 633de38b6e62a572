"""Is a print worker there, on this site's database, able to make PDFs?
(`manage.py check_worker`; the worker's side is the rosters.tasks.worker_health task.)

The two processes are on the same database when they read the same migration history:
the same vendor and name, and the same moment the first migration was applied. That
holds whatever host name each uses to reach the server, and tells two databases of the
same name on two servers apart.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Count, Min

from muster import queues

from . import pdf

MAX_TIMEOUT = 600


class ProcessFacts(TypedDict):
    """What a process works with (this_process): the worker_health task's answer, as JSON."""

    database: str
    vendor: str
    host: str
    port: str
    database_id: str
    queue: str
    weasyprint: str | None  # its version; None when no PDF can be made there
    pdf_problem: str
    media_root: str
    hostname: str
    pid: int


def this_process(queue: str = "", node: str = "") -> ProcessFacts:
    """What this process works with: the answer of the worker_health task (only facts
    about the installation, nothing of any campaign)."""
    db = connection.settings_dict
    version, problem = pdf.weasyprint_version()
    return {
        "database": str(db["NAME"]),
        "vendor": connection.vendor,
        "host": str(db.get("HOST") or ""),
        "port": str(db.get("PORT") or ""),
        "database_id": database_identity(),
        "queue": queue,
        "weasyprint": version,
        "pdf_problem": problem,
        "media_root": str(settings.MEDIA_ROOT),
        "hostname": node or socket.gethostname(),
        "pid": os.getpid(),
    }


def database_identity() -> str:
    """The migration history's fingerprint: its length and first moment ("" without one)."""
    from django.db.migrations.recorder import MigrationRecorder

    try:
        row = MigrationRecorder.Migration.objects.aggregate(count=Count("id"), first=Min("applied"))
    except DatabaseError:  # no django_migrations: not a Muster database
        return ""
    return f"{row['count']}@{row['first'].isoformat()}" if row["first"] else ""


def describe_database(answer: ProcessFacts) -> str:
    where = (
        f" on {answer['host']}{':' + answer['port'] if answer['port'] else ''}"
        if answer["host"]
        else ""
    )
    return f"{answer['vendor']} {answer['database']}{where}"


@dataclass
class QueueAnswer:
    """One queue's worker, as it answered (None: nobody answered)."""

    queue: str
    role: str  # "sheets" | "odds"
    answer: ProcessFacts | None = None
    seconds: float = 0.0


@dataclass
class WorkerCheck:
    here: ProcessFacts
    answer: ProcessFacts | None = None  # the sheets worker's (this process's when tasks run inline)
    inline: bool = False
    seconds: float = 0.0
    queues: list[QueueAnswer] = field(default_factory=list)
    broker_policy: str = ""  # the broker Redis's maxmemory-policy ("" unknown)
    problems: list[str] = field(default_factory=list)


def check_worker(timeout: float) -> WorkerCheck:
    """Send worker_health to the sheets queue and to the odds queue and wait for both answers;
    read the broker's eviction policy."""
    from celery import current_app as app
    from celery.exceptions import TimeoutError as CeleryTimeout
    from celery.result import AsyncResult

    worker_health = queues.task("rosters.tasks.worker_health")

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    check = WorkerCheck(here=this_process(queue))
    if app.conf.task_always_eager:  # no broker: sheets render inline, in the web process
        check.inline, check.answer = True, {**check.here, "queue": ""}
        check.problems += pdf_problems(check.here, "This process")
        return check
    started = time.monotonic()
    check.queues = [QueueAnswer(queue, "sheets"), QueueAnswer(settings.CELERY_ODDS_QUEUE, "odds")]
    sent: list[AsyncResult[Any]] = []
    try:
        for asked in check.queues:
            # expires: a check nobody answered is dropped, not run by the next worker to start
            sent.append(worker_health.apply_async(queue=asked.queue, expires=timeout, retry=False))
    except Exception as error:  # noqa: BLE001 - any broker failure is the answer
        check.problems.append(
            f"The broker (CELERY_BROKER_URL or REDIS_URL) cannot be reached: "
            f"{type(error).__name__}."
        )
        return check
    for asked, result in zip(check.queues, sent):
        try:
            answer: ProcessFacts = result.get(  # the task's JSON
                timeout=max(0.1, timeout - (time.monotonic() - started))
            )
            asked.answer = answer
        except CeleryTimeout:
            check.problems.append(
                f"No worker answered on the {asked.role} queue {asked.queue!r} within {timeout:g} s. "
                f"Start one (celery -A muster worker -Q {asked.queue}) with this site's "
                "environment."
            )
            continue
        except Exception as error:  # noqa: BLE001 - the task failed inside the worker
            check.problems.append(
                f"The worker answered with an error: {type(error).__name__}: {str(error)[:200]}"
            )
            continue
        finally:
            asked.seconds = time.monotonic() - started
        check.problems += database_problems(check.here, answer)
        if asked.role == "sheets":
            check.answer, check.seconds = answer, asked.seconds
            check.problems += pdf_problems(answer, "The worker")
    check.broker_policy = broker_policy()
    if check.broker_policy not in ("", "noeviction"):
        check.problems.append(
            f"The broker's Redis evicts keys (maxmemory-policy {check.broker_policy}): a queued task may be "
            "dropped. Give it maxmemory-policy noeviction, and the cache its own Redis (CACHE_REDIS_URL) with "
            "allkeys-lru (docs/operations.md)."
        )
    return check


def broker_policy() -> str:
    """The broker Redis's maxmemory-policy; "" when it does not say (CONFIG refused: a managed Redis)."""
    import redis

    try:
        client = redis.Redis.from_url(
            settings.CELERY_BROKER_URL, socket_timeout=5, socket_connect_timeout=5
        )
        return str(client.config_get("maxmemory-policy").get("maxmemory-policy", ""))
    except redis.RedisError:
        return ""


def database_problems(here: ProcessFacts, answer: ProcessFacts) -> list[str]:
    if not here["database_id"]:
        return [
            f"This site's database ({describe_database(here)}) has no migrations: run manage.py migrate."
        ]
    if all(here[key] == answer.get(key) for key in ("vendor", "database", "database_id")):
        return []
    return [
        f"The worker uses another database ({describe_database(answer)}) than this process "
        f"({describe_database(here)}): run it with the same DATABASE_URL."
    ]


def pdf_problems(answer: ProcessFacts, who: str) -> list[str]:
    return (
        []
        if answer.get("weasyprint")
        else [f"{who} cannot make PDFs. {answer.get('pdf_problem', '')}".strip()]
    )
