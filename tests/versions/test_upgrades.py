"""Journal upgrades (campaigns.versions) with Drill, a game whose journal went through three
versions (tests/versions/drill): a file or a stored campaign of an earlier version is carried to
today's, the upgrade is recorded in the journal, references still name the same events, a file
from a newer Muster is refused, and a rule changed the "fold" way keeps old events' rule."""

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from campaigns import versions
from campaigns.errors import DomainError
from campaigns.models import Campaign, Club, Event, JournalArchive
from campaigns.services import campaigns as svc, journal_files
from campaigns.services.journal import submit
from campaigns.services.state import current_state

pytestmark = pytest.mark.django_db


def drill(version: int):
    return override_settings(
        MUSTER_EXTRA_SYSTEMS=["tests.testsystem", f"tests.versions.drill.v{version}.App"]
    )


def _start(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="drill", variant="two", name="Drill war"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    submit(campaign, olga, "campaign.started")
    return campaign


def _uid(campaign, kind, **data):
    events = campaign.events.filter(kind=kind).order_by("seq")
    return str(next(e for e in events if all(e.data.get(k) == v for k, v in data.items())).uid)


def played_under_v1(club, people):
    """Round 1 under v1: orders, a corrected order (proposal approved), a result; round 2's orders."""
    with drill(1):
        campaign = _start(club, people)
        submit(campaign, people["alice"], "drill.orders", {"units": 3})
        submit(campaign, people["bob"], "drill.orders", {"units": 8})
        target = _uid(campaign, "drill.orders", units=8)
        made = submit(
            campaign,
            people["bob"],
            "proposal.made",
            {"action": "correct", "target": target, "data": {"units": 7}},
        ).events[0]
        submit(campaign, people["alice"], "proposal.approved", {"proposal": str(made.uid)})
        submit(
            campaign,
            people["alice"],
            "result.submitted",
            {"scenario": 0, "data": {"winner": "red"}},
        )
        submit(campaign, people["bob"], "result.confirmed", {"scenario": 0})
        submit(campaign, people["alice"], "drill.orders", {"units": 2})
        campaign.refresh_from_db()
        assert campaign.journal_versions == {"core": versions.CORE_VERSION, "drill": 1}
        return campaign, journal_files.export_journal(campaign)


def _wipe():
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def _write(tmp_path, document) -> str:
    path = tmp_path / "journal.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_a_file_says_the_versions_and_the_release_it_was_written_under(club, people):
    _, exported = played_under_v1(club, people)
    assert (
        exported["version"] == journal_files.VERSION == 1
    )  # the file format's own version, separate
    assert exported["journals"] == {"core": versions.CORE_VERSION, "drill": 1}
    assert exported["muster"] == versions.release()


def test_an_older_file_is_upgraded_on_replay_and_says_so(club, people, tmp_path):
    _, exported = played_under_v1(club, people)
    _wipe()
    with drill(2):
        out, err = io.StringIO(), io.StringIO()
        call_command(
            "replay_campaign",
            _write(tmp_path, exported),
            "--create-club",
            "--create-people",
            stdout=out,
            stderr=err,
        )
        assert err.getvalue().strip() == (
            "Journal written by Muster journal drill v1; upgraded to v2: v1→v2: orders count troops; each side "
            "musters before a result (2 events added, 4 events rewritten)."
        )
        campaign = Campaign.objects.get()
        assert campaign.journal_versions == {"core": versions.CORE_VERSION, "drill": 2}
        events = list(campaign.events.order_by("seq"))
        kinds = [e.kind for e in events]
        # A muster for each side inserted before the result, filed under its side, by its player.
        at = kinds.index("result.submitted")
        assert kinds[at - 2 : at] == ["drill.muster", "drill.muster"]
        assert [(e.side, e.audience, e.actor.username, e.data) for e in events[at - 2 : at]] == [
            ("red", "side", "alice", {"troops": 3}),
            ("blue", "side", "bob", {"troops": 7}),
        ]
        # Every old event keeps its uid; the correction still names the order it corrected.
        assert {e["uid"] for e in exported["events"]} <= {str(e.uid) for e in events}
        made = next(e for e in events if e.kind == "proposal.made")
        target = next(e for e in events if e.seq == made.data["target"])
        assert target.kind == "drill.orders" and target.data == {"troops": 8}
        assert made.data["data"] == {"troops": 7}  # the correction's data reshaped too
        for kind in ("proposal.approved", "proposal.applied"):
            answer = next(e for e in events if e.kind == kind)
            assert answer.data["proposal"] == made.seq
        # Recorded in the journal: one public note, one per side listing that side's events.
        notes = [e for e in events if e.kind == "journal.upgraded"]
        assert [(n.audience, n.side) for n in notes] == [
            ("public", ""),
            ("side", "red"),
            ("side", "blue"),
        ]
        assert notes[0].data == {
            "journal": "drill",
            "from": 1,
            "to": 2,
            "step": "drill-muster-before-results",
            "how": "rewrite",
            "release": versions.release(),
            "events": [],
            "count": 0,
            "dropped": [],
        }
        red = [e for e in events if e.side == "red" and e.kind in ("drill.muster", "drill.orders")]
        assert set(notes[1].data["events"]) == {str(e.uid) for e in red}
        state = current_state(campaign)
        assert [state["game"]["sides"][s]["troops"] for s in ("red", "blue")] == [5, 7]
        assert state["journals"] == {"core": versions.CORE_VERSION, "drill": 2}
        # The upgraded journal is today's: export -> replay -> export is identical, nothing upgraded again.
        again = journal_files.export_journal(campaign)
        assert again["journals"] == {"core": versions.CORE_VERSION, "drill": 2}
        _wipe()
        replayed = journal_files.replay_journal(again, create_club=True, create_people=True)
        assert not replayed.upgraded.ran
        assert journal_files.export_journal(replayed.campaign) == again


def test_the_upgrade_is_in_every_readers_history_in_words(club, people):
    _, exported = played_under_v1(club, people)
    _wipe()
    from campaigns.access import visibility
    from campaigns.selectors.history import history

    with drill(2):
        campaign = journal_files.replay(exported, create_club=True, create_people=True)
        bob = get_user_model().objects.get(username="bob")
        texts = [
            e.text
            for e in history(campaign, visibility.viewer_for(bob, campaign))
            if e.kind == "journal.upgraded"
        ]
    assert texts == [
        f"Muster {versions.release()} upgraded this journal: Drill, version 1 to 2: orders count troops; each side "
        "musters before a result",
        f"Blue: Muster {versions.release()} upgraded this journal: Drill, version 1 to 2: orders count troops; "
        "each side musters before a result (3 events here)",  # its order, its muster, its correction
    ]


def test_a_file_from_before_versions_is_read_as_the_version_it_fits(club, people):
    _, exported = played_under_v1(club, people)
    _wipe()
    unversioned = {k: v for k, v in exported.items() if k not in ("journals", "muster")}
    with drill(2):
        replayed = journal_files.replay_journal(unversioned, create_club=True, create_people=True)
    assert replayed.upgraded.detected and replayed.upgraded.start == {
        "core": versions.CORE_VERSION_BEFORE_VERSIONS,
        "drill": 1,
    }
    assert "a file from before journal versions" in replayed.upgraded.summary()


def test_a_file_from_a_newer_muster_is_refused_and_nothing_is_written(club, people, tmp_path):
    _, exported = played_under_v1(club, people)
    newer = {**exported, "journals": {"core": versions.CORE_VERSION, "drill": 4}, "muster": "9.0.0"}
    _wipe()
    with drill(2):
        with pytest.raises(CommandError) as error:
            call_command(
                "replay_campaign", _write(tmp_path, newer), "--create-club", "--create-people"
            )
    assert error.value.returncode == 2
    assert str(error.value) == (
        f"journals.drill: Written by Muster 9.0.0 with journal drill v4; this site runs Muster {versions.release()}, "
        "which reads up to v2. Upgrade Muster on this site (docs/operations.md) before replaying this file."
    )
    assert not Campaign.objects.exists() and not Club.objects.exists()


def test_a_file_whose_upgraded_journal_is_newer_than_its_header_is_refused(club, people):
    _, exported = played_under_v1(club, people)
    forged = copy.deepcopy(exported)
    forged["events"].append(
        {
            **forged["events"][-1],
            "seq": len(forged["events"]) + 1,
            "uid": "0b3c3d1e-3a56-4a0e-9d0e-1a2b3c4d5e6f",
            "kind": "journal.upgraded",
            "side": "",
            "audience": "public",
            "actor": "olga",
            "data": {
                "journal": "drill",
                "from": 2,
                "to": 3,
                "step": "x",
                "how": "rewrite",
                "release": "9",
            },
        }
    )
    _wipe()
    with drill(2), pytest.raises(DomainError) as error:
        journal_files.replay(forged, create_club=True, create_people=True)
    assert "newer Muster" in error.value.message


def test_a_journal_no_upgrade_carries_is_refused_naming_the_version(club, people):
    _, exported = played_under_v1(club, people)
    _wipe()
    with drill(2):
        from campaigns.systems import get_system

        system = get_system("drill")
        steps = system.journal_upgrades
        try:
            type(system).journal_upgrades = ()
            with pytest.raises(DomainError) as error:
                journal_files.replay(exported, create_club=True, create_people=True)
        finally:
            type(system).journal_upgrades = steps
    assert error.value.field == "journals.drill"
    assert error.value.message.startswith(
        f"Written with journal drill v1, which no upgrade in Muster "
        f"{versions.release()} carries (it reads drill v2 to v2)."
    )


def test_dry_run_says_what_would_be_written_and_writes_nothing(club, people, tmp_path):
    _, exported = played_under_v1(club, people)
    _wipe()
    with drill(2):
        out = io.StringIO()
        call_command(
            "replay_campaign",
            _write(tmp_path, exported),
            "--create-club",
            "--create-people",
            "--dry-run",
            stdout=out,
        )
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "Would create the campaign “Drill war” (drill, two) into a new club Tuesday Night ASL "
        f"(tuesday), with {len(exported['events']) + 2 + 3} events."
    )
    assert lines[1].startswith("Journal written by Muster journal drill v1; upgraded to v2")
    assert lines[2] == "Would create 4 people without a password: alice, bob, olga, rita."
    assert lines[-1] == "Nothing was written (--dry-run)."
    assert not Campaign.objects.exists() and not Club.objects.exists()


