"""A new game is one folder and nothing else: written into a temporary folder (new_game.py) and
named in MUSTER_EXTRA_SYSTEMS, it is played through the pages and the API, its demo is played,
its corpus is made by the one command and replays, lint (ruff, mypy) and the import contract of
the games take it, with no file outside its folder. Planted faults are found: an import of the
core past the game interface, a game with no corpus journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign
from campaigns.services.demo import DemoTable
from campaigns.services.state import current_state
from campaigns.systems import all_systems
from tests.core import new_game
from tests.core.test_games_import_only_the_game_interface import modules, refused
from tests.journals import corpus
from tests.journals.test_corpus import (
    _wipe,
    test_an_old_journal_replays_upgraded_to_what_its_muster_computed as replays,
)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GAME = new_game.PACKAGE
# Planted in the demo, inside a function: an import no test of the game's own would run.
FORBIDDEN = (
    "\n\ndef journal_of(table):\n    from campaigns.services import journal\n\n    return journal\n"
)

pytestmark = pytest.mark.django_db


def _run(command: list[str], root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), str(ROOT)]),
        "MUSTER_EXTRA_SYSTEMS": f"tests.testsystem,{GAME}",
        **env,
    }
    return subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300
    )


def _import_contract(root: Path) -> str:
    """The games' contract of pyproject.toml ("Games reach the core only through
    campaigns.game_interface") with the new game as its source, run by import-linter."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["id"] == "games-only-the-interface"]
    contract = {**contract, "source_modules": [GAME], "ignore_imports": [f"{GAME}.tests.** -> **"]}
    lines = [
        "[importlinter]",
        f"root_packages =\n    {GAME}\n    campaigns\n    rosters\n    api",
        "include_external_packages = false",
        "[importlinter:contract:games]",
        f"name = {contract['name']}",
        "type = forbidden",
        "source_modules =\n    " + "\n    ".join(contract["source_modules"]),
        "forbidden_modules =\n    " + "\n    ".join(contract["forbidden_modules"]),
        "ignore_imports =\n    " + "\n    ".join(contract["ignore_imports"]),
        "allow_indirect_imports = true",
    ]
    path = root / "importlinter.ini"
    path.write_text("\n".join(lines) + "\n")
    done = _run([str(BIN / "lint-imports"), "--config", str(path), "--no-cache"], root)
    return "" if done.returncode == 0 else done.stdout[-2000:]


# mypy as it checks a game's folder: bodies checked, annotations not required (not --strict).
AS_A_GAME = [
    "--check-untyped-defs",
    "--allow-untyped-defs",
    "--allow-incomplete-defs",
    "--allow-untyped-calls",
    "--allow-any-generics",
    "--no-warn-return-any",
]


def _lint(folder: Path) -> list[str]:
    problems = []
    ruff = _run(
        [str(BIN / "ruff"), "check", "--no-cache", "--config", "pyproject.toml", str(folder)],
        folder.parent,
    )
    if ruff.returncode:
        problems.append(f"ruff: {ruff.stdout[-1000:]}")
    mypy = _run(
        [str(BIN / "mypy"), "--config-file", "pyproject.toml", *AS_A_GAME, "-p", GAME],
        folder.parent,
        MYPYPATH=str(folder.parent),
    )
    if mypy.returncode:
        problems.append(f"mypy: {mypy.stdout[-1000:]}")
    return problems


def _imports(folder: Path) -> list[str]:
    """The games' import checks: the ast reading that holds the test games, and the contract."""
    problems = []
    for path in modules(folder):
        name = ".".join(path.relative_to(folder.parent).with_suffix("").parts)
        problems += refused(path.read_text(), name.removesuffix(".__init__"), GAME)
    contract = _import_contract(folder.parent)
    return problems + ([f"import-linter: {contract}"] if contract else [])


def _played_through_the_pages_and_the_api(people) -> None:
    from tests.web.conftest import text_of

    olga = APIClient()
    olga.force_login(people["olga"])
    page = olga.post(f"/clubs/tuesday/campaigns/new/{GAME}/", {"name": "Dawn", "variant": "short"})
    campaign = Campaign.objects.get(name="Dawn")
    assert page.status_code == 302 and campaign.system == GAME
    made = olga.post(
        "/api/v1/campaigns/",
        {"club": "tuesday", "system": GAME, "variant": "short", "name": "By API"},
        format="json",
    )
    assert made.status_code == 201
    base = f"/api/v1/campaigns/{made.json()['id']}/"
    for side, username in (("raiders", "alice"), ("guards", "bob")):
        seated = olga.post(base + "players/", {"side": side, "username": username}, format="json")
        assert seated.status_code == 201
    assert (
        olga.post(base + "events/", {"kind": "campaign.started"}, format="json").status_code == 201
    )
    alice = APIClient()
    alice.force_login(people["alice"])
    assert "raid.scout" in [a["kind"] for a in alice.get(base + "actions/").json()]
    assert alice.post(base + "events/", {"kind": "raid.scout"}, format="json").status_code == 201
    shown = text_of(alice.get(f"/campaigns/{made.json()['id']}/"))
    assert "Ground scouted at dawn:" in shown  # the game's own panel, from its folder


def _demo(club, people) -> None:
    users = {"organizer": people["olga"], "alice": people["alice"], "bob": people["bob"]}
    campaign = all_systems()[GAME].demo(DemoTable(club, users, all_systems()[GAME]))
    assert len(current_state(campaign)["game"]["public"]["ground"]) == 1


def _corpus(folder: Path, make: bool) -> list[str]:
    if make:
        made = _run([sys.executable, "-m", "tests.journals.make_corpus", GAME], folder.parent)
        assert made.returncode == 0, made.stderr[-3000:]
    missing = corpus.missing([GAME])
    if missing:
        return [f"no corpus journal: {missing}"]
    _wipe()  # the journals replay into an empty site, as in test_corpus
    for directory, name in corpus.cases():
        if directory.is_relative_to(folder):
            replays(directory, name)
    return []


@pytest.mark.parametrize(
    "fault,found",
    [
        ("none", []),
        ("an import past the game interface", ["demo imports campaigns.services.journal"]),
        ("no corpus journal", ["no corpus journal"]),
    ],
)
def test_a_new_game_in_one_folder_is_taken_by_every_door_and_check(
    fault, found, tmp_path, settings, monkeypatch, club, people
):
    planted = {"demo.py": FORBIDDEN} if fault.startswith("an import") else {}
    folder = new_game.write(tmp_path, planted)
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in [m for m in sys.modules if m == GAME or m.startswith(f"{GAME}.")]:
        monkeypatch.delitem(sys.modules, module)  # another test's copy of the game
    settings.MUSTER_EXTRA_SYSTEMS = [*settings.MUSTER_EXTRA_SYSTEMS, GAME]
    assert GAME in all_systems()

    _played_through_the_pages_and_the_api(people)
    _demo(club, people)
    problems = _corpus(folder, make=fault != "no corpus journal")
    problems += _imports(folder)
    if fault == "none":
        problems += _lint(folder)
    for expected in found:  # each planted fault is found, by every check that looks for it
        assert any(expected.split(" imports ")[-1] in p for p in problems), (expected, problems)
    assert len(problems) == {"none": 0, "no corpus journal": 1}.get(fault, 2), problems
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("made.json"))
    assert all(p.startswith(f"{GAME}/journals/") for p in made), made
    if made:
        assert json.loads((tmp_path / made[0]).read_text())["files"] == ["dawn-raid"]
