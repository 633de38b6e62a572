"""Every journal of the corpus (README.md: each game's journals, in its folder, exported by earlier
Muster commits or by the working tree before a version bump) replays with today's code, upgraded from the version it was written under, to what its own Muster computed
(standings, each side's values, rosters, scenario results: values.py); an upgraded journal is
today's (export -> replay -> export is identical, nothing upgraded again)."""

import json

import pytest
from django.contrib.auth import get_user_model

from campaigns import versions
from campaigns.models import Campaign, Club
from campaigns.services import journal_files
from campaigns.systems import get_system

from . import corpus
from .values import values

CASES = corpus.cases()
AP = corpus.journals_of("achtung_panzer")  # the files the tests of replay_campaign's words read

pytestmark = pytest.mark.django_db


def _carried_as_is(slug: str, since: int) -> bool:
    """Every upgrade step of `slug` from version `since` on leaves a journal as it is."""
    system = get_system(slug)
    steps = versions.steps_of(slug, system)
    return all(
        not steps[v]._folds()
        and not steps[v].kinds
        and type(steps[v]).data is versions.Upgrade.data
        for v in range(since, system.journal_version)
    )


def _wipe():
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.mark.parametrize(
    "directory,name", CASES, ids=[f"{d.parents[1].name}/{d.name}/{n}" for d, n in CASES]
)
def test_an_old_journal_replays_upgraded_to_what_its_muster_computed(directory, name):
    made = json.loads((directory / "made.json").read_text())
    document = json.loads((directory / f"{name}.json").read_text())
    expected = json.loads((directory / f"{name}.expected.json").read_text())
    replayed = journal_files.replay_journal(document, create_club=True, create_people=True)
    campaign = replayed.campaign
    system, written = campaign.system, made["journals"][campaign.system]
    start = replayed.upgraded.start
    # Read as the version it was written under and upgraded from it, the upgrade named; a file of
    # a version whose later steps change nothing in a journal may fit a later one as it is.
    # A file from before versions is read as the core of then (v1), never as a later core it may fit.
    assert made["journals"]["core"] <= start["core"] <= campaign.journal_versions["core"]
    if _carried_as_is(system, written):
        assert written <= start[system] <= campaign.journal_versions[system]
    else:
        assert start[system] == written
        assert replayed.upgraded.summary().startswith(
            f"written by Muster journal {system} v{written} (a file from "
            f"before journal versions); upgraded to "
            f"v{campaign.journal_versions[system]}"
        )
    assert values(journal_files.full_state(campaign)) == expected
    # the upgraded journal is today's (files of today's versions: tests/journal_files)
    if replayed.upgraded.ran:
        exported = journal_files.export_journal(campaign)
        _wipe()
        again = journal_files.replay_journal(exported, create_club=True, create_people=True)
        assert not again.upgraded.ran
        assert journal_files.export_journal(again.campaign) == exported


def test_the_corpus_holds_every_game_of_the_site_and_the_previous_release():
    games = {json.loads((d / f"{n}.json").read_text())["campaign"]["system"] for d, n in CASES}
    assert corpus.missing(corpus.site_games()) == [] and corpus.site_games() <= games
    for directory, name in CASES:  # each game's journals are its own
        system = json.loads((directory / f"{name}.json").read_text())["campaign"]["system"]
        assert directory.parent == corpus.journals_of(system), (directory, name)
    assert any(d.name == "v0.1.0" for d in corpus.directories())  # the previous release's


