"""What an operator reads when something is wrong: a bad setting is one line and exit code 2
from every door (manage.py, the WSGI app gunicorn loads, the Celery app), a request for a host
not served is one log line, and /api/v1/ says what the API offers and where its docs are."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
KEYLESS = {"DEBUG": "0", "ALLOWED_HOSTS": "muster.example.org", "SECRET_KEY": "..."}


def run(args, **env):
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    }
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        args, cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "door",
    [
        [sys.executable, "manage.py", "check"],
        [sys.executable, "-c", "import muster.wsgi"],
        [sys.executable, "-m", "celery", "-A", "muster", "inspect", "ping"],
    ],
)
@pytest.mark.parametrize(
    "env, says",
    [
        (
            KEYLESS,
            "Muster cannot start: SECRET_KEY is a placeholder or too short (3 characters; at least 50 random "
            "ones). Generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'",
        ),
        (
            {"CONN_MAX_AGE": "a minute"},
            "Muster cannot start: CONN_MAX_AGE has a value Muster cannot read "
            "(invalid literal for int() with base 10: 'a minute').",
        ),
        (
            {"DATABASE_URL": "mysql://root:hunter2@db/muster"},
            "Muster cannot start: DATABASE_URL names a database Muster does not run on",
        ),
        (
            {"DATABASE_URL": "postgres://muster:hunter2@db:port/muster"},
            "Muster cannot start: DATABASE_URL has a value Muster cannot read.",
        ),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_code_2(door, env, says):
    done = run(door, **env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(says) and done.stderr.count("\n") == 1, done.stderr
    assert "hunter2" not in done.stderr  # a password in a URL is never repeated


def test_a_request_for_a_host_not_served_is_one_log_line():
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "print(Client().get('/', HTTP_HOST='scanner.example.net').status_code)\n"
    )
    done = run([sys.executable, "-c", script], DJANGO_SETTINGS_MODULE="muster.settings")
    assert done.stdout.strip() == "400"
    assert done.stderr == (
        "Invalid HTTP_HOST header: 'scanner.example.net'. You may need to add "
        "'scanner.example.net' to ALLOWED_HOSTS.\n"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "accept, kind", [("application/json", "application/json"), ("text/html", "text/html")]
)
def test_the_api_root_lists_the_endpoints_and_links_the_docs(accept, kind):
    answer = Client().get("/api/v1/", HTTP_ACCEPT=accept)
    assert answer.status_code == 200 and answer["Content-Type"].startswith(kind)
    if kind == "text/html":  # DRF's browsable root: the links clickable
        assert 'href="http://testserver/api/v1/campaigns/"' in answer.content.decode()
        return
    root = answer.json()
    assert (
        root["docs"] == "http://testserver/api/docs/"
        and root["schema"] == "http://testserver/api/schema/"
    )
    assert root["links"]["campaigns"] == "http://testserver/api/v1/campaigns/"
    schema_paths = set(Client().get("/api/schema/", {"format": "json"}).json()["paths"])
    assert set(root["endpoints"].values()) == schema_paths  # every endpoint, and only real ones
