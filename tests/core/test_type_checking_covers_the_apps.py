"""`make lint` type-checks every module of the apps: mypy's `files` are the site's own apps, its
`exclude` drops tests and migrations and nothing else, and no module's errors are silenced.
The core is held to --strict; a game's rules are checked but may leave annotations out, except
its shapes.py (pyproject.toml, [tool.mypy])."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def own_app_packages() -> set[str]:
    """The top packages of the apps installed from this checkout (games included; not the test
    games, nor the libraries of a virtualenv that may sit inside the checkout)."""
    tops = set()
    for config in apps.get_app_configs():
        top = config.name.split(".")[0]
        if top != "tests" and (ROOT / top / "__init__.py").is_file():
            if Path(config.path).resolve().is_relative_to((ROOT / top).resolve()):
                tops.add(top)
    return tops


def test_mypy_reads_every_app_of_the_site():
    # and muster, the project's own package (settings, urls, the Celery app, middlewares)
    assert set(MYPY["files"]) == own_app_packages() | {"muster"}


def test_the_exclude_drops_tests_and_migrations_only():
    excluded = [re.compile(pattern) for pattern in MYPY["exclude"]]
    dropped, kept = [], []
    for top in MYPY["files"]:
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            (dropped if any(p.search(name) for p in excluded) else kept).append(name)
    assert dropped, "the exclude drops nothing: then it should go"
    for name in dropped:
        assert {"tests", "migrations"} & set(name.split("/")[:-1]), name
    for name in kept:
        assert not {"tests", "migrations"} & set(name.split("/")[:-1]), name


def test_nothing_is_silenced_and_the_core_is_strict():
    assert MYPY["strict"] is True
    assert "ignore_errors" not in MYPY and "disable_error_code" not in MYPY
    for override in MYPY.get("overrides", []):
        assert "ignore_errors" not in override, override["module"]
        assert "disable_error_code" not in override, override["module"]
        modules = (
            override["module"] if isinstance(override["module"], list) else [override["module"]]
        )
        if override.get("ignore_missing_imports"):
            # third-party libraries without type information, never a module of the site
            assert not any(m.split(".")[0] in MYPY["files"] for m in modules), modules
        if any(value is False for value in override.values()):
            # a relaxation of --strict is for the games' rules only, by pattern
            assert modules == ["campaigns.systems.*"], modules