# --- stored campaigns --------------------------------------------------------------------------------


def test_a_stored_campaign_is_upgraded_when_read_and_plays_on(club, people):
    campaign, exported = played_under_v1(club, people)
    before = list(campaign.events.order_by("seq").values_list("uid", "kind", "data"))
    with drill(2):
        state = current_state(Campaign.objects.get(pk=campaign.pk))
        campaign.refresh_from_db()
        assert campaign.journal_versions == {"core": versions.CORE_VERSION, "drill": 2}
        assert campaign.muster_release == versions.release()
        assert state["game"]["sides"]["blue"]["troops"] == 7
        assert campaign.events.filter(kind="drill.muster").count() == 2
        assert campaign.events.filter(kind="journal.upgraded").count() == 3
        # The journal as it was is kept, exactly.
        archive = JournalArchive.objects.get(campaign=campaign)
        assert [(e["uid"], e["kind"], e["data"]) for e in archive.events] == [
            (str(u), k, d) for u, k, d in before
        ]
        assert (
            archive.journal_versions == {"core": versions.CORE_VERSION, "drill": 1}
            and archive.upgraded_by == versions.release()
        )
        assert archive.summary.startswith("written by Muster journal drill v1; upgraded to v2")
        # It plays on under v2: round 2 needs the musters, then a result.
        with pytest.raises(DomainError, match="Muster first"):
            submit(
                campaign,
                people["alice"],
                "result.submitted",
                {"scenario": 1, "data": {"winner": "red"}},
            )
        submit(campaign, people["alice"], "drill.muster", {"troops": 5})
        submit(campaign, people["bob"], "drill.muster", {"troops": 7})
        submit(
            campaign,
            people["alice"],
            "result.submitted",
            {"scenario": 1, "data": {"winner": "blue"}},
        )
        submit(campaign, people["bob"], "result.confirmed", {"scenario": 1})
        assert current_state(campaign)["status"] == "finished"
        # Its export replays as it is.
        exported = journal_files.export_journal(campaign)
        _wipe()
        assert not journal_files.replay_journal(
            exported, create_club=True, create_people=True
        ).upgraded.ran


