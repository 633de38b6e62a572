"""deploy/: the systemd units an operator copies, checked by systemd itself
(`systemd-analyze verify`, where systemd cannot run) with the install's paths pointed at this
checkout, and read for what they promise: the muster user, a worker per queue, a nightly prune
that really prunes, no restart loop on a bad setting."""

import configparser
import shlex
import shutil
import subprocess
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
INSTALL = "/srv/muster"  # where the README's production path puts Muster


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string((UNITS / name).read_text())
    return parser


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (Debian: systemd)"
)
def test_systemd_verifies_the_units(tmp_path):
    # The units as installed, with /srv/muster pointing at this checkout (its .venv has the commands).
    for source in UNITS.iterdir():
        (tmp_path / source.name).write_text(source.read_text().replace(INSTALL, str(ROOT)))
    (tmp_path / "muster-worker@muster.service").write_text(
        (tmp_path / "muster-worker@.service").read_text()
    )
    names = [
        "muster-web.service",
        "muster-worker@muster.service",
        "muster-prune-sheets.service",
        "muster-prune-sheets.timer",
    ]
    done = subprocess.run(
        ["systemd-analyze", "verify", *names],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Only complaints about these units count (verify also reports on the machine's own units).
    ours = [
        line
        for line in done.stderr.splitlines()
        if line.startswith(("muster-",)) or str(tmp_path) in line
    ]
    assert ours == [], done.stderr


@pytest.mark.parametrize(
    "name", ["muster-web.service", "muster-worker@.service", "muster-prune-sheets.service"]
)
def test_every_service_runs_as_the_muster_user_from_the_install(name):
    service = unit(name)["Service"]
    assert (service["User"], service["Group"], service["WorkingDirectory"]) == (
        "muster",
        "muster",
        INSTALL,
    )
    assert service["ExecStart"].startswith(f"{INSTALL}/.venv/bin/")
    assert service["ReadWritePaths"] == f"{INSTALL}/var"  # writes var/ only
    if name != "muster-prune-sheets.service":
        assert service["RestartPreventExitStatus"] == "2"  # a bad setting: no restart loop


def test_the_worker_unit_is_one_instance_per_queue():
    service = unit("muster-worker@.service")["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[command.index("-Q") + 1] == "%i"
    assert service["EnvironmentFile"] == "-/etc/muster/worker-%i.env"  # its own concurrency
    # The queues the settings name are the instances the README enables.
    from django.conf import settings

    readme = (ROOT / "README.md").read_text()
    for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_ODDS_QUEUE):
        assert f"muster-worker@{queue}" in readme


def test_the_web_unit_serves_with_the_shipped_gunicorn_settings():
    command = shlex.split(unit("muster-web.service")["Service"]["ExecStart"])
    assert (
        command[command.index("--config") + 1] == "deploy/gunicorn.conf.py"
        and command[-1] == "muster.wsgi"
    )
    settings = {}
    exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), settings)
    assert settings["preload_app"] is True and settings["bind"] == "127.0.0.1:8000"


@pytest.mark.django_db
def test_the_timer_runs_nightly_and_its_command_prunes_old_sheets(
    skirmish, people, settings, tmp_path, django_capture_on_commit_callbacks
):
    timer = unit("muster-prune-sheets.timer")["Timer"]
    assert timer["OnCalendar"].startswith("*-*-* ") and timer["Persistent"] == "true"
    command = shlex.split(unit("muster-prune-sheets.service")["Service"]["ExecStart"])
    assert command[:2] == [f"{INSTALL}/.venv/bin/python", "manage.py"]

    from rosters.models import PrintJob
    from rosters.services import request_sheet

    settings.MEDIA_ROOT = tmp_path / "media"
    with django_capture_on_commit_callbacks(execute=True):
        old, _ = request_sheet(people["alice"], skirmish, "summary")
        recent, _ = request_sheet(people["alice"], skirmish, "summary", "Letter")
    PrintJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    old.refresh_from_db()
    assert (tmp_path / "media" / old.file.name).exists()
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command(*command[2:], stdout=out)
    assert list(PrintJob.objects.values_list("pk", flat=True)) == [recent.pk]
    assert "Deleted 1 print job(s) older than 30 days." in out.getvalue()
    assert not (tmp_path / "media" / old.file.name).exists()
