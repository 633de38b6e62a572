"""Celery tasks of the rosters app: thin doors into rosters.services.

Tasks receive primary keys only (never data: task arguments are copied into the
broker and logs) and are idempotent: running one twice, or after its worker was
killed, gives the same single result.
"""

from celery import shared_task
from django.db import connection

from . import services


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_sheet(self, job_id: str) -> str:
    return services.run_job(job_id, task_id=self.request.id or "")


@shared_task
def worker_health() -> dict:
    """What a worker is connected to (ops: `celery -A muster call rosters.tasks.worker_health`)."""
    import weasyprint

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"database": str(connection.settings_dict["NAME"]), "vendor": connection.vendor,
            "weasyprint": weasyprint.__version__}
