"""No function of the apps' code runs over 80 lines: a longer one is broken into parts named for
what they do (tests and migrations excepted)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("campaigns", "rosters", "api", "muster")
LONGEST = 80


def long_functions(root: Path) -> list[str]:
    found = []
    for top in APPS:
        for path in sorted((root / top).rglob("*.py")):
            if {"tests", "migrations"} & set(path.relative_to(root).parts):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > LONGEST:
                        found.append(
                            f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines})"
                        )
    return found


def test_no_function_of_the_apps_runs_over_80_lines():
    assert long_functions(ROOT) == []


def test_the_check_finds_a_long_function(tmp_path):
    (tmp_path / "campaigns").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST))
    (tmp_path / "campaigns" / "long.py").write_text(f"def long():\n{body}")
    assert long_functions(tmp_path) == [f"campaigns/long.py:1 long ({LONGEST + 1})"]
