"""The fold and the game interface sit in no import circle: engine -> core_events, proposals ->
seats, house_rules, progress -> errors …, versions declares and upgrading runs, and a game reaches
them through campaigns.game_interface. Nor does any game's own folder hold a circle (Rifles'
squad and briefing, system -> demo -> forms -> system were; A!P!'s aftermath -> halfday ->
sequence and elr <-> words <-> steps.helpers were). Read from the source with `ast`,
imports inside functions included (they are circles too, only hidden from the interpreter)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.core.test_no_import_circles import circles  # one Tarjan for both checks

ROOT = Path(__file__).resolve().parents[2]
# Modules that must sit in no circle, and packages none of whose modules may.
FOLD = {
    "campaigns.journal.engine",
    "campaigns.journal.core_events",
    "campaigns.journal.proposals",
    "campaigns.access.seats",
    "campaigns.journal.house_rules",
    "campaigns.journal.progress",
    "campaigns.journal.state_copy",
    "campaigns.versions",
    "campaigns.versions.upgrading",
    "campaigns.systems",
    "campaigns.systems.base",
    "campaigns.game_interface",
}
# Every game app's package under campaigns/systems/ (found by its apps.py, not listed).
GAMES = tuple(
    f"campaigns.systems.{apps_module.parent.name}"
    for apps_module in sorted((ROOT / "campaigns" / "systems").glob("*/apps.py"))
)


def graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports (anywhere in its source)."""
    paths = {}
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if "tests" in parts or "migrations" in parts:
            continue
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                found = known(target)
                if found and found != name:
                    edges[name].add(found)
    return edges


def offending(groups: list[set[str]]) -> list[list[str]]:
    return [
        sorted(group) for group in groups if group & FOLD or any(m.startswith(GAMES) for m in group)
    ]


def test_no_import_circle_runs_through_the_fold_the_game_interface_or_a_game():
    assert offending(circles(graph(ROOT, "campaigns"))) == []


def test_the_check_finds_a_circle(tmp_path):
    package = tmp_path / "campaigns"
    (package / "systems" / "rifles_ardennes").mkdir(parents=True)
    (package / "journal").mkdir()
    (package / "__init__.py").write_text("")
    (package / "systems" / "__init__.py").write_text("")
    (package / "journal" / "__init__.py").write_text("")
    (package / "journal" / "engine.py").write_text("from . import core_events\n")
    (package / "journal" / "core_events.py").write_text("def f():\n    from .engine import fold\n")
    (package / "errors.py").write_text("")
    rifles = package / "systems" / "rifles_ardennes"
    (rifles / "__init__.py").write_text("")
    (rifles / "squad.py").write_text("from . import briefing\nfrom campaigns import errors\n")
    (rifles / "briefing.py").write_text("from .squad import x\n")
    assert sorted(offending(circles(graph(tmp_path, "campaigns")))) == [
        ["campaigns.journal.core_events", "campaigns.journal.engine"],
        ["campaigns.systems.rifles_ardennes.briefing", "campaigns.systems.rifles_ardennes.squad"],
    ]
