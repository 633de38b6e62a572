"""Start Django with the benchmark settings (benchmarks.settings), as a web worker starts
(muster/wsgi.py: every view and game system loaded, then the collector settled), so what is
timed in process is timed as a worker serving the site would run it."""

import os


def setup() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    import muster.wsgi  # noqa: F401 - starting the process as gunicorn's workers start
