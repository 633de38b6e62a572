import os

from django.core.wsgi import get_wsgi_application

from muster.collector import settle
from muster.config import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
load_settings_or_exit()  # a configuration error: one line, exit 2 (gunicorn --preload exits with it)
application = get_wsgi_application()


def _warm() -> None:
    """Import every view and game system now, while the worker starts, rather than in its first
    request: Django resolves URLs lazily, so each fresh worker's first request took about 1.5 s
    (after a deploy, or when a worker is recycled) while the requests behind it queued."""
    from django.urls import get_resolver

    from campaigns.systems import all_systems

    get_resolver().url_patterns  # noqa: B018 - reading it loads every URLconf now, not at the first request
    all_systems()


_warm()
settle()  # what the worker holds from here on, out of the collector's passes (muster.collector)
