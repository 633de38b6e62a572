"""Celery tasks of the rosters app: thin doors into rosters.services.

Tasks receive primary keys only (never data: task arguments are copied into the broker and
logs) and are idempotent: running one twice, or after its worker was killed, gives the same
single result.

A lost database connection (PostgreSQL restarted) is retried on a fresh connection, with
back-off (1, 2, 4, then 8 s) and a bound (8 retries, about 45 s); a PDF already stored when the
connection went is handed to the retry, which only marks the job done.
"""

from __future__ import annotations

from contextlib import nullcontext

from celery import Task, shared_task

from campaigns.notices import making as notices
from muster.connection_loss import DATABASE_ERRORS, TASK_RETRY, drop_connection

from . import health, heartbeat, services


@shared_task(
    bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True, **TASK_RETRY
)
def render_sheet(self: Task[..., str], job_id: str, rendered: str = "") -> str:
    kept: dict[str, str] = {}
    task_id = self.request.id or ""
    # Run inline (no broker), no worker's main process writes its heartbeat: it writes its own.
    inline = heartbeat.beating(task_id) if self.request.is_eager else nullcontext()
    try:
        with inline:
            outcome = services.run_job(job_id, task_id=task_id, rendered=rendered, kept=kept)
        if outcome in ("rendered", "failed", "gave-up"):
            notices.sheet_news(job_id)  # whoever asked for it hears it is ready, or failed
        return outcome
    except DATABASE_ERRORS:
        drop_connection()
        if kept.get("rendered"):  # the retry (autoretry_for) is sent with the request's kwargs
            self.request.kwargs = {**(self.request.kwargs or {}), "rendered": kept["rendered"]}
        raise


@shared_task(bind=True)
def worker_health(self: Task[[], health.ProcessFacts]) -> health.ProcessFacts:
    """What this worker works with: its database, queue, WeasyPrint (ops: `manage.py check_worker`)."""
    queue = (self.request.delivery_info or {}).get("routing_key") or ""
    return health.this_process(queue=queue, node=self.request.hostname or "")