def test_migrate_and_upgrade_journals_upgrade_every_stored_campaign(club, people):
    campaign, _ = played_under_v1(club, people)
    Campaign.objects.filter(pk=campaign.pk).update(
        journal_versions=None, muster_release=""
    )  # stored by 0.1.0
    with drill(2):
        out = io.StringIO()
        call_command("upgrade_journals", "--dry-run", stdout=out)
        assert out.getvalue().startswith(
            f"Campaign {campaign.pk} “Drill war” (tuesday) would be upgraded: written "
            "by Muster journal drill v1 (a file from before journal versions)"
        )
        assert Campaign.objects.get(pk=campaign.pk).journal_versions is None
        out = io.StringIO()
        call_command("migrate", verbosity=1, stdout=out)
        assert (
            f"Campaign {campaign.pk} “Drill war” (tuesday) upgraded: written by Muster journal drill v1"
            in out.getvalue()
        )
        assert Campaign.objects.get(pk=campaign.pk).journal_versions == {
            "core": versions.CORE_VERSION,
            "drill": 2,
        }
        out = io.StringIO()
        call_command("upgrade_journals", stdout=out)
        assert out.getvalue() == "Every campaign is at today's journal versions.\n"


def test_a_stored_campaign_no_upgrade_carries_keeps_its_state_and_is_reported(club, people):
    campaign, _ = played_under_v1(club, people)
    Event.objects.filter(campaign=campaign, kind="drill.orders").update(
        data={"men": 1}
    )  # no Muster wrote this
    with drill(2):
        err = io.StringIO()
        with pytest.raises(CommandError) as error:
            call_command("upgrade_journals", stderr=err)
        assert error.value.returncode == 2
        assert f"Campaign {campaign.pk} “Drill war” (tuesday): NOT upgraded: " in err.getvalue()
        stored = Campaign.objects.get(pk=campaign.pk)
        assert stored.journal_versions == {"core": versions.CORE_VERSION, "drill": 1}
        assert (
            current_state(stored)["game"]["sides"]["blue"]["troops"] == 7
        )  # the stored state, still read
        assert not JournalArchive.objects.exists()


