"""A game reaches the core only through campaigns.game_interface: every module of a game (its
folder under campaigns/systems/, the test games) imports from our own code nothing but that
module, its own package and the shared game package victory_ledger. Read from the source with
`ast` (imports inside functions too, relative ones resolved, import_module("...") strings), so
an import nobody runs in the tests is caught as well. A game's own tests (its tests/ folder) are
test code: they drive the whole site and are not held to this."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ROOT / "campaigns" / "systems"


def _test_games() -> tuple[Path, ...]:
    """Test games (added to the registry through MUSTER_EXTRA_SYSTEMS by the tests): the folder of
    every module under tests/ or benchmarks/ that assigns SYSTEM (read with `ast`: a game's text
    written by a test is no game), found, not listed, so that a new fixture game is read without
    touching this file (docs/architecture.md, one folder per game)."""
    found = set()
    for top in ("tests", "benchmarks"):
        for path in (ROOT / top).rglob("*.py"):
            if any(part.startswith(".") for part in path.relative_to(ROOT).parts):
                continue  # working copies (benchmarks/.work/)
            if "SYSTEM = " in (text := path.read_text()) and _assigns_system(text):
                found.add(path.parent)
    return tuple(sorted(found))


def _assigns_system(source: str) -> bool:
    return any(
        isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SYSTEM" for t in node.targets)
        for node in ast.parse(source).body
    )


TEST_GAMES = _test_games()

OURS = ("campaigns", "rosters", "api", "muster", "tests", "benchmarks")
SHARED = ("campaigns.game_interface", "campaigns.systems.victory_ledger")
# Django's parts that reach the database or the people: a game is handed what it needs.
DJANGO_FORBIDDEN = ("django.db", "django.contrib.auth")


def games() -> list[Path]:
    found = [p for p in SYSTEMS.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    return sorted(found) + [p for p in TEST_GAMES if p.exists()]


def modules(game: Path):
    for path in sorted(game.rglob("*.py")):
        if "tests" in path.relative_to(game).parts[:-1]:
            continue  # the game's own tests
        yield path


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, name: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, module) of every import in `source`, the module `name` (relative ones resolved)."""
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from campaigns import errors` imports campaigns.errors: name each one.
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def refused(source: str, name: str, own: str, is_package: bool = False) -> list[str]:
    """What `source` (the module `name` of the game package `own`) imports that a game may not."""
    bad = []
    for line, module in imported(source, name, is_package):
        if any(_within(module, p) for p in (own, *SHARED)):
            continue
        if any(_within(module, p) for p in (*OURS, *DJANGO_FORBIDDEN)):
            bad.append(f"{name}:{line} imports {module}")
    return bad


def test_games_import_only_the_game_interface_their_own_folder_and_shared_game_packages():
    bad = []
    read = {}
    for game in games():
        own = module_name(game / "__init__.py")
        for path in modules(game):
            read[game.name] = read.get(game.name, 0) + 1
            bad += refused(
                path.read_text(), module_name(path), own, is_package=path.name == "__init__.py"
            )
    # Every game app was read (the games, the shared packages, the installed test games), and the
    # test games the other tests install.
    from campaigns.systems import game_folders

    assert {folder.name for folder in game_folders().values()} <= set(read)
    assert {game.name for game in TEST_GAMES} <= set(read) and len(TEST_GAMES) >= 3
    assert not bad, "A game reaches the core only through campaigns.game_interface:\n" + "\n".join(
        bad
    )


def test_the_check_finds_a_game_reaching_past_the_interface():
    own = "campaigns.systems.mygame"
    source = '''
from campaigns.game_interface import DomainError, advance
from campaigns.systems.victory_ledger.ledger import public
from . import rules
from .rules import table
import json

from campaigns.journal.core_events import finish
import campaigns.models
from campaigns import dice
from ..achtung_panzer import refit_progress
from ...services import journal
from django.db import transaction


def demo(table):
    from campaigns.services.journal import submit
    import importlib
    importlib.import_module("campaigns.selectors")
    importlib.import_module(".steps", __package__)
'''
    assert refused(source, f"{own}.system", own) == [
        f"{own}.system:8 imports campaigns.journal.core_events.finish",
        f"{own}.system:9 imports campaigns.models",
        f"{own}.system:10 imports campaigns.dice",
        f"{own}.system:11 imports campaigns.systems.achtung_panzer.refit_progress",
        f"{own}.system:12 imports campaigns.services.journal",
        f"{own}.system:13 imports django.db.transaction",
        f"{own}.system:17 imports campaigns.services.journal.submit",
        f"{own}.system:19 imports campaigns.selectors",
    ]
    # The same relative import is the game's own from its package's __init__.
    assert refused("from .rules import table\n", own, own, is_package=True) == []
    assert refused("from ..base import GameSystem\n", own, own, is_package=True) == [
        f"{own}:1 imports campaigns.systems.base.GameSystem"
    ]


def core_modules():
    """Every module of our code outside the games (and outside tests): the core and the doors."""
    game_dirs = [g for g in games() if g.is_relative_to(SYSTEMS)]
    for package in ("campaigns", "rosters", "api", "muster"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(path.is_relative_to(g) for g in game_dirs) or "migrations" in path.parts:
                continue
            yield path


def test_the_core_imports_neither_a_game_nor_the_game_interface():
    """The dependency runs one way: the interface imports the core, never the reverse (the
    registry finds the games by their folders, with importlib, not by name)."""
    games_by_name = [module_name(g / "__init__.py") for g in games() if g.is_relative_to(SYSTEMS)]
    bad = []
    for path in core_modules():
        name = module_name(path)
        if name == "campaigns.game_interface":
            continue
        for line, module in imported(path.read_text(), name, path.name == "__init__.py"):
            if any(_within(module, p) for p in ("campaigns.game_interface", *games_by_name)):
                bad.append(f"{name}:{line} imports {module}")
    assert not bad, "The core imports no game and not the game interface:\n" + "\n".join(bad)
