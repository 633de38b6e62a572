"""What the README tells an operator is what the project does: the system packages
(said once, the same as the set-up script and the PDF error name), the worker check,
and the production path through deploy/."""

from pathlib import Path

from rosters import pdf

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_system_packages_are_said_once_beside_the_two_commands():
    listed = [
        line
        for line in (ROOT / "scripts" / "debian-packages.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert "libharfbuzz-subset0" in listed  # without it WeasyPrint's PDFs are not repeatable
    assert pdf.WEASYPRINT_PACKAGES == " ".join(
        listed
    )  # the PDF error names what the script installs
    two_commands = section("Two commands")
    assert f"python3.11-venv {' '.join(listed)}" in two_commands
    assert "scripts/debian-packages.txt" in two_commands
    assert README.count("libpangoft2-1.0-0") == 1
    assert two_commands.count("```sh") == 2  # still exactly two commands: make run, make test


def test_the_worker_check_is_the_command_that_answers():
    assert "manage.py check_worker --timeout 10" in section("Production")
    assert "celery -A muster call" not in README  # prints only a task id


def test_the_production_path_uses_what_deploy_ships():
    production = section("Production")
    for shipped in ("deploy/systemd/", "deploy/nginx/muster.conf", "deploy/gunicorn.conf.py"):
        assert shipped in production and (ROOT / shipped).exists()
    assert "manage.py create_organizer" in production
    assert "TRUSTED_PROXY_COUNT=1" in production  # the lockout counts the client behind nginx
    assert (
        "crontab" not in README
    )  # the nightly prune is a systemd timer (tests/deploy/test_units.py)
