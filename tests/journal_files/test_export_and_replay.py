"""Journal files: export -> replay into an empty database -> export is identical;
malformed journals are refused with the event and field named, writing nothing."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.models import Campaign, Club, Event
from campaigns.services import journal_files
from campaigns.services.journal import submit
from tests.journal.test_the_journal_is_the_truth import _play_round


@pytest.fixture
def played(skirmish, people):
    _play_round(skirmish, people, 3, 1)
    first = Event.objects.get(kind="result.submitted", data__scenario=0)
    proposal = submit(
        skirmish,
        people["alice"],
        "proposal.made",
        {
            "action": "correct",
            "target": str(first.uid),
            "data": {"scenario": 0, "data": {"red": 1, "blue": 3}},
        },
    )
    submit(skirmish, people["bob"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    submit(skirmish, people["alice"], "skirmish.supply")
    return skirmish


def _wipe():
    from django.contrib.auth import get_user_model

    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def test_export_replay_export_is_identical(played):
    exported = journal_files.export_journal(played)
    state_before = journal_files.full_state(played)
    _wipe()
    out = io.StringIO()
    path = _write(exported)
    call_command("replay_campaign", path, "--create-club", "--create-people", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["state"] == state_before
    again = Campaign.objects.get()
    assert journal_files.export_journal(again) == exported
    assert again.club.slug == "tuesday"
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.get(username="alice").has_usable_password()


def _write(document):
    import tempfile

    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(document, handle)
    handle.close()
    return handle.name


def test_export_command_writes_the_journal(played):
    out = io.StringIO()
    call_command("export_campaign", str(played.pk), stdout=out)
    assert json.loads(out.getvalue()) == journal_files.export_journal(played)


def test_side_export_holds_only_that_side(played, people):
    red = journal_files.export_journal(played, _viewer(played, people["alice"]))
    blue = journal_files.export_journal(played, _viewer(played, people["bob"]))
    assert red["scope"] == "side:red" and blue["scope"] == "side:blue"
    assert all("seq" not in e for e in blue["events"])
    assert all(e["audience"] == "public" or e["side"] == "blue" for e in blue["events"])
    assert any(e["kind"] == "skirmish.supply" for e in red["events"])
    assert not any(e["kind"] == "skirmish.supply" and e["side"] == "red" for e in blue["events"])
    assert not any(e["kind"] == "dice.rolled" and e["side"] == "red" for e in blue["events"])
    # References to other events are uids, never sequence numbers:
    approvals = [e for e in blue["events"] if e["kind"] == "proposal.approved"]
    assert approvals and all(isinstance(e["data"]["proposal"], str) for e in approvals)
    with pytest.raises(Exception):  # noqa: B017 - whichever refusal: a side's file is no full journal
        journal_files.parse_journal(blue)


def _viewer(campaign, user):
    from campaigns.access import visibility

    return visibility.viewer_for(user, campaign)


def test_export_as_a_player_on_the_command_line(played):
    out = io.StringIO()
    call_command("export_campaign", str(played.pk), "--as", "bob", stdout=out)
    assert json.loads(out.getvalue())["scope"] == "side:blue"
    with pytest.raises(CommandError) as error:
        call_command("export_campaign", str(played.pk), "--as", "outsider")
    assert error.value.returncode == 2


def test_organizer_full_export_needs_every_side(played, people):
    olga = _viewer(played, people["olga"])  # olga plays red
    assert journal_files.export_journal(played, olga)["scope"] == "side:red"
    proposal = submit(played, people["olga"], "proposal.made", {"action": "export"})
    submit(played, people["bob"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    assert journal_files.export_journal(played, olga)["scope"] == "full"


def test_the_referees_approval_does_not_open_a_full_export(played, people):
    """Olga (organizer, plays red) proposes a full export and the referee
    alone approves. Blue's secrets are blue's: the export stays red's own until blue agrees."""
    from campaigns.errors import DomainError

    olga = _viewer(played, people["olga"])
    proposal = submit(played, people["olga"], "proposal.made", {"action": "export"}).events[0]
    with pytest.raises(DomainError) as error:
        submit(played, people["rita"], "proposal.approved", {"proposal": str(proposal.uid)})
    assert error.value.field == "proposal"
    assert journal_files.export_journal(played, olga)["scope"] == "side:red"
    assert not Event.objects.filter(kind="proposal.applied", data__proposal=proposal.seq).exists()


