"""Settings for the benchmarks: the product's settings, run as in production
(DEBUG off), on their own database, with the Drill system and a URLconf that adds
one bare view. Nothing here is part of the product.

DATABASE_URL, when set, is used as given (point it at a database you can spare:
the generator replaces the benchmark clubs in it); otherwise an SQLite file
under var/bench/.
"""

import os
from pathlib import Path

_VAR = Path(__file__).resolve().parent.parent / "var" / "bench"
_VAR.mkdir(parents=True, exist_ok=True)
# Before muster.settings reads the environment; explicit environment wins.
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_VAR / 'bench.sqlite3'}")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "benchmark-only-key-not-secret-0123456789-abcdefghijklmnop")
for _name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
    os.environ.setdefault(_name, "0")
os.environ.setdefault("SECURE_HSTS_SECONDS", "0")
# With REDIS_URL, the benchmark's own Celery worker (benchmarks.run) listens on its own queue.
os.environ.setdefault("CELERY_QUEUE", "muster-bench")
os.environ.setdefault("CELERY_ODDS_QUEUE", "muster-bench-odds")

from muster.settings import *  # noqa: E402,F401,F403
from muster.settings import (  # noqa: E402
    INSTALLED_APPS,
    MEMBER_WRITES_PER_MINUTE,
    MUSTER_EXTRA_SYSTEMS,
    STATIC_ROOT,
    STORAGES,
)

ROOT_URLCONF = "benchmarks.urls"
MUSTER_EXTRA_SYSTEMS = [*MUSTER_EXTRA_SYSTEMS, "benchmarks.drill"]
INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks.drill"]
# No collectstatic for a benchmark run: serve static files from the finders.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing one
# The generator makes a few dozen users; their passwords are not what is measured.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The write-rate limit (muster/write_rate.py): the product's number, kept for the benchmark's own
# check that it still answers 429 past it (benchmarks/writes.py, run with BENCH_WRITE_LIMIT=on).
# Otherwise lifted for the benchmark's clients, who write far faster than a person at the table:
# their writes are still counted (the cost of counting is measured), never refused. This module
# is the benchmark's settings only; the product's (muster.settings) never reads BENCH_WRITE_LIMIT.
WRITE_LIMIT = MEMBER_WRITES_PER_MINUTE
WRITE_LIMIT_LIFTED = os.environ.get("BENCH_WRITE_LIMIT", "lifted") != "on"
if WRITE_LIMIT_LIFTED:
    MEMBER_WRITES_PER_MINUTE = 1_000_000_000
