"""Print the layers of docs/architecture.md as a mermaid diagram drawn from the imports.

    .venv/bin/python scripts/layers.py

Each box is a layer (LAYERS: the modules it holds, by name prefix); an arrow says that some module
of one layer imports some module of the other (directly, imports inside functions included: read
by grimp, as import-linter reads them). Tests and migrations are left out. The diagram in
docs/architecture.md is this script's output; tests/core/test_layers_picture.py holds them equal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("campaigns", "rosters", "api", "muster")
GAMES = "campaigns.systems."

# (id, words, module prefixes), from the doors down; the first match names a module's layer.
LAYERS = [
    (
        "doors",
        "doors: pages, API, tasks, commands",
        (
            "api",
            "campaigns.views",
            "campaigns.management",
            "campaigns.tasks",
            "rosters.views",
            "rosters.api_urls",
            "rosters.tasks",
            "rosters.management",
        ),
    ),
    (
        "services",
        "services, selectors, permissions",
        (
            "campaigns.services",
            "campaigns.selectors",
            "campaigns.access.permissions",
            "campaigns.notices",
            "campaigns.mails",
            "rosters.services",
        ),
    ),
    (
        "engine",
        "engine, core events, visibility",
        (
            "campaigns.journal.engine",
            "campaigns.journal.core_events",
            "campaigns.journal.proposals",
            "campaigns.access.seats",
            "campaigns.journal.progress",
            "campaigns.access.visibility",
        ),
    ),
    ("models", "models", ("campaigns.models", "rosters.models")),
    ("interface", "game interface", ("campaigns.game_interface",)),
    ("registry", "game registry and base", ("campaigns.systems.base", "campaigns.systems")),
]


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if "tests" in parts or "migrations" in parts:
        return None
    if module.startswith(GAMES) and parts[2] not in ("base", "template_loader"):
        return "games"
    for layer, _, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return layer
    return None


def edges() -> set[tuple[str, str]]:
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    found = set()
    for module in graph.modules:
        source = _layer(module)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = _layer(imported)
            if target is not None and target != source:
                found.add((source, target))
    return found


def diagram() -> str:
    words = {layer: text for layer, text, _ in LAYERS} | {"games": "games (one folder each)"}
    lines = ["```mermaid", "flowchart TD"]
    lines += [f'    {layer}["{text}"]' for layer, text in words.items()]
    lines += [f"    {a} --> {b}" for a, b in sorted(edges())]
    lines.append("```")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(diagram(), end="")