def test_a_referees_export_proposal_needs_every_side(played, people):
    rita_proposal = submit(played, people["rita"], "proposal.made", {"action": "export"}).events[0]
    olga = _viewer(played, people["olga"])
    assert journal_files.export_journal(played, olga)["scope"] == "side:red"
    submit(played, people["alice"], "proposal.approved", {"proposal": str(rita_proposal.uid)})
    assert (
        journal_files.export_journal(played, olga)["scope"] == "side:red"
    )  # blue has not agreed yet
    submit(played, people["bob"], "proposal.approved", {"proposal": str(rita_proposal.uid)})
    assert journal_files.export_journal(played, olga)["scope"] == "full"


def test_an_agreed_export_covers_the_journal_as_it_was_when_agreed(played, people):
    proposal = submit(played, people["olga"], "proposal.made", {"action": "export"}).events[0]
    submit(played, people["bob"], "proposal.approved", {"proposal": str(proposal.uid)})
    applied = Event.objects.get(kind="proposal.applied", data__proposal=proposal.seq)
    later = submit(
        played, people["bob"], "skirmish.supply"
    ).events  # blue's secret, after the agreement
    exported = journal_files.export_journal(played, _viewer(played, people["olga"]))
    assert exported["scope"] == "full" and exported["events"][-1]["seq"] == applied.seq
    assert not {str(e.uid) for e in later} & {e["uid"] for e in exported["events"]}
    # The referee (who sees everything anyway) and the operator get the whole journal.
    assert journal_files.export_journal(played, _viewer(played, people["rita"]))["events"][-1][
        "uid"
    ] == str(later[-1].uid)
    assert journal_files.export_journal(played)["events"][-1]["uid"] == str(later[-1].uid)


@pytest.mark.parametrize(
    "mutate,field",
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d["events"][3].update(seq=9), "events[3].seq"),
        (lambda d: d["events"][2].pop("kind"), "events[2].kind"),
        (lambda d: d["events"][2].update(at="yesterday"), "events[2].at"),
        (lambda d: d["events"][2].update(colour="red"), "events[2].colour"),
        (lambda d: d["events"][0]["data"].update(variant="nope"), "events[0].data"),
        (lambda d: d["campaign"].pop("system"), "campaign.system"),
    ],
)
def test_malformed_journal_is_refused_naming_the_field(played, mutate, field):
    document = copy.deepcopy(journal_files.export_journal(played))
    mutate(document)
    _wipe()
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(document), "--create-club", "--create-people")
    assert error.value.returncode == 2
    assert str(error.value).startswith(field)
    assert Campaign.objects.count() == 0 and Event.objects.count() == 0


def test_an_event_that_does_not_fit_is_refused_and_nothing_is_written(played):
    document = copy.deepcopy(journal_files.export_journal(played))
    confirm = next(i for i, e in enumerate(document["events"]) if e["kind"] == "result.confirmed")
    document["events"][confirm]["actor"] = "alice"  # red confirming red's own result
    document["events"][confirm]["side"] = "red"
    _wipe()
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(document), "--create-club", "--create-people")
    # The path of the field in the file, as docs/journal.md shows it: events[i].data.<field>.
    assert str(error.value).startswith(f"events[{confirm}].data.scenario")
    from django.contrib.auth import get_user_model

    assert Campaign.objects.count() == 0 and get_user_model().objects.count() == 0


