"""The game-system registry.

Every package under campaigns/systems/ that exposes ``SYSTEM`` is a game system;
so is every module named in the MUSTER_EXTRA_SYSTEMS setting. Adding a system is
adding one folder (its code, templates, demo and tests; docs/architecture.md, "How to add a
game in ten lines"), and a journal of it to the release corpus (tests/journals/).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from django.conf import settings

from .base import GameSystem


@cache
def _load(extra: tuple[str, ...]) -> dict[str, GameSystem]:
    found: dict[str, GameSystem] = {}
    names = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg]
    for module_name in [*names, *extra]:
        system = getattr(importlib.import_module(module_name), "SYSTEM", None)
        if system is None:
            continue
        if system.slug in found:
            raise RuntimeError(f"Two game systems use the slug {system.slug!r}")
        found[system.slug] = system
    return found


def all_systems() -> dict[str, GameSystem]:
    return _load(tuple(getattr(settings, "MUSTER_EXTRA_SYSTEMS", ())))


def get_system(slug: str) -> GameSystem:
    try:
        return all_systems()[slug]
    except KeyError:
        raise KeyError(f"Unknown game system {slug!r}") from None


def game_folders() -> dict[str, Path]:
    """Each game's folder by its name: the packages under campaigns/systems/ (games and shared
    game packages such as victory_ledger) and the modules named in MUSTER_EXTRA_SYSTEMS. A game's
    templates are <folder>/templates/<file>, named "<name>/<file>" (template_loader.py)."""
    return _folders(tuple(getattr(settings, "MUSTER_EXTRA_SYSTEMS", ())))


@cache
def _folders(extra: tuple[str, ...]) -> dict[str, Path]:
    here = Path(__file__).parent
    found = {m.name: here / m.name for m in pkgutil.iter_modules(__path__) if m.ispkg}
    for module_name in extra:
        module_file = importlib.import_module(module_name).__file__
        found[module_name.rpartition(".")[2]] = Path(module_file).parent
    return found
