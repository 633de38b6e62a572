"""The mail server as an operator sets it (README, "Configuration"): `make run` prints mails on
its console; EMAIL_URL names a server; Django's EMAIL_* variables set it one by one, each
overriding EMAIL_URL's part (EMAIL_HOST alone means SMTP); a silent server fails a send in
EMAIL_TIMEOUT seconds; INVITATIONS_PER_HOUR bounds invitations."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = (
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_TIMEOUT",
    "INVITATIONS_PER_HOUR",
)


def mail_settings(**env) -> dict:
    script = (
        "import json; from django.conf import settings\n"
        f"print(json.dumps({{name: getattr(settings, name, None) for name in {NAMES!r}}}))\n"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("EMAIL_") and k != "INVITATIONS_PER_HOUR"
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


def test_make_run_prints_mails_on_its_console():
    s = mail_settings()
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert (s["EMAIL_TIMEOUT"], s["INVITATIONS_PER_HOUR"]) == (20, 20)


def test_email_url_or_the_email_variables_name_the_server():
    s = mail_settings(EMAIL_URL="smtp+tls://ada:secret@mail.example.org:587")
    assert (
        s["EMAIL_BACKEND"],
        s["EMAIL_HOST"],
        s["EMAIL_PORT"],
        s["EMAIL_HOST_USER"],
        s["EMAIL_USE_TLS"],
    ) == ("django.core.mail.backends.smtp.EmailBackend", "mail.example.org", 587, "ada", True)
    s = mail_settings(
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="465",
        EMAIL_HOST_USER="club",
        EMAIL_HOST_PASSWORD="pw",
        EMAIL_TIMEOUT="5",
        INVITATIONS_PER_HOUR="5",
    )
    assert (
        s["EMAIL_BACKEND"],
        s["EMAIL_HOST"],
        s["EMAIL_PORT"],
        s["EMAIL_HOST_USER"],
        s["EMAIL_HOST_PASSWORD"],
    ) == ("django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", 465, "club", "pw")
    assert (s["EMAIL_TIMEOUT"], s["INVITATIONS_PER_HOUR"]) == (5, 5)
    s = mail_settings(
        EMAIL_URL="smtp://mail.example.org:25", EMAIL_PORT="2525"
    )  # one part overridden
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("mail.example.org", 2525)
