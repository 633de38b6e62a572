"""Reading Muster's configuration, and refusing a bad one in one line.

Every process (manage.py, gunicorn through muster.wsgi, Celery through muster.celery) calls
``load_settings_or_exit`` first: a configuration error (a weak SECRET_KEY, a value that is no
number, a database Muster does not run on) is one line on stderr and exit code 2, not a
traceback whose last line was the only one that mattered.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

EXIT_CONFIGURATION = 2  # as for any bad input on the command line
# Values of these may hold a password or a key: an error names the variable, never its value.
SECRET_LOOKING = ("_URL", "KEY", "PASSWORD", "SECRET", "TOKEN")


# django-environ ships no types, so its Env is Any to mypy; subclassing it is the point here (its
# own readers call get_value, proxied variables included), so the base stays untyped ("misc":
# --strict's disallow_subclassing_any).
class Env(environ.Env):  # type: ignore[misc]
    """django-environ, saying which variable it could not read."""

    def get_value(
        self,
        var: str,
        cast: object = None,
        default: object = environ.Env.NOTSET,
        parse_default: bool = False,
    ) -> object:
        with _naming(var):
            return super().get_value(var, cast=cast, default=default, parse_default=parse_default)

    def db_url(
        self, var: str = environ.Env.DEFAULT_DATABASE_ENV, *args: object, **kwargs: object
    ) -> dict[str, Any]:
        with _naming(var):  # the URL is parsed after it is read
            config: dict[str, Any] = super().db_url(var, *args, **kwargs)
            return config

    db = db_url

    def email_url(
        self, var: str = environ.Env.DEFAULT_EMAIL_ENV, *args: object, **kwargs: object
    ) -> dict[str, Any]:
        with _naming(var):
            config: dict[str, Any] = super().email_url(var, *args, **kwargs)
            return config


@contextmanager
def _naming(var: str) -> Iterator[None]:
    try:
        yield
    except (ValueError, TypeError) as error:
        detail = "" if any(part in var.upper() for part in SECRET_LOOKING) else f" ({error})"
        raise ImproperlyConfigured(f"{var} has a value Muster cannot read{detail}.") from None


def load_settings_or_exit() -> None:
    """Read the settings now; on a configuration error, say it in one line and exit 2."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 - reading one setting loads them all
    except ImproperlyConfigured as error:
        message = " ".join(str(error).split())
        print(f"Muster cannot start: {message}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIGURATION) from None
