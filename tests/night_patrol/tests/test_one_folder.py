"""Night Patrol is one folder: its code imports from our code only campaigns.game_interface and
itself, the templates it names come from its folder, and no file outside the folder (but the
documentation, *.md, that describes it) names it."""

import subprocess
from pathlib import Path

from django.template.loader import get_template

from campaigns.systems import all_systems
from tests.core.test_games_import_only_the_game_interface import (
    OURS,
    SHARED,
    imported,
    module_name,
    modules,
)

FOLDER = Path(__file__).resolve().parents[1]
ROOT = FOLDER.parents[1]


def test_its_code_imports_only_the_game_interface():
    found = []
    for path in modules(FOLDER):
        name = module_name(path)
        for line, module in imported(path.read_text(), name, path.name == "__init__.py"):
            ours = module.split(".")[0] in OURS
            allowed = module.startswith(("tests.night_patrol", *SHARED))
            if ours and not allowed:
                found.append(f"{path.relative_to(ROOT)}:{line} {module}")
    assert found == []


def test_the_templates_it_names_are_in_its_folder():
    system = all_systems()["night_patrol"]
    origin = Path(get_template(system.panel_template).origin.name)
    assert origin.is_relative_to(FOLDER / "templates")


def test_no_file_outside_its_folder_names_it():
    tracked = subprocess.run(
        ["git", "grep", "-l", "-e", "night_patrol", "-e", "Night Patrol", "--", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    outside = [p for p in tracked if not p.startswith("tests/night_patrol/") and p[-3:] != ".md"]
    assert outside == []


def test_its_journal_signature_is_kept_in_its_folder():
    from campaigns.versions import signatures

    found = {journal: rest for journal, *rest in signatures.journals()}
    version, signature, path = found["night_patrol"]
    assert Path(path) == FOLDER / "journal_versions.json"
    assert signatures.problem("night_patrol", version, signature, path) is None
