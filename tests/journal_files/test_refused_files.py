"""Journal files are checked, never trusted.

Each bad file exits with code 2, names what is wrong, and writes nothing: where an event is
filed (audience, side) follows from its kind and the rules, times are sane, people and clubs
are found or made only as the operator says (and recorded in the club log), and files that
are too large, too deep or not UTF-8 are refused like any other."""

import copy
import io
import json
import tempfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.models import Campaign, Club, ClubLogEntry, Event
from campaigns.services import journal_files
from campaigns.services.journal import submit
from tests.journal.test_the_journal_is_the_truth import _play_round

FRESH = ("--create-club", "--create-people")


@pytest.fixture
def exported(skirmish, people):
    """A played Skirmish round with secret rolls, a purchase and an undone secret step;
    exported, then the database emptied (people, clubs and campaigns)."""
    _play_round(skirmish, people, 3, 1)
    supply = submit(skirmish, people["alice"], "skirmish.supply").events[0]
    proposal = submit(
        skirmish, people["alice"], "proposal.made", {"action": "undo", "target": str(supply.uid)}
    )
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(proposal.events[0].uid)})
    document = journal_files.export_journal(skirmish)
    Campaign.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    return document


def _write(document) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(document, handle)
    handle.close()
    return handle.name


def _refused(path, *args) -> str:
    with pytest.raises(CommandError) as error:
        call_command("replay_campaign", path, *args, stdout=io.StringIO())
    assert error.value.returncode == 2
    assert Campaign.objects.count() == 0 and Event.objects.count() == 0
    return str(error.value)


def _index(document, kind, **match):
    return next(
        i
        for i, e in enumerate(document["events"])
        if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())
    )


def test_the_clean_file_replays(exported):
    call_command("replay_campaign", _write(exported), *FRESH, stdout=io.StringIO())
    assert journal_files.export_journal(Campaign.objects.get()) == exported


@pytest.mark.parametrize(
    "change,field",
    [
        # A side's secret step made public, or filed under the other side:
        (
            lambda d: d["events"][_index(d, "skirmish.supply", side="red")].update(
                audience="public"
            ),
            "audience",
        ),
        (
            lambda d: d["events"][_index(d, "skirmish.supply", side="red")].update(side="blue"),
            "side",
        ),
        # A secret roll made public, or moved to the other side:
        (
            lambda d: d["events"][_index(d, "dice.rolled", side="red")].update(
                audience="public", side=""
            ),
            "side",
        ),
        (lambda d: d["events"][_index(d, "dice.rolled", side="red")].update(side="blue"), "side"),
        (
            lambda d: d["events"][_index(d, "dice.rolled", side="red")].update(audience="public"),
            "audience",
        ),
        # A public result made private to a side, or a referee's step hidden from the club:
        (lambda d: d["events"][_index(d, "result.submitted")].update(audience="side"), "audience"),
        (
            lambda d: d["events"][_index(d, "referee.assigned")].update(audience="referee"),
            "audience",
        ),
        # The proposal to undo red's secret step is as private as the step:
        (lambda d: d["events"][_index(d, "proposal.made")].update(audience="public"), "audience"),
    ],
)
def test_audience_and_side_follow_from_the_kind_and_the_rules(exported, change, field):
    document = copy.deepcopy(exported)
    change(document)
    message = _refused(_write(document), *FRESH)
    assert message.startswith("events[") and f"].{field}:" in message.split(" ")[0], message


def test_an_undone_secret_roll_is_still_held_to_its_side(exported):
    """The last supply roll was undone: the journal no longer uses it, yet it stays red's."""
    document = copy.deepcopy(exported)
    last = max(
        i
        for i, e in enumerate(document["events"])
        if e["kind"] == "dice.rolled" and e["side"] == "red"
    )
    document["events"][last].update(side="", audience="public")
    assert _refused(_write(document), *FRESH).startswith(f"events[{last}].side")


def test_a_roll_no_step_makes_is_refused(exported):
    document = copy.deepcopy(exported)
    extra = {
        **document["events"][-1],
        "seq": len(document["events"]) + 1,
        "uid": None,
        "kind": "dice.rolled",
        "side": "",
        "audience": "public",
        "actor": "olga",
        "data": {"key": "9/made/up", "expr": "1d6", "dice": [6], "source": "server"},
    }
    document["events"].append(extra)
    assert _refused(_write(document), *FRESH) == (
        f"events[{len(document['events']) - 1}].data.key: (dice.rolled 9/made/up) No step of this "
        "journal rolls this die."
    )
    # From before versions, it gets no further as any version: the roll is where every one stops.
    total = len(document["events"])
    message = _refused(_write(_unversioned(document)), *FRESH)
    assert message.startswith(f"events[{total - 1}].data.key: A file from before journal versions")
    assert message.endswith(
        f"it got furthest: to event {total} of {total}, where it stops: (dice.rolled 9/made/up) No "
        "step of this journal rolls this die. Replay it with the Muster release that wrote it, or "
        "correct that event."
    )


@pytest.mark.parametrize(
    "when,why",
    [
        ("1999-05-01T12:00:00+00:00", "Before 2020"),
        ("2999-05-01T12:00:00+00:00", "In the future"),
    ],
)
def test_times_are_sane(exported, when, why):
    document = copy.deepcopy(exported)
    document["events"][3]["at"] = when
    message = _refused(_write(document), *FRESH)
    assert message.startswith("events[3].at") and why in message


