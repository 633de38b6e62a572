"""Tasks sent by name. A service that hands work to a worker looks the task up by its name among
those its app registers (campaigns.tasks and rosters.tasks, imported by each app's ``ready()``):
the task module, a door, imports the service, never the other way round (no import circle)."""

from typing import Any

from celery import Task, current_app


def task(name: str) -> Task[Any, Any]:
    """The registered Celery task `name` ("campaigns.tasks.compute_odds")."""
    found: Task[Any, Any] = current_app.tasks[name]
    return found
