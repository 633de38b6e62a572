"""One folder per game: the templates a game names are found in its own folder
(campaigns/systems/template_loader.py), and nothing outside it is a game's."""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from campaigns.systems import all_systems, game_folders

ROOT = Path(settings.BASE_DIR)


def _named_templates(system):
    names = [system.panel_template, system.records_template, *(s.template for s in system.sheets)]
    return [name for name in names if name]


@pytest.mark.parametrize("slug", sorted(all_systems()))
def test_a_game_s_own_templates_come_from_its_folder(slug):
    system = all_systems()[slug]
    folders = game_folders()
    for name in _named_templates(system):
        origin = Path(get_template(name).origin.name)
        owner = name.partition("/")[0]
        if owner in folders:  # a game's template (its own or a shared game package's)
            assert origin.is_relative_to(folders[owner] / "templates"), name
        else:  # the core's generic sheets (sheets/summary.html, sheets/table.html)
            assert origin.is_relative_to(ROOT / "templates"), name


def test_every_game_with_a_panel_names_it():
    panels = {slug: s.panel_template for slug, s in all_systems().items()}
    assert panels["achtung_panzer"] == "achtung_panzer/panel.html"
    assert panels["rifles_ardennes"] == "rifles_ardennes/panel.html"
    for ledger_game in ("pattons_vanguard", "ardennes44", "fab_bulge"):
        assert panels[ledger_game] == "victory_ledger/panel.html"
    assert panels["skirmish"] == ""  # the generic view of the state


def test_no_game_template_is_left_in_the_project_templates():
    assert not (ROOT / "templates" / "systems").exists()
    for name in game_folders():
        assert not (ROOT / "templates" / "sheets" / name).exists(), name


@pytest.mark.parametrize(
    "name", ["achtung_panzer/../system.py", "achtung_panzer/../../../muster/settings.py"]
)
def test_a_game_template_name_cannot_leave_the_game_s_templates(name):
    with pytest.raises(TemplateDoesNotExist):
        get_template(name)


def test_a_name_that_is_no_game_s_is_not_looked_up_in_game_folders():
    with pytest.raises(TemplateDoesNotExist):
        get_template("no_such_game/panel.html")
