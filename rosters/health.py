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

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Count, Min

from . import pdf

MAX_TIMEOUT = 600


def this_process(queue: str = "", node: str = "") -> dict:
    """What this process works with: the answer of the worker_health task (only facts
    about the installation, nothing of any campaign)."""
    db = connection.settings_dict
    version, problem = pdf.weasyprint_version()
    return {
        "database": str(db["NAME"]), "vendor": connection.vendor,
        "host": str(db.get("HOST") or ""), "port": str(db.get("PORT") or ""),
        "database_id": database_identity(),
        "queue": queue, "weasyprint": version, "pdf_problem": problem,
        "media_root": str(settings.MEDIA_ROOT), "hostname": node or socket.gethostname(), "pid": os.getpid(),
    }


def database_identity() -> str:
    """The migration history's fingerprint: its length and first moment ("" without one)."""
    from django.db.migrations.recorder import MigrationRecorder

    try:
        row = MigrationRecorder.Migration.objects.aggregate(count=Count("id"), first=Min("applied"))
    except DatabaseError:  # no django_migrations: not a Muster database
        return ""
    return f"{row['count']}@{row['first'].isoformat()}" if row["first"] else ""


def describe_database(answer: dict) -> str:
    where = f" on {answer['host']}{':' + answer['port'] if answer['port'] else ''}" if answer["host"] else ""
    return f"{answer['vendor']} {answer['database']}{where}"


@dataclass
class WorkerCheck:
    here: dict
    answer: dict | None = None  # the worker's (this process's when tasks run inline)
    inline: bool = False
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def check_worker(timeout: float) -> WorkerCheck:
    """Send worker_health to the site's queue and wait for a worker's answer."""
    from celery.exceptions import TimeoutError as CeleryTimeout

    from muster.celery import app

    from .tasks import worker_health

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    check = WorkerCheck(here=this_process(queue))
    if app.conf.task_always_eager:  # no broker: sheets render inline, in the web process
        check.inline, check.answer = True, {**check.here, "queue": ""}
        check.problems += pdf_problems(check.here, "This process")
        return check
    started = time.monotonic()
    try:
        # expires: a check nobody answered is dropped, not run by the next worker to start
        result = worker_health.apply_async(queue=queue, expires=timeout, retry=False)
    except Exception as error:  # noqa: BLE001 - any broker failure is the answer
        check.problems.append(f"The broker (REDIS_URL) cannot be reached: {type(error).__name__}.")
        return check
    try:
        check.answer = result.get(timeout=timeout)
    except CeleryTimeout:
        check.problems.append(f"No worker answered on the queue {queue!r} within {timeout:g} s. Start one "
                              f"(celery -A muster worker -Q {queue}) with this site's environment.")
        return check
    except Exception as error:  # noqa: BLE001 - the task failed inside the worker
        check.problems.append(f"The worker answered with an error: {type(error).__name__}: {str(error)[:200]}")
        return check
    finally:
        check.seconds = time.monotonic() - started
    check.problems += database_problems(check.here, check.answer) + pdf_problems(check.answer, "The worker")
    return check


def database_problems(here: dict, answer: dict) -> list[str]:
    if not here["database_id"]:
        return [f"This site's database ({describe_database(here)}) has no migrations: run manage.py migrate."]
    if all(here[key] == answer.get(key) for key in ("vendor", "database", "database_id")):
        return []
    return [f"The worker uses another database ({describe_database(answer)}) than this process "
            f"({describe_database(here)}): run it with the same DATABASE_URL."]


def pdf_problems(answer: dict, who: str) -> list[str]:
    return [] if answer.get("weasyprint") else [f"{who} cannot make PDFs. {answer.get('pdf_problem', '')}".strip()]
