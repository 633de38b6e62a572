"""Where the journal corpus is: each game's own journals, in its folder (<game folder>/journals/
<directory>/: made.json, and per journal NAME.json and NAME.expected.json), found through the
game registry; no list names the games."""

from __future__ import annotations

import json
from pathlib import Path

from django.apps import apps

from campaigns.game_interface import GameAppConfig


def game_apps() -> dict[str, GameAppConfig]:
    """Each installed game's app by its system's slug."""
    return {
        config.system.slug: config
        for config in apps.get_app_configs()
        if isinstance(config, GameAppConfig) and config.system is not None
    }


def site_games() -> set[str]:
    """The games of the site (their folders under campaigns/systems/), not the test games."""
    return {slug for slug, c in game_apps().items() if c.name.startswith("campaigns.systems.")}


def journals_of(slug: str) -> Path:
    return Path(game_apps()[slug].path) / "journals"


def directories() -> list[Path]:
    """Every directory of the corpus: each game's journals/<directory>/ with its made.json."""
    return [
        made.parent
        for slug in sorted(game_apps())
        for made in sorted(journals_of(slug).glob("*/made.json"))
    ]


def cases() -> list[tuple[Path, str]]:
    """(directory, journal name) of every journal of the corpus."""
    return [
        (directory, name)
        for directory in directories()
        for name in json.loads((directory / "made.json").read_text())["files"]
    ]


def missing(slugs) -> list[str]:
    """The games among `slugs` with no corpus journal in their folder."""
    return sorted(slug for slug in slugs if not any(journals_of(slug).glob("*/made.json")))
