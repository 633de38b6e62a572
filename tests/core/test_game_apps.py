"""A game is a Django app found by the app registry: every package under campaigns/systems/ with
an apps.py is installed by pattern, its GameAppConfig names its system, and the registry reads
the games from the installed apps (a shared game package, victory_ledger, is an app but no game)."""

from pathlib import Path

from django.apps import apps
from django.conf import settings

from campaigns.game_interface import GameAppConfig
from campaigns.systems import all_systems, game_folders

SYSTEMS = Path(settings.BASE_DIR) / "campaigns" / "systems"


def _game_apps():
    return [c for c in apps.get_app_configs() if isinstance(c, GameAppConfig)]


def test_every_folder_with_an_apps_module_is_an_installed_game_app():
    folders = {p.parent.name for p in SYSTEMS.glob("*/apps.py")}
    installed = {c.label for c in _game_apps() if c.name.startswith("campaigns.systems.")}
    assert folders == installed and folders >= {"victory_ledger"}
    for config in _game_apps():
        assert Path(config.path) == game_folders()[config.label]


def test_the_registry_is_the_systems_the_game_apps_name():
    named = {c.system.slug: c.system for c in _game_apps() if c.system is not None}
    assert named == all_systems()
    assert apps.get_app_config("victory_ledger").system is None
    assert "skirmish" in all_systems()  # tests.testsystem, named in MUSTER_EXTRA_SYSTEMS


def test_a_test_that_names_another_game_installs_its_app_for_its_own_duration(settings):
    before = set(all_systems())
    assert "drill" not in before
    settings.MUSTER_EXTRA_SYSTEMS = [*settings.MUSTER_EXTRA_SYSTEMS, "tests.versions.drill.v1.App"]
    assert apps.is_installed("tests.versions.drill.v1") and set(all_systems()) == before | {"drill"}
    assert "v1" in game_folders()
