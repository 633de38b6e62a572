"""Backups and moves (docs/operations.md, "Backups"): a site's PostgreSQL
dumped with pg_dump and restored into a fresh database gives back every campaign, each journal
folding to its stored snapshot; the printed sheets are not in the backup, and a sheet whose file
is gone is printed again when asked for, never a link that leads nowhere."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from .conftest import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a PostgreSQL backup (CI runs the tests on it)"
)
def test_a_dump_restored_into_a_fresh_database_gives_back_every_campaign(site_databases, tmp_path):
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail("pg_dump and pg_restore are needed (Debian: postgresql-client)")
    python = sys.executable
    site, restored = site_databases(), site_databases()
    media = {"MEDIA_ROOT": str(tmp_path / "media-site")}
    run([python, "manage.py", "migrate", "--noinput", "-v", "0"], ROOT, site)
    run([python, "manage.py", "load_demo"], ROOT, site)
    printed = json.loads(
        run([python, "-m", "tests.ops.site_check", "prepare"], ROOT, site, **media)
    )
    assert printed and set(printed.values()) == {"done"}
    before = json.loads(run([python, "-m", "tests.ops.site_check", "folds"], ROOT, site))
    # The backup and the restore, as docs/operations.md says.
    dump = tmp_path / "muster.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", "--dbname", site], check=True)
    subprocess.run(
        ["pg_restore", "--no-owner", "--no-privileges", "--dbname", restored, str(dump)], check=True
    )
    run(
        [python, "manage.py", "migrate", "--noinput", "-v", "0"], ROOT, restored
    )  # nothing left to do
    after = json.loads(run([python, "-m", "tests.ops.site_check", "folds"], ROOT, restored))
    assert after == before and len(after) >= 5 and all(entry["same"] for entry in after.values())
    # Sheets are not backed up: on the restored site each is printed again when asked for.
    sheets = json.loads(
        run(
            [python, "-m", "tests.ops.site_check", "sheets"],
            ROOT,
            restored,
            MEDIA_ROOT=str(tmp_path / "media-restored"),
        )
    )
    assert len(sheets) == len(printed)
    for job, seen in sheets.items():
        assert (seen["download"], seen["location"]) == (302, f"/sheets/jobs/{job}/"), seen
        assert seen["status"] == "done" and seen["again"] == 200, (
            seen
        )  # printed again (no broker: at once)