# --- the "fold" way ---------------------------------------------------------------------------------


def test_a_rule_changed_the_fold_way_keeps_old_events_under_their_rule(club, people, tmp_path):
    with drill(2):
        campaign = _start(club, people)
        submit(campaign, people["bob"], "drill.orders", {"troops": 8})
        exported = journal_files.export_journal(campaign)
    with drill(3):
        state = current_state(Campaign.objects.get(pk=campaign.pk))
        campaign.refresh_from_db()
        assert state["game"]["sides"]["blue"]["troops"] == 8  # written under v2: the limit was 10
        marker = campaign.events.get(kind="journal.upgraded")
        assert marker.data["how"] == "fold" and marker.data["from"] == 2
        assert marker.seq == campaign.last_seq  # from here on, v3
        assert (
            JournalArchive.objects.count() == 1
        )  # nothing rewritten, but the note is still archived with it
        with pytest.raises(DomainError, match="At most 5 troops"):
            submit(campaign, people["bob"], "drill.orders", {"troops": 8})
        submit(campaign, people["bob"], "drill.orders", {"troops": 5})
        assert current_state(campaign)["game"]["sides"]["blue"]["troops"] == 13
        # A correction folds the whole journal again: the old order still keeps its old rule.
        target = _uid(campaign, "drill.orders", troops=8)
        made = submit(
            campaign,
            people["bob"],
            "proposal.made",
            {"action": "correct", "target": target, "data": {"troops": 9}},
        ).events[0]
        submit(campaign, people["alice"], "proposal.approved", {"proposal": str(made.uid)})
        assert current_state(campaign)["game"]["sides"]["blue"]["troops"] == 14
        # The same file replayed today: the marker goes at its end, its order keeps the old rule.
        _wipe()
        replayed = journal_files.replay_journal(exported, create_club=True, create_people=True)
        assert [r.text() for r in replayed.upgraded.ran] == [
            "v2→v3: at most 5 troops per order (earlier events keep the rules they were written under)"
        ]
        assert current_state(replayed.campaign)["game"]["sides"]["blue"]["troops"] == 8


