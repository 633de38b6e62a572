"""Finds a game's own templates in its folder: "<game>/<file>" is <game folder>/templates/<file>
(the game apps' folders: campaigns/systems/<game>/, a shared game package such as victory_ledger,
or a game app named in MUSTER_EXTRA_SYSTEMS: game_folders()). A new game adds no template folder
to the settings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from django.core.exceptions import SuspiciousFileOperation
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import Origin, engines
from django.template.backends.django import DjangoTemplates
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from . import game_folders


class GameTemplates(FilesystemLoader):
    def get_template_sources(self, template_name: str) -> Iterator[Origin]:
        game, _, name = template_name.partition("/")
        folder = game_folders().get(game)
        if folder is None or not name:
            return
        try:
            path = safe_join(folder / "templates", name)
        except SuspiciousFileOperation:
            return  # "../" out of the game's templates: not found, like the filesystem loader
        yield Origin(name=path, template_name=template_name, loader=self)


@receiver(setting_changed)
def _extra_systems_changed(setting: str, **kwargs: Any) -> None:
    """A test that adds a game (MUSTER_EXTRA_SYSTEMS) finds its templates, not a cached miss."""
    if setting != "MUSTER_EXTRA_SYSTEMS":
        return
    for engine in engines.all():  # the site's one template engine is Django's (settings.TEMPLATES)
        for loader in cast(DjangoTemplates, engine).engine.template_loaders:
            loader.reset()