def test_a_time_before_the_campaigns_creation_is_refused(exported):
    document = copy.deepcopy(exported)
    document["events"][5]["at"] = "2021-01-01T00:00:00+00:00"
    assert _refused(_write(document), *FRESH).startswith("events[5].at")


def test_unknown_people_are_refused_unless_the_operator_creates_them(exported):
    message = _refused(_write(exported), "--create-club")
    assert message.startswith("people:") and "--create-people" in message
    assert get_user_model().objects.count() == 0


def test_the_club_is_created_only_when_the_operator_says(exported):
    assert "--create-club" in _refused(_write(exported), "--create-people")
    assert Club.objects.count() == 0


def test_a_same_named_club_and_person_are_never_assumed(exported, db):
    """The attack: the file's created_by is someone of another club, and a club with the
    file's slug exists here: he must not silently become a member of it."""
    from tests.factories import ClubFactory, MembershipFactory, UserFactory

    tuesday = ClubFactory(slug="tuesday", name="Tuesday here")
    MembershipFactory(club=tuesday, user=UserFactory(username="alice"))
    UserFactory(username="olga")  # a person of this site, in no club of the journal
    assert "--club tuesday" in _refused(_write(exported), *FRESH)  # the slug alone proves nothing
    message = _refused(_write(exported), "--club", "tuesday", "--create-people")
    assert "'olga' is a person of this site but not a member of Tuesday here" in message
    assert set(tuesday.memberships.values_list("user__username", flat=True)) == {"alice"}
    assert not ClubLogEntry.objects.filter(club=tuesday).exists()


def test_every_person_and_club_made_is_in_the_club_log(exported):
    from tests.factories import UserFactory

    UserFactory(username="olga2")
    call_command(
        "replay_campaign",
        _write(exported),
        "--create-club",
        "--create-people",
        "--map",
        "olga=olga2",
        stdout=io.StringIO(),
    )
    club = Club.objects.get(slug="tuesday")
    log = {(e.action, e.detail.get("username"), e.detail.get("new_person")) for e in club.log.all()}
    assert ("club.created", None, None) in log
    assert {("member.added", name, True) for name in ("alice", "bob", "rita")} <= log
    assert (
        "member.added",
        "olga2",
        None,
    ) not in log  # the founder: the club's organizer from its creation
    assert club.log.get(action="club.created").detail["organizer"] == "olga2"
    assert club.log.filter(action="campaign.replayed").count() == 1
    assert all(e.actor is None and e.detail["by"] == "operator" for e in club.log.all())


def test_a_map_to_nobody_is_refused(exported):
    assert _refused(_write(exported), *FRESH, "--map", "alice=nobody").startswith("map:")


def test_a_deeply_nested_file_exits_2(db):
    assert _refused(_write_text("[" * 100_000 + "]" * 100_000)).startswith("file:")
    nested = 1
    for _ in range(80):  # under the stack's limit, over the journal's (64 levels)
        nested = [nested]
    assert "nested too deeply" in _refused(_write_text(json.dumps({"events": nested})))


def test_a_file_that_is_not_utf8_exits_2(db):
    path = _write_text("")
    with open(path, "wb") as handle:
        handle.write(b'{"format": "muster.journal", "name": "\xff\xfe"}')
    assert "Not UTF-8" in _refused(path)


def test_a_file_over_the_size_limit_is_refused_before_parsing(exported, settings, monkeypatch):
    settings.MUSTER_JOURNAL_MAX_BYTES = 1000
    monkeypatch.setattr(
        journal_files, "parse_json", lambda *a, **k: pytest.fail("parsed a file over the limit")
    )
    assert "Larger than" in _refused(_write(exported), *FRESH)


def test_an_events_data_in_a_file_is_bounded(exported):
    document = copy.deepcopy(exported)
    at = _index(document, "result.submitted")
    document["events"][at]["data"]["data"]["red"] = "\x00" * 3
    assert _refused(_write(document), *FRESH).startswith(f"events[{at}].data")


def _write_text(text: str) -> str:
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    handle.write(text)
    handle.close()
    return handle.name


def _unversioned(document):
    """The file as Muster 0.1.0 wrote it: no `journals`, no `muster`."""
    return {k: v for k, v in document.items() if k not in ("journals", "muster")}


def _bad_time(document):
    document["events"][3]["at"] = "2999-05-01T12:00:00+00:00"


def _bad_text(document):
    document["events"][_index(document, "result.submitted")]["data"]["data"]["red"] = "\x00" * 3


@pytest.mark.parametrize(
    "change,args,starts",
    [
        (lambda d: None, ("--create-club",), "people: "),  # who is who: only as the operator says
        (_bad_time, FRESH, "events[3].at: In the future."),
        (_bad_text, FRESH, "events["),  # an event's data out of its bounds
    ],
)
def test_a_file_from_before_versions_refused_for_what_is_not_its_version_says_only_that(
    exported, change, args, starts
):
    """Versions are tried only for the rules; a fault of the file itself is named as it is."""
    document = _unversioned(copy.deepcopy(exported))
    change(document)
    message = _refused(_write(document), *args)
    assert message.startswith(starts) and "version" not in message, message


def test_a_file_from_before_versions_that_is_not_json_says_only_that(db):
    message = _refused(_write_text('{"format": "muster.journal", "events": [}'))
    assert message == "file: Not valid JSON (line 1: Expecting value)."