def test_a_file_from_before_versions_that_fits_no_version_is_refused_saying_so(club, people):
    _, exported = played_under_v1(club, people)
    _wipe()
    unversioned = {k: v for k, v in exported.items() if k not in ("journals", "muster")}
    orders = next(e for e in unversioned["events"] if e["kind"] == "drill.orders")
    orders["data"] = {"units": 3, "men": 2}  # no version of Drill wrote this
    with drill(2), pytest.raises(DomainError) as error:
        journal_files.replay(unversioned, create_club=True, create_people=True)
    # Read as v1 or as today's, it stops at these orders: v1's refusal is named (the version it
    # would be read as had they fit), its "men", not today's "units" (v1's own word for troops).
    assert error.value.field == f"events[{orders['seq'] - 1}].data.men"
    assert error.value.message == (
        "A file from before journal versions fits none of the versions this Muster can read it as "
        f"(drill journal v1, today's v2). Read as drill v1, it got furthest: to event {orders['seq']} "
        f"of {len(unversioned['events'])}, where it stops: (drill.orders) Unknown field. Replay it with "
        "the Muster release that wrote it, or correct that event."
    )


def test_a_file_from_before_versions_is_refused_with_the_refusal_of_the_version_it_got_furthest_under(
    club, people, tmp_path
):
    """Read as today's v2, the v1 orders stop it at the first of them; read as v1 (the version it
    was written under), it gets to its last event, whose order no version allows: that refusal is
    the one named, with the version, in every door that replays a file."""
    _, exported = played_under_v1(club, people)
    _wipe()
    unversioned = {k: v for k, v in exported.items() if k not in ("journals", "muster")}
    last = unversioned["events"][-1]
    assert last["kind"] == "drill.orders"
    last["data"] = {"units": 11}  # v1 allowed 1 to 10, as every later version does
    total = len(unversioned["events"])
    with drill(2):
        with pytest.raises(CommandError) as error:
            call_command(
                "replay_campaign",
                _write(tmp_path, unversioned),
                "--create-club",
                "--create-people",
                stdout=io.StringIO(),
            )
        assert error.value.returncode == 2
        assert str(error.value) == (
            f"events[{total - 1}].data.troops: A file from before journal versions fits none of the "
            "versions this Muster can read it as (drill journal v1, today's v2). Read as drill v1, "
            f"it got furthest: to event {total} of {total}, where it stops: (drill.orders) Must be at most 10. "
            "Replay it with the Muster release that wrote it, or correct that event."
        )
        with pytest.raises(DomainError) as dry:  # --dry-run and a club's archive say the same
            journal_files.plan_replay(unversioned, create_club=True, create_people=True)
        assert f"{dry.value.field}: {dry.value.message}" == str(error.value)
    assert not Campaign.objects.exists() and not Club.objects.exists()


def test_a_stored_campaign_from_before_versions_that_fits_none_is_reported_where_it_got_furthest(
    club, people
):
    campaign, _ = played_under_v1(club, people)
    Campaign.objects.filter(pk=campaign.pk).update(journal_versions=None, muster_release="")
    last = campaign.events.order_by("seq").last()
    assert last.kind == "drill.orders"
    Event.objects.filter(pk=last.pk).update(data={"units": 11})  # no version allows it
    with drill(2):
        err = io.StringIO()
        with pytest.raises(CommandError):
            call_command("upgrade_journals", stderr=err)
    assert err.getvalue() == (
        f"Campaign {campaign.pk} “Drill war” (tuesday): NOT upgraded: events[{last.seq}].troops: A journal "
        "from before journal versions fits none of the versions this Muster can read it as (drill journal "
        f"v1, today's v2). Read as drill v1, it got furthest: to event {last.seq} of {last.seq}, where it "
        "stops: Must be at most 10.\n"
    )


def test_events_before_an_upgrade_marker_fold_under_the_version_they_were_written_under():
    """A "rewrite" step's marker says so as a "fold" step's does (the first marker of a journal gives
    its start): a rule a rewrite cannot carry keeps the old one for them (A!P! v1's 1.6142)."""
    from campaigns.journal.records import Record

    def marker(seq, journal, start, how):
        data = {"journal": journal, "from": start, "to": start + 1, "how": how}
        return Record(seq, versions.UPGRADED, data, "olga")

    old = [Record(1, "campaign.created", {}, "olga"), Record(2, "drill.orders", {}, "alice")]
    rewritten = [marker(3, "drill", 1, "rewrite"), marker(4, "drill", 2, "fold")]
    assert versions.start_versions(old + rewritten) == {"drill": 1}
    assert versions.start_versions(old + [marker(3, "core", 1, "fold")]) == {"core": 1}
    assert versions.start_versions(old) == {}
    assert versions.start_versions(old, {"drill": 1}) == {"drill": 1}
