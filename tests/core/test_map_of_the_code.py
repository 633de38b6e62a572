"""docs/architecture.md's map of the code is the tree as it is: every module and package of the
apps is on it, nothing on it is gone, and the glossary names each of the core's packages."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOPS = ("campaigns", "rosters", "api", "muster")
# Packages whose modules the map need not list one by one (thin doors, and Django's own folders).
UNLISTED = {"campaigns/management", "campaigns/templatetags", "campaigns/views"}
NOT_CODE = {"migrations", "tests", "templates", "__pycache__", "static", "tables"}


def entries(folder: Path, packages: bool = True) -> set[str]:
    """The modules and packages right inside `folder`, as the map writes them."""
    found = set()
    for path in folder.iterdir():
        if path.name in NOT_CODE or path.name.startswith((".", "_")):
            continue
        if path.is_dir() and (path / "__init__.py").exists() and packages:
            found.add(path.name + "/")
        elif path.suffix == ".py":
            found.add(path.name)
    return found


def read_map(text: str) -> dict[str, set[str]]:
    """folder -> the entries the map lists in it."""
    block = text.split("## Map of the code", 1)[1].split("```", 2)[1]
    listed: dict[str, set[str]] = {}
    top = package = ""
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        words = line.split()
        if indent == 0:
            top = words[0].rstrip("/")
            listed[top] = set()
        elif indent == 2:
            names = [w for w in words if re.fullmatch(r"[a-z_0-9]+(\.py|/)", w)]
            if len(names) == len(words):  # a plain list of the folder's modules
                listed[top] |= set(names)
            else:
                listed[top].add(words[0])
                if words[0].endswith("/"):
                    package = f"{top}/{words[0].rstrip('/')}"
        elif indent == 4:
            listed.setdefault(package, set()).add(words[0])
    return listed


def test_the_map_lists_every_module_and_package_and_nothing_else():
    listed = read_map((ROOT / "docs" / "architecture.md").read_text())
    for top in TOPS:
        assert listed[top] == entries(ROOT / top), top
    for package in sorted(p for p in listed[("campaigns")] if p.endswith("/")):
        folder = f"campaigns/{package.rstrip('/')}"
        if folder in UNLISTED:
            continue
        # The games are found by the registry, not listed: systems/ shows its own modules.
        wanted = entries(ROOT / folder, packages=folder != "campaigns/systems")
        assert listed.get(folder, set()) == wanted, folder


def test_the_glossary_names_each_package_of_the_core():
    glossary = (ROOT / "docs" / "glossary.md").read_text()
    for package in sorted(entries(ROOT / "campaigns")):
        if package.endswith("/") and f"campaigns/{package.rstrip('/')}" not in UNLISTED:
            if package in ("services/", "selectors/", "systems/"):
                continue  # named with their layer in docs/architecture.md
            assert f"`campaigns/{package}`" in glossary, package


def test_the_map_reader_sees_a_missing_module(tmp_path):
    text = "## Map of the code\n\n```\ncampaigns/\n  journal/  the journal\n    engine.py  the fold\n```\n"
    listed = read_map(text)
    assert listed == {"campaigns": {"journal/"}, "campaigns/journal": {"engine.py"}}
    assert listed["campaigns/journal"] != entries(ROOT / "campaigns" / "journal")
