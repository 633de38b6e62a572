"""The settings as an operator meets them: `make run` (nothing set) serves like
production on the loopback over plain HTTP with a key kept in var/; a public site
needs a real SECRET_KEY (the README's placeholder fails loudly) and gets HTTPS and
collected static files; Django's log lines are printed once; no kombu warning."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from muster import serving

ROOT = Path(__file__).resolve().parents[2]
STRONG = "x7-" + "a1b2c3d4e5" * 6  # 63 characters, 13 different ones
SHOWN = (
    "DEBUG",
    "PUBLIC_SITE",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "WHITENOISE_USE_FINDERS",
    "SECRET_KEY",
)


def settings_for(**env) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process with only this Muster environment."""
    script = (
        "import json; from django.conf import settings\n"
        f"shown = {{name: getattr(settings, name) for name in {SHOWN!r}}}\n"
        "shown['static'] = settings.STORAGES['staticfiles']['BACKEND']\n"
        "print(json.dumps(shown))\n"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "SECURE_SSL_REDIRECT",
            "SESSION_COOKIE_SECURE",
            "CSRF_COOKIE_SECURE",
            "SECURE_HSTS_SECONDS",
        )
    }
    clean.update({"DJANGO_SETTINGS_MODULE": "muster.settings", "PYTHONPATH": str(ROOT), **env})
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def loaded(**env) -> dict:
    done = settings_for(**env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_make_run_serves_like_production_on_the_loopback_over_plain_http():
    s = loaded()  # what make run sets: nothing
    assert s["DEBUG"] is False and s["PUBLIC_SITE"] is False
    # HTTPS-only settings off: on http://127.0.0.1 a secure session cookie would never come back.
    assert (
        s["SECURE_SSL_REDIRECT"],
        s["SESSION_COOKIE_SECURE"],
        s["CSRF_COOKIE_SECURE"],
        s["SECURE_HSTS_SECONDS"],
    ) == (False, False, False, 0)
    # The key generated once into var/, never a placeholder.
    assert s["SECRET_KEY"] == (ROOT / "var" / "secret_key").read_text().strip()
    assert serving.weak_key_reason(s["SECRET_KEY"]) is None
    assert loaded()["SECRET_KEY"] == s["SECRET_KEY"]  # kept: sessions survive a restart
    # Static files served by whitenoise from where they are: no collectstatic for a trial.
    assert s["WHITENOISE_USE_FINDERS"] is True and s["static"].endswith("StaticFilesStorage")


def test_a_public_site_gets_https_and_collected_static_files():
    s = loaded(DEBUG="0", ALLOWED_HOSTS="muster.example.org", SECRET_KEY=STRONG)
    assert s["PUBLIC_SITE"] is True and s["SECRET_KEY"] == STRONG
    assert (
        s["SECURE_SSL_REDIRECT"],
        s["SESSION_COOKIE_SECURE"],
        s["CSRF_COOKIE_SECURE"],
        s["SECURE_HSTS_SECONDS"],
    ) == (True, True, True, 31536000)
    assert s["WHITENOISE_USE_FINDERS"] is False and s["static"].endswith(
        "CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    "env, says",
    [
        ({"ALLOWED_HOSTS": "muster.example.org"}, "SECRET_KEY is not set"),
        (
            {"ALLOWED_HOSTS": "muster.example.org", "SECRET_KEY": "..."},
            "SECRET_KEY is a placeholder or too short",
        ),
        (
            {"ALLOWED_HOSTS": "muster.example.org", "SECRET_KEY": "change-me"},
            "placeholder or too short (9 characters",
        ),
        (
            {"ALLOWED_HOSTS": "muster.example.org", "SECRET_KEY": "a" * 60},
            "placeholder or too short",
        ),
        (
            {"SECRET_KEY": "..."},
            "SECRET_KEY is a placeholder",
        ),  # DEBUG off on the loopback: a given key counts too
    ],
)
def test_a_missing_or_placeholder_key_fails_loudly_with_debug_off(env, says):
    done = settings_for(DEBUG="0", **env)
    assert done.returncode != 0
    assert says in done.stderr
    assert serving.GENERATE_KEY_COMMAND in done.stderr  # and says how to make one


def test_a_developer_may_use_any_key():
    assert loaded(DEBUG="1", SECRET_KEY="dev")["SECRET_KEY"] == "dev"


def test_the_readme_command_makes_a_key_that_passes():
    key = subprocess.run(
        ["python3", "-c", serving.GENERATE_KEY_COMMAND.split("-c ", 1)[1].strip("'")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert serving.weak_key_reason(key) is None
    assert serving.GENERATE_KEY_COMMAND in (ROOT / "README.md").read_text()


@pytest.mark.parametrize(
    "hosts, public",
    [
        (["127.0.0.1", "localhost"], False),
        (["127.0.0.1", "localhost", "testserver", "[::1]"], False),
        (["LOCALHOST "], False),
        (["127.0.0.1", "muster.example.org"], True),
        (["*"], True),
        ([".example.org"], True),
        (["192.168.1.10"], True),
    ],
)
def test_public_means_a_host_beyond_the_loopback(hosts, public):
    assert serving.is_public(False, hosts) is public
    assert serving.is_public(True, hosts) is False  # DEBUG on: a developer's


@pytest.mark.parametrize("debug", ["1", "0"])
def test_django_log_lines_are_printed_once(debug):
    script = (
        "import django, logging; django.setup()\n"
        "logging.getLogger('django.request').warning('marker-warning')\n"
        "logging.getLogger('django.utils.autoreload').info('marker-info')\n"
    )
    env = {
        **os.environ,
        "DEBUG": debug,
        "DJANGO_SETTINGS_MODULE": "muster.settings",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("marker-warning") == 1
    # Django's INFO lines (runserver's "Watching for file changes") once in DEBUG, none otherwise.
    assert done.stderr.count("marker-info") == (1 if debug == "1" else 0)


def test_no_broker_means_no_kombu_hostname_warning():
    """The embedded default (no REDIS_URL): tasks run inline and nothing warns about a broker."""
    script = (
        "import django; django.setup()\n"
        "from rosters.tasks import worker_health\n"
        "print(worker_health.delay().get()['vendor'])\n"
    )  # sending builds the producer that warned
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update({"DJANGO_SETTINGS_MODULE": "muster.settings", "PYTHONPATH": str(ROOT)})
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "sqlite"  # it ran, inline
    assert "No hostname" not in done.stderr


def _where_redis(**env) -> dict:
    script = (
        "import json; from django.conf import settings; from muster.celery import app\n"
        "print(json.dumps({'cache': settings.CACHES['default'].get('LOCATION', 'local'),\n"
        "                  'backend': settings.CACHES['default']['BACKEND'].rsplit('.', 1)[1],\n"
        "                  'broker': app.conf.broker_url, 'results': app.conf.result_backend,\n"
        "                  'eager': app.conf.task_always_eager}))\n"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "CELERY_BROKER_URL", "CACHE_REDIS_URL", "CELERY_RESULT_BACKEND")
    }
    clean.update({"DJANGO_SETTINGS_MODULE": "muster.settings", "PYTHONPATH": str(ROOT), **env})
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_redis_url_alone_is_the_broker_and_the_cache():
    one = "redis://127.0.0.1:6379/3"
    assert _where_redis(REDIS_URL=one) == {
        "cache": one,
        "backend": "RedisCache",
        "broker": one,
        "results": one,
        "eager": False,
    }


def test_the_broker_and_the_cache_apart():
    broker, cache = "redis://127.0.0.1:6379/4", "redis://127.0.0.1:6380/0"
    apart = _where_redis(
        REDIS_URL="redis://127.0.0.1:6379/3", CELERY_BROKER_URL=broker, CACHE_REDIS_URL=cache
    )
    assert apart == {
        "cache": cache,
        "backend": "RedisCache",
        "broker": broker,
        "results": broker,
        "eager": False,
    }
    # Either alone: the other stays embedded (a broker without a Redis cache, or the reverse).
    assert _where_redis(CELERY_BROKER_URL=broker)["backend"] == "LocMemCache"
    alone = _where_redis(CACHE_REDIS_URL=cache)
    assert (alone["cache"], alone["eager"]) == (cache, True)  # no broker: tasks run inline