def test_replay_campaign_names_the_upgrade_of_an_old_file(tmp_path):
    import io

    from django.core.management import call_command

    err = io.StringIO()
    call_command(
        "replay_campaign",
        str(AP / "030a954-achtung-panzer-v1" / "ap-v1-cg1.json"),
        "--create-club",
        "--create-people",
        stdout=io.StringIO(),
        stderr=err,
    )
    assert err.getvalue() == (
        "Journal written by Muster journal achtung_panzer v1 (a file from before journal versions); upgraded to "
        "v6: v1→v2: end-of-scenario records (1.12) added: every unit as it stood, the CVP already confirmed; Refit "
        "Phase steps with nothing to do left out (6 events added, 12 events left out); v2→v3: losses steps before "
        "1.6067 (R-A19) added as nothing more lost (6 events added); v3→v4: the CVP of lost units the club's CVP "
        "list does not cover asked on their own; earlier records keep the total they gave (nothing to change); "
        "v4→v5: played with one ELR per side, as then: British units and German pioneers keep the side's ELR "
        "(CG14's own values apply to campaigns begun since) (earlier events keep the rules they were written under); "
        "v5→v6: battle hardening played as then: the MMC (1.6112) and the leader's result (1.6113) chosen after the "
        "DR (campaigns begun since may give the choice with the DR) (earlier events keep the rules they were written "
        "under). And Muster journal core v1 (a file from before journal versions), upgraded to v3: v1→v2: seating someone "
        "on a side in play needs that side's agreement (or the referee's) (earlier events keep the rules they were "
        "written under); v2→v3: ending the campaign or taking the referee off in play, by one who plays or played a "
        "side, needs the other side's agreement (or the referee's) (earlier events keep the rules they were written "
        "under).\n"
    )


def test_a_file_from_a_newer_muster_is_refused_naming_its_version(tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    document = json.loads((AP / "v0.1.0" / "ap-cg1-table.json").read_text())
    newer = tmp_path / "newer.json"
    newer.write_text(
        json.dumps({**document, "muster": "0.9.0", "journals": {"core": 1, "achtung_panzer": 7}})
    )
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", str(newer), "--create-club", "--create-people")
    assert error.value.returncode == 2
    assert str(error.value) == (
        "journals.achtung_panzer: Written by Muster 0.9.0 with journal achtung_panzer v7; this site runs Muster "
        f"{versions.release()}, which reads up to v6. Upgrade Muster on this site (docs/operations.md) before "
        "replaying this file."
    )
    assert not Campaign.objects.exists() and not Club.objects.exists()


def test_every_game_of_the_site_has_a_corpus_player_that_plays_its_journals():
    """make_corpus.py makes a game's journals again with its own corpus player: each journal of a
    game's corpus is one its player plays, and TODAY names those the working tree plays."""
    from . import players
    from .values import corpus_modules

    modules = corpus_modules()
    assert corpus.site_games() <= set(modules)
    for directory, name in CASES:
        slug = json.loads((directory / f"{name}.json").read_text())["campaign"]["system"]
        assert name in modules[slug].players(players), (directory, name)
    for slug, module in modules.items():
        assert set(module.TODAY) <= set(module.players(players)), slug
        assert set(module.IN_PLAY) <= set(module.TODAY), slug


def test_a_file_from_before_versions_that_fits_none_names_the_refusal_where_it_got_furthest(
    tmp_path,
):
    """Muster 0.1.0's file (A!P! v3, no `journals`) with a purchase its CPP never paid for: read as
    v3 it gets to that purchase; read as today's v6 it stops long before, at a rule v3 did not have.
    The refusal named is v3's, with the version, so the person learns what is wrong with the file."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    document = json.loads((AP / "v0.1.0" / "ap-cg1-table.json").read_text())
    assert "journals" not in document
    bought = next(e for e in document["events"] if e["seq"] == 161)
    assert bought["kind"] == "ap.purchase" and bought["data"] == {"action": "buy", "rg": "T1"}
    bought["data"] = {"action": "buy", "rg": "I2"}
    path = tmp_path / "overspent.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", str(path), "--create-club", "--create-people")
    assert error.value.returncode == 2
    assert str(error.value) == (
        "events[160].data.rg: A file from before journal versions fits none of the versions this Muster "
        "can read it as (achtung_panzer journal v3, v2, v1, today's "
        f"v{get_system('achtung_panzer').journal_version}). Read as achtung_panzer v3, it got "
        f"furthest: to event 161 of {len(document['events'])}, where it stops: (ap.purchase) I2 1st Line: "
        "costs 7 CPP, 2 CPP available (1.619). Replay it with the Muster release that wrote it, or correct "
        "that event."
    )
    assert not Campaign.objects.exists() and not Club.objects.exists()
