"""Start Django with the benchmark settings (benchmarks.settings)."""

import os


def setup() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    import django

    django.setup()
