"""Make a game's corpus journals (README.md), into its own folder: <game folder>/journals/.

    .venv/bin/python -m tests.journals.make_corpus GAME
        the working tree plays the game's corpus player (<game folder>/tests/corpus.py, its TODAY
        journals) on a fresh SQLite database and writes them to journals/v<N>-core-v<M>/ (the
        game's and the core's journal versions today); run it before a version bump, and commit
        the directory with the bump
    .venv/bin/python -m tests.journals.make_corpus --again GAME/DIRECTORY[/NAME]
        makes an existing directory (or one file of it) again, with the commit its made.json
        names: a temporary `git worktree` of that commit, players.py, values.py and every game's
        corpus player copied in and run there with that commit's own code (this checkout's
        .venv: earlier requirements are a subset of today's)

Files already made are replaced; a journal file is never edited by hand.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def _environment(database_dir: str, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG")}
    env.update(
        DATABASE_URL=f"sqlite:///{database_dir}/corpus.sqlite3",
        DJANGO_SETTINGS_MODULE="muster.settings",
        **extra,
    )
    return env


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def _write_made(out: Path, made: dict) -> None:
    (out / "made.json").write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")


def make_today(slug: str) -> Path:
    """The game's TODAY journals played by the working tree, into journals/v<N>-core-v<M>/."""
    from campaigns import versions
    from campaigns.systems import get_system

    from .corpus import journals_of
    from .values import corpus_modules

    system = get_system(slug)
    names = list(corpus_modules()[slug].TODAY)
    core = versions.CORE_VERSION
    out = journals_of(slug) / f"v{system.journal_version}-core-v{core}"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="muster-corpus-") as tmp:
        subprocess.run(
            [sys.executable, "-m", "tests.journals.players", str(out), *names],
            cwd=ROOT,
            env=_environment(tmp),
            check=True,
        )
    what = f"{system.name} at journal v{system.journal_version}, core v{core}: the working tree"
    made = {
        "commit": _git("rev-parse", "HEAD"),
        "what": what,
        "journals": {"core": core, slug: system.journal_version},
        "files": names,
    }
    _write_made(out, made)
    return out


def copy_players(tree: Path) -> None:
    """players.py, values.py and every game's corpus player, into the package `_corpus` of a
    worktree of an earlier commit (its players under `_corpus/games/<slug>.py`)."""
    from .values import corpus_modules

    package = tree / "_corpus"
    (package / "games").mkdir(parents=True)
    for init in (package / "__init__.py", package / "games" / "__init__.py"):
        init.write_text("")
    for name in ("players.py", "values.py"):
        shutil.copy(HERE / name, package / name)
    for slug, module in corpus_modules().items():
        shutil.copy(module.__file__, package / "games" / f"{slug}.py")


def make_again(directory: Path, only: tuple[str, ...] = ()) -> None:
    """An existing directory made again by the commit its made.json names (`only`: these files)."""
    made = json.loads((directory / "made.json").read_text())
    with tempfile.TemporaryDirectory(prefix="muster-corpus-") as tmp:
        tree = Path(tmp) / "tree"
        _git("worktree", "add", "--detach", str(tree), made["commit"])
        try:
            copy_players(tree)
            env = _environment(tmp, PYTHONPATH=str(tree), MUSTER_EXTRA_SYSTEMS="")
            subprocess.run(
                [PYTHON, "-m", "_corpus.players", str(directory), *(only or made["files"])],
                cwd=tree,
                env=env,
                check=True,
            )
        finally:
            _git("worktree", "remove", "--force", str(tree))


def main(arguments: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    import django

    django.setup()
    from .corpus import journals_of

    if arguments[:1] == ["--again"]:
        for target in arguments[1:]:
            slug, directory, *name = target.split("/")
            print(f"== {slug}/{directory}", flush=True)
            make_again(journals_of(slug) / directory, tuple(name))
        return
    for slug in arguments:
        print(f"== {slug}: {make_today(slug)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
