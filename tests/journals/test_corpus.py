"""Every journal of the corpus (README.md: journals exported by earlier Muster commits) replays with
today's code, upgraded from the version it was written under, to what its own Muster computed
(standings, each side's values, rosters, scenario results: values.py); the upgraded journal is
today's (export -> replay -> export is identical, nothing upgraded again)."""

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from campaigns import journal_io
from campaigns.models import Campaign, Club

from .values import values

HERE = Path(__file__).parent
CASES = [(made.parent.name, name) for made in sorted(HERE.glob("*/made.json"))
         for name in json.loads(made.read_text())["files"]]

pytestmark = pytest.mark.django_db


def _wipe():
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.mark.parametrize("directory,name", CASES)
def test_an_old_journal_replays_upgraded_to_what_its_muster_computed(directory, name):
    made = json.loads((HERE / directory / "made.json").read_text())
    document = json.loads((HERE / directory / f"{name}.json").read_text())
    expected = json.loads((HERE / directory / f"{name}.expected.json").read_text())
    campaign = journal_io.replay(document, create_club=True, create_people=True)
    system = campaign.system
    # Read as the version it was written under, and upgraded from it (the upgrade named).
    assert campaign.upgraded.start == {"core": made["journals"]["core"], system: made["journals"][system]}
    if made["journals"][system] < campaign.journal_versions[system]:
        assert campaign.upgraded.summary().startswith(f"written by Muster journal {system} "
                                                      f"v{made['journals'][system]} (a file from before journal "
                                                      f"versions); upgraded to v{campaign.journal_versions[system]}")
    assert values(journal_io.full_state(campaign)) == expected
    exported = journal_io.export_journal(campaign)
    _wipe()
    again = journal_io.replay(exported, create_club=True, create_people=True)
    assert not again.upgraded.ran
    assert journal_io.export_journal(again) == exported


def test_the_corpus_holds_every_game_and_the_previous_release():
    from campaigns.systems import all_systems

    games = {json.loads((HERE / d / f"{n}.json").read_text())["campaign"]["system"] for d, n in CASES}
    assert games == set(all_systems()) - {"skirmish"}
    assert (HERE / "v0.1.0" / "made.json").exists()


def test_replay_campaign_names_the_upgrade_of_an_old_file(tmp_path):
    import io

    from django.core.management import call_command

    err = io.StringIO()
    call_command("replay_campaign", str(HERE / "030a954-achtung-panzer-v1" / "ap-v1-cg1.json"), "--create-club",
                 "--create-people", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == (
        "Journal written by Muster journal achtung_panzer v1 (a file from before journal versions); upgraded to "
        "v3: v1→v2: end-of-scenario records (1.12) added: every unit as it stood, the CVP already confirmed; Refit "
        "Phase steps with nothing to do left out (6 events added, 12 events left out); v2→v3: losses steps before "
        "1.6067 (R-A19) added as nothing more lost (6 events added).\n")


def test_a_file_from_a_newer_muster_is_refused_naming_its_version(tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from campaigns import versions

    document = json.loads((HERE / "v0.1.0" / "ap-cg1-table.json").read_text())
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**document, "muster": "0.9.0", "journals": {"core": 1, "achtung_panzer": 4}}))
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", str(newer), "--create-club", "--create-people")
    assert error.value.returncode == 2
    assert str(error.value) == (
        "journals.achtung_panzer: Written by Muster 0.9.0 with journal achtung_panzer v4; this site runs Muster "
        f"{versions.release()}, which reads up to v3. Upgrade Muster on this site (docs/operations.md) before "
        "replaying this file.")
    assert not Campaign.objects.exists() and not Club.objects.exists()
