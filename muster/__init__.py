"""Muster project package: settings, URLs, WSGI/ASGI and the Celery app.

``__version__`` is the release (tagged ``v<version>`` in git, CHANGELOG.md): journal files and
stored campaigns record the release they were written or upgraded under."""

__version__ = "0.2.0.dev0"

from .celery import app as celery_app  # noqa: E402

__all__ = ("celery_app", "__version__")