def test_missing_dice_are_reported(played):
    document = copy.deepcopy(journal_files.export_journal(played))
    dice_at = next(i for i, e in enumerate(document["events"]) if e["kind"] == "dice.rolled")
    del document["events"][dice_at]
    for i, event in enumerate(document["events"]):
        event["seq"] = i + 1
    _wipe()
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(document), "--create-club", "--create-people")
    assert "missing from the journal" in str(error.value)


def test_replay_maps_people(played):
    from django.contrib.auth import get_user_model

    document = journal_files.export_journal(played)
    _wipe()
    get_user_model().objects.create_user("alicia", password="x-pass-1234")
    call_command(
        "replay_campaign",
        _write(document),
        "--map",
        "alice=alicia",
        "--create-club",
        "--create-people",
        stdout=io.StringIO(),
    )
    state = journal_files.full_state(Campaign.objects.get())
    assert state["sides"]["red"]["players"] == ["olga", "alicia"]
    assert not get_user_model().objects.filter(username="alice").exists()


def _keyed(document, key_by_index: dict):
    document = copy.deepcopy(document)
    for index, key in key_by_index.items():
        document["events"][index]["idempotency_key"] = key
    return document


def _supply_events(document) -> list[int]:
    return [i for i, e in enumerate(document["events"]) if e["kind"] == "skirmish.supply"]


def test_one_persons_key_twice_in_a_file_is_refused_naming_the_key(played, people):
    """Named as the key it is, not as the database's "same event uids"."""
    document = journal_files.export_journal(played)
    mine = [i for i, e in enumerate(document["events"]) if e["actor"] == "alice"][:2]
    assert len(mine) == 2
    bad = _keyed(document, dict.fromkeys(mine, "alice-step-1"))
    _wipe()
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(bad), "--create-club", "--create-people")
    text = str(error.value)
    assert (
        f"events[{mine[1]}].idempotency_key" in text
        and "'alice-step-1'" in text
        and f"events[{mine[0]}]" in text
    )
    assert "same event uids" not in text
    assert not Campaign.objects.exists()


def test_two_people_may_each_have_used_one_key(played, people):
    """Keys are per person, in a file as in the database."""
    submit(played, people["bob"], "skirmish.supply")
    document = journal_files.export_journal(played)
    alices = next(i for i in _supply_events(document) if document["events"][i]["actor"] == "alice")
    bobs = next(i for i in _supply_events(document) if document["events"][i]["actor"] == "bob")
    keyed = _keyed(document, {alices: "step-1", bobs: "step-1"})
    _wipe()
    campaign = journal_files.replay(keyed, create_club=True, create_people=True)
    assert sorted(
        campaign.events.filter(idempotency_key="step-1").values_list("actor__username", flat=True)
    ) == ["alice", "bob"]
    assert journal_files.export_journal(campaign) == keyed


def test_entered_dice_in_a_server_dice_campaign_are_refused_naming_the_event(played):
    """A file of a campaign whose dice Muster rolls cannot bring dice of its own choosing (they
    would replay as if typed in at the table)."""
    document = copy.deepcopy(journal_files.export_journal(played))
    assert document["events"][0]["data"]["options"]["dice_mode"] == "server"
    index = next(i for i, e in enumerate(document["events"]) if e["kind"] == "dice.rolled")
    document["events"][index]["data"]["source"] = "entered"
    key = document["events"][index]["data"]["key"]
    _wipe()
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(document), "--create-club", "--create-people")
    text = str(error.value)
    assert (
        f"events[{index}].data.source" in text
        and key in text
        and "Muster rolls this campaign's dice" in text
    )
    assert not Campaign.objects.exists()


def test_replaying_twice_into_one_database_is_refused(played):
    document = journal_files.export_journal(played)
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", _write(document), "--club", "tuesday")
    assert "already in this database" in str(error.value)
