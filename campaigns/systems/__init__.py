"""The game-system registry.

Every package under campaigns/systems/ that exposes ``SYSTEM`` is a game system;
so is every module named in the MUSTER_EXTRA_SYSTEMS setting. Adding a system is
adding one folder: nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from django.conf import settings

from .base import GameSystem


@lru_cache(maxsize=None)
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
