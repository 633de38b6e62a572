"""Celery tasks of the rosters app: thin doors into rosters.services.

Tasks receive primary keys only (never data: task arguments are copied into the
broker and logs) and are idempotent: running one twice, or after its worker was
killed, gives the same single result.
"""

from celery import shared_task

from . import health, services


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_sheet(self, job_id: str) -> str:
    return services.run_job(job_id, task_id=self.request.id or "")


@shared_task(bind=True)
def worker_health(self) -> dict:
    """What this worker works with: its database, queue, WeasyPrint (ops: `manage.py check_worker`)."""
    queue = (self.request.delivery_info or {}).get("routing_key") or ""
    return health.this_process(queue=queue, node=self.request.hostname or "")
