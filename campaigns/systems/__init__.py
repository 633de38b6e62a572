"""The game-system registry, read from Django's app registry.

A game is a Django app whose AppConfig is a ``GameAppConfig`` naming its ``system`` (as a site
finds its plugins: each plugin an app whose AppConfig carries its meta). muster/settings.py
installs, by pattern, every package under campaigns/systems/ that has an ``apps.py``, and the
test or benchmark games named in the MUSTER_EXTRA_SYSTEMS setting; no list names the games.
A shared game package (victory_ledger) is an app whose GameAppConfig names no system: its folder
is found (its templates), it is no game. Adding a game is adding one folder
(docs/architecture.md, "How to add a game in ten lines").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import AppConfig, apps
from django.core.signals import setting_changed
from django.dispatch import receiver

from .base import GameSystem


class GameAppConfig(AppConfig):
    """A game's app (its folder's apps.py): ``system`` is its GameSystem instance (None for a
    shared game package such as victory_ledger); its ``name`` is the folder's module unless set.
    The label, the folder's name, names its templates ("<label>/<file>", template_loader.py)."""

    system: GameSystem | None = None
    default = False  # imported into every apps.py: Django picks the game's own subclass there

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "default" not in cls.__dict__:
            cls.default = True
        if "name" not in cls.__dict__:  # the package of its apps.py (or the module it is in)
            cls.name = cls.__module__.removesuffix(".apps")


# The app registry's configs the answers below were read from, and those answers.
_read_from: list[Any] = [None, {}, {}]


def _read() -> tuple[dict[str, GameSystem], dict[str, Path]]:
    configs = apps.app_configs
    if _read_from[0] is not configs:
        systems: dict[str, GameSystem] = {}
        folders: dict[str, Path] = {}
        for config in apps.get_app_configs():
            if not isinstance(config, GameAppConfig):
                continue
            folders[config.label] = Path(config.path)
            if config.system is None:
                continue
            if config.system.slug in systems:
                raise RuntimeError(f"Two game systems use the slug {config.system.slug!r}")
            systems[config.system.slug] = config.system
        _read_from[:] = [configs, systems, folders]
    return _read_from[1], _read_from[2]


def all_systems() -> dict[str, GameSystem]:
    return _read()[0]


def get_system(slug: str) -> GameSystem:
    try:
        return all_systems()[slug]
    except KeyError:
        raise KeyError(f"Unknown game system {slug!r}") from None


def game_folders() -> dict[str, Path]:
    """Each game app's folder by its label (the folder's name): the games and the shared game
    packages such as victory_ledger. A game's templates are <folder>/templates/<file>, named
    "<label>/<file>" (template_loader.py)."""
    return _read()[1]


def _site_apps() -> list[str]:
    """The installed apps but the extra games (the game apps outside campaigns/systems/)."""
    return [
        config.name
        for config in apps.get_app_configs()
        if not isinstance(config, GameAppConfig) or config.name.startswith(f"{__name__}.")
    ]


@receiver(setting_changed)
def _extra_systems_changed(setting: str, value: list[str], enter: bool, **kwargs: object) -> None:
    """A test that names other extra games (an override of MUSTER_EXTRA_SYSTEMS) installs their
    apps for its duration, as Django's own override of INSTALLED_APPS does."""
    if setting != "MUSTER_EXTRA_SYSTEMS":
        return
    if enter:
        apps.set_installed_apps([*_site_apps(), *value])
    else:
        apps.unset_installed_apps()
