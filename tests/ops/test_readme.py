"""What the README tells an operator is what the project does: the system packages
(said once, the same as the set-up script and the PDF error name), the worker check,
and the nightly prune_sheets line, run here as cron would run it."""

import re
import shlex
from datetime import timedelta
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.utils import timezone

from rosters import pdf
from rosters.models import PrintJob

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_system_packages_are_said_once_beside_the_two_commands():
    listed = [line for line in (ROOT / "scripts" / "debian-packages.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert "libharfbuzz-subset0" in listed  # without it WeasyPrint's PDFs are not repeatable
    assert pdf.WEASYPRINT_PACKAGES == " ".join(listed)  # the PDF error names what the script installs
    two_commands = section("Two commands")
    assert f"python3.11-venv {' '.join(listed)}" in two_commands
    assert "scripts/debian-packages.txt" in two_commands
    assert README.count("libpangoft2-1.0-0") == 1
    assert two_commands.count("```sh") == 2  # still exactly two commands: make run, make test


def test_the_worker_check_is_the_command_that_answers():
    assert "manage.py check_worker --timeout 10" in section("Production")
    assert "celery -A muster call" not in README  # prints only a task id


def test_the_documented_cron_line_prunes_old_sheets(skirmish, people, settings, tmp_path,
                                                     django_capture_on_commit_callbacks):
    line = re.search(r"^(\S+ \S+ \S+ \S+ \S+) cd \S+ && \.venv/bin/python manage\.py (prune_sheets[^>\n]*)",
                     README, re.M)
    assert line, "the README has no crontab line for prune_sheets"
    minute, hour, day, month, weekday = line.group(1).split()
    assert 0 <= int(minute) <= 59 and 0 <= int(hour) <= 23 and (day, month, weekday) == ("*", "*", "*")  # daily
    command, *args = shlex.split(line.group(2))

    from rosters.services import request_sheet

    settings.MEDIA_ROOT = tmp_path / "media"
    with django_capture_on_commit_callbacks(execute=True):
        old, _ = request_sheet(people["alice"], skirmish, "summary")
        recent, _ = request_sheet(people["alice"], skirmish, "summary", "Letter")
    PrintJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command(command, *args, stdout=out)
    assert list(PrintJob.objects.values_list("pk", flat=True)) == [recent.pk]
    assert "Deleted 1 print job(s) older than 30 days." in out.getvalue()
