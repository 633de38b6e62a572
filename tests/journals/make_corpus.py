"""Make the journal corpus: journals exported by earlier Muster commits (README.md).

For each target commit: a temporary `git worktree` of it, this directory's players.py and values.py
copied in, and run there with that commit's own code on a fresh SQLite database (this checkout's
.venv: earlier requirements are a subset of today's); the journals and their expected values are
written to tests/journals/<directory>/. Nothing of the current checkout runs in the old code.

    .venv/bin/python tests/journals/make_corpus.py                # every target
    .venv/bin/python tests/journals/make_corpus.py v0.1.0         # one directory
    .venv/bin/python tests/journals/make_corpus.py v0.1.0/fab-bulge   # one file of it

Files already made are replaced; commit what changed with the reason. A new version bump adds a
target here (its commit: the last one before the bump) and runs this for it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@dataclass(frozen=True)
class Target:
    directory: str
    commit: str
    what: str
    journals: (
        dict  # the versions its journals are at, in today's numbering (the test checks the upgrade)
    )
    players: tuple


AP_TABLE = ("ap-cg1-table", "ap-cg2-table", "ap-cg3-table")
TARGETS = (
    Target(
        "030a954-achtung-panzer-v1",
        "030a954",
        "Achtung! Panzer! before the end-of-scenario record (the commit before a787fca, 2026-11-23)",
        {"core": 1, "achtung_panzer": 1},
        ("ap-v1-cg1", "ap-v1-cg2", "ap-v1-cg3"),
    ),
    Target(
        "d47b5d0-achtung-panzer-v2",
        "d47b5d0",
        "Achtung! Panzer! before each side's losses step before 1.6067 (R-A19; the commit before 30f6652)",
        {"core": 1, "achtung_panzer": 2},
        ("ap-cg1-table", "ap-cg2-table"),
    ),
    Target(
        "0e3b483-victory-ledgers-first",
        "0e3b483",
        "Patton's Vanguard, Ardennes '44, FAB: The Bulge as first landed (merge of issue 12)",
        {"core": 1, "pattons_vanguard": 1, "ardennes44": 1, "fab_bulge": 1},
        ("pattons-vanguard", "pattons-vanguard-mid", "ardennes44", "ardennes44-mid", "fab-bulge"),
    ),
    Target(
        "36a33aa-rifles-first",
        "36a33aa",
        "Rifles in the Ardennes as first landed (merge of issue 11)",
        {"core": 1, "rifles_ardennes": 1},
        ("rifles-acceptance", "rifles-mid-briefing"),
    ),
    Target(
        "cb7b473-rifles-v1",
        "cb7b473",
        "Rifles in the Ardennes before a Leader who may not lead waits for 8.2 (RA-9; the commit before d3ae14d)",
        {"core": 1, "rifles_ardennes": 1},
        ("rifles-leader-v1",),
    ),
    Target(
        "572ec13-ledgers-v2",
        "572ec13",
        "Patton's Vanguard and Ardennes '44 at v2 (PV-12, A44-11), before records waited for the other "
        "side's confirmation (VL-5; the commit before it)",
        {"core": 1, "pattons_vanguard": 2, "ardennes44": 2, "fab_bulge": 1},
        ("pattons-vanguard-v2", "ardennes44-v2", "fab-bulge"),
    ),
    Target(
        "b745a5d-achtung-panzer-v4-core-v1",
        "b745a5d",
        "Achtung! Panzer! at v4 with one ELR per side and the core at v1 (the commit before ELR by "
        "nationality, 6025f50, and before seats in play needed the side's agreement, 12bff58)",
        {"core": 1, "achtung_panzer": 4},
        AP_TABLE,
    ),
    Target(
        "c548a25-achtung-panzer-v5",
        "c548a25",
        "Achtung! Panzer! at v5, before 1.6112 and 1.6113 took the choice with the DR (R-A26, "
        "issue 21 item 5; the commit before it): the MMC and the leader chosen after each DR",
        {"core": 2, "achtung_panzer": 5},
        AP_TABLE,
    ),
    Target(
        "v0.1.0",
        "v0.1.0",
        "Muster 0.1.0, the first release (tag v0.1.0)",
        {
            "core": 1,
            "achtung_panzer": 3,
            "rifles_ardennes": 1,
            "pattons_vanguard": 1,
            "ardennes44": 1,
            "fab_bulge": 1,
        },
        (
            *AP_TABLE,
            "rifles-acceptance",
            "rifles-mid-briefing",
            "pattons-vanguard-mid",
            "ardennes44-mid",
            "fab-bulge",
        ),
    ),
)


def make(target: Target, python: str, files: tuple = ()) -> None:
    out = HERE / target.directory
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="muster-corpus-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), target.commit],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        try:
            player = tree / "_corpus"
            player.mkdir()
            (player / "__init__.py").write_text("")
            for name in ("players.py", "values.py"):
                shutil.copy(HERE / name, player / name)
            env = {
                k: v
                for k, v in os.environ.items()
                if k not in ("REDIS_URL", "MUSTER_EXTRA_SYSTEMS", "DEBUG")
            }
            env.update(
                DATABASE_URL=f"sqlite:///{tmp}/corpus.sqlite3",
                PYTHONPATH=str(tree),
                DJANGO_SETTINGS_MODULE="muster.settings",
                MUSTER_EXTRA_SYSTEMS="",
            )
            subprocess.run(
                [python, "-m", "_corpus.players", str(out), *target.players],
                cwd=tree,
                env=env,
                check=True,
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", f"{target.commit}^{{commit}}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    made = {
        "commit": commit,
        "what": target.what,
        "journals": target.journals,
        "files": list(files or target.players),
    }
    (out / "made.json").write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")


def main(only: list[str]) -> None:
    """`only`: directories (every file of each) or DIRECTORY/NAME (one file, the others kept)."""
    python = str(ROOT / ".venv" / "bin" / "python")
    for target in TARGETS:
        names = [o.split("/", 1)[1] for o in only if o.startswith(f"{target.directory}/")]
        if only and target.directory not in only and not names:
            continue
        print(f"== {target.directory} ({target.commit})", flush=True)
        make(
            Target(**{**target.__dict__, "players": tuple(names)}) if names else target,
            python,
            files=target.players,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
