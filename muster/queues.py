"""Tasks sent by name. A service that hands work to a worker looks the task up by its name among
those its app registers (campaigns.tasks and rosters.tasks, imported by each app's ``ready()``):
the task module, a door, imports the service, never the other way round (no import circle)."""

from celery import Task, current_app


def task(name: str) -> Task:
    """The registered Celery task `name` ("campaigns.tasks.compute_odds")."""
    found: Task = current_app.tasks[name]
    return found
