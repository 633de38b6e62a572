"""Muster project package: settings, URLs, WSGI/ASGI and the Celery app.

``__version__`` is the release (muster/release.py)."""

from .celery import app as celery_app
from .release import __version__

__all__ = ("celery_app", "__version__")
