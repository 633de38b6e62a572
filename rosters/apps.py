from django.apps import AppConfig


class RostersConfig(AppConfig):
    name = "rosters"
    verbose_name = "Rosters and sheets"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 - registers the tasks services send by name (muster.queues)
