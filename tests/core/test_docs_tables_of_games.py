"""The tables of games in the documentation are the registry's: docs/journal.md's table of
journal versions has one row per journal (the core and every game of the site) at today's
version, and the README's list of game systems names every game of the site."""

import re
from pathlib import Path

from django.conf import settings

from campaigns import versions
from tests.journals import corpus

ROOT = Path(settings.BASE_DIR)


def _site_systems():
    return {slug: corpus.game_apps()[slug].system for slug in corpus.site_games()}


def test_the_journal_versions_table_is_the_registry_s():
    text = (ROOT / "docs" / "journal.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| (\d+) \|", text, flags=re.MULTILINE))
    today = {slug: str(system.journal_version) for slug, system in _site_systems().items()}
    assert rows == {versions.CORE: str(versions.CORE_VERSION), **today}


def test_the_readme_names_every_game_of_the_site():
    text = (ROOT / "README.md").read_text()
    (systems,) = re.findall(r"^Game systems:(.*?)\n\n", text, flags=re.MULTILINE | re.DOTALL)
    words = " ".join(systems.split())
    for slug, system in _site_systems().items():
        assert system.name.split(" (")[0] in words, slug
