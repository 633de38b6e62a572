"""A game's kinds, fields or step sequence never change without a journal version bump: each
journal's signature today must be the one kept for its version (campaigns.versions.signatures), and each
version has its upgrade step from the one before (docs/journal.md, "Bumping a version")."""

import dataclasses
import json

import pytest

from campaigns import versions
from campaigns.systems import all_systems
from campaigns.versions import signatures

JOURNALS = {
    journal: (version, signature, path)
    for journal, version, signature, path in signatures.journals()
}


@pytest.mark.parametrize("journal", sorted(JOURNALS))
def test_the_journal_is_what_its_version_says(journal):
    version, signature, path = JOURNALS[journal]
    problem = signatures.problem(journal, version, signature, path)
    assert problem is None, problem


@pytest.mark.parametrize("slug", sorted(all_systems()))
def test_every_version_has_its_upgrade_step(slug):
    system = all_systems()[slug]
    steps = system.journal_upgrades
    assert sorted(s.version for s in steps) == list(
        range(versions.oldest(slug, system), system.journal_version)
    )
    assert len({s.name for s in steps}) == len(steps) and all(s.name and s.words for s in steps)
    assert all(s.how in versions.WAYS for s in steps)
    assert all(
        not s._folds() and not s.kinds for s in steps if s.how == "fold"
    )  # a fold step rewrites nothing
    kept = signatures.read(signatures.file_of(system))["versions"]
    assert (
        max(map(int, kept)) == system.journal_version
    )  # no version kept that the code does not declare


def test_a_changed_field_without_a_bump_is_named(monkeypatch):
    system = all_systems()["skirmish"]
    buy = system.event_kind("skirmish.buy")
    wider = dataclasses.replace(buy, fields=(dataclasses.replace(buy.fields[0], max=9),))
    monkeypatch.setattr(type(system), "event_kinds", (system.event_kinds[0], wider))
    problem = signatures.problem(
        "skirmish", 1, signatures.system_signature(system), signatures.file_of(system)
    )
    assert problem.startswith(
        "skirmish: its journal changed without a version bump (kind skirmish.buy changed "
        "(fields, bounds, audience or actor)). Journals written under v1 would no longer mean "
        "what they meant: bump its journal version to v2, register an upgrade step from v1"
    )


def test_a_changed_step_sequence_without_a_bump_is_named(monkeypatch):
    from campaigns.systems.achtung_panzer import refit_steps

    system = all_systems()["achtung_panzer"]
    monkeypatch.setattr(
        refit_steps, "STEPS", [s for s in refit_steps.STEPS if s.id != "1.6066.losses"]
    )
    problem = signatures.problem(
        "achtung_panzer",
        system.journal_version,
        signatures.system_signature(system),
        signatures.file_of(system),
    )
    assert "(sequence changed; removed 1.6066.losses side ap.losses)" in problem


def test_a_changed_table_value_without_a_bump_is_named(monkeypatch):
    system = all_systems()["skirmish"]
    table = system.tables.tables["supply"]
    row = dataclasses.replace(table.rows[0], cells={**table.rows[0].cells, "points": 99})
    monkeypatch.setitem(
        system.tables.tables, "supply", dataclasses.replace(table, rows=(row, *table.rows[1:]))
    )
    problem = signatures.problem(
        "skirmish", 1, signatures.system_signature(system), signatures.file_of(system)
    )
    assert "(tables changed)" in problem


def test_words_change_freely():
    system = all_systems()["skirmish"]
    kind = system.event_kind("skirmish.buy")
    reworded = dataclasses.replace(
        kind,
        label="Buy troops",
        help="Any words",
        fields=(dataclasses.replace(kind.fields[0], label="How many", help="…"),),
    )
    before = signatures.system_signature(system)
    assert signatures.digest(
        {**before, "kinds": {**before["kinds"], kind.name: signatures._kind(reworded)}}
    ) == signatures.digest(before)


def test_a_recorded_version_never_changes(tmp_path):
    path = tmp_path / "journal_versions.json"
    signature = signatures.core_signature()
    assert signatures.record("core", 1, signature, path) == f"core v1: signature recorded in {path}"
    assert json.loads(path.read_text())["versions"]["1"]["release"] == versions.release()
    assert signatures.record("core", 1, signature, path) == "core v1: recorded already"
    changed = {**signature, "amendable": []}
    with pytest.raises(
        ValueError, match="core: its journal changed without a version bump \\(amendable changed\\)"
    ):
        signatures.record("core", 1, changed, path)
    assert signatures.record("core", 2, changed, path) == f"core v2: signature recorded in {path}"
