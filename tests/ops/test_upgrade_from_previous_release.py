"""Stored campaigns go on after an upgrade: a database made by the previous
release's own code, with a campaign of every game stopped mid-procedure, is upgraded with this
code's `migrate`; then every campaign reads what that release computed, takes its next step
through the page and through the API, and its export replays.

The previous release runs from a temporary `git worktree` of its tag, with this checkout's .venv
(its requirements are a subset of today's), playing the campaigns with the corpus's players
(tests/journals/players.py and each game's corpus player, which use that release's own harnesses:
tests/journals/make_corpus.py copies them in) into a database of its own: a
fresh PostgreSQL database beside the test database when the tests run on PostgreSQL (as CI does),
a SQLite file otherwise. docs/operations.md, "Upgrading", is the procedure this follows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from campaigns import versions
from tests.journals import corpus
from tests.journals.make_corpus import copy_players
from tests.journals.values import corpus_modules

from .conftest import run as _run

ROOT = Path(__file__).resolve().parents[2]
# The previous release (CHANGELOG.md): its tag and the commit the tag names, so that a checkout
# made without tags (as CI's may be) still finds it in main's history. Move both at each release.
PREVIOUS = "v0.1.0"
PREVIOUS_COMMIT = "8348a49f675b39e3235f2cc84c3421ddec132e00"
# The games of the site, and a campaign of every game stopped mid-procedure (each game's corpus
# player names them: IN_PLAY, e.g. A!P! mid-Refit Phase and in play).
GAMES = corpus.site_games()
PLAYED = tuple(name for game in sorted(GAMES) for name in corpus_modules()[game].IN_PLAY)


def _git(*args, **kwargs):
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, **kwargs)


@pytest.fixture
def previous_release(tmp_path):
    """A worktree of the previous release's tag, with the corpus's players beside it."""
    if (
        shutil.which("git") is None
        or _git("cat-file", "-e", f"{PREVIOUS_COMMIT}^{{commit}}").returncode
    ):
        message = f"this checkout does not hold {PREVIOUS} ({PREVIOUS_COMMIT[:7]}): a shallow clone? (git fetch --unshallow)"
        if os.environ.get("MUSTER_REQUIRE_SERVICES"):
            pytest.fail(message)
        pytest.skip(message)
    tree = tmp_path / "previous"
    _git("worktree", "add", "--detach", str(tree), PREVIOUS_COMMIT, check=True)
    try:
        copy_players(tree)
        yield tree
    finally:
        _git("worktree", "remove", "--force", str(tree))


def test_campaigns_stored_by_the_previous_release_go_on_after_migrate(
    previous_release, site_databases, tmp_path
):
    python = sys.executable
    site_database = site_databases()
    expected = tmp_path / "computed-then"
    expected.mkdir()
    # The previous release: its migrations, then a campaign of every game stopped mid-procedure.
    _run(
        [python, "-m", "_corpus.players", str(expected), "--keep", *PLAYED],
        previous_release,
        site_database,
        PYTHONPATH=str(previous_release),
    )
    # This release, as docs/operations.md ("Upgrading") says: migrate (it upgrades every stored
    # campaign, one line each), nothing left for upgrade_journals, collectstatic.
    migrated = _run([python, "manage.py", "migrate", "--noinput"], ROOT, site_database)
    upgraded = [line for line in migrated.splitlines() if line.strip().startswith("Campaign ")]
    assert len(upgraded) == len(PLAYED) and all(" upgraded: " in line for line in upgraded), (
        migrated
    )
    left = _run([python, "manage.py", "upgrade_journals", "--dry-run"], ROOT, site_database)
    assert left == "Every campaign is at today's journal versions.\n"
    _run(
        [python, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        ROOT,
        site_database,
        STATIC_ROOT=str(tmp_path / "static"),
    )
    # Every campaign goes on with this code.
    report = json.loads(
        _run([python, "-m", "tests.ops.upgrade_walk", str(expected)], ROOT, site_database)
    )
    assert {entry["system"] for entry in report} == GAMES
    assert sorted(entry["campaign"] for entry in report) == sorted(PLAYED)
    for entry in report:
        name = entry["campaign"]
        assert entry["versions"] == entry["today"] and entry["release"] == versions.release(), name
        assert entry["same_values"], (
            name,
            entry.get("values"),
        )  # what the previous release computed
        assert entry["page"] and entry["page"]["written"] >= 1, (
            name,
            entry["page"],
        )  # the next step, page
        assert entry["api"] and entry["api"]["written"] >= 1, (
            name,
            entry["api"],
        )  # and the one after, API
        assert entry["export"] in (200, "operator") and entry["replays"] is True, (
            name,
            entry["replays"],
        )
