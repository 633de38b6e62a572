"""An append writes only what differs between the state before and after it (projections,
rosters, scenarios, positions) without reading the rows or the journal; the rows must stay
exactly what a full comparison of every row would make them."""

import json

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from campaigns.journal import engine
from campaigns.models import Campaign, Snapshot
from campaigns.services import campaigns as svc, projections
from campaigns.services.journal import submit
from campaigns.services.snapshots import difference, stored_state
from campaigns.services.state import current_state, load_records
from campaigns.systems.achtung_panzer.tests.table_play import correct_and_undo, play_cg
from rosters.models import RosterEntry

pytestmark = pytest.mark.django_db
DRILL = ["tests.testsystem", "benchmarks.drill"]


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")]


def assert_nothing_left_to_write(campaign) -> None:
    """A full comparison (every row read) after the incremental writes finds nothing to change,
    and the positions it computes from scratch (the journal read) are the ones stored."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    stored = dict(campaign.positions)
    # The snapshot, written by difference, is the whole journal folded again (the same JSON).
    kept = Snapshot.objects.get(campaign=campaign)
    folded = engine.fold(load_records(campaign))
    assert kept.seq == campaign.last_seq
    whole = stored_state(campaign)
    assert json.dumps(whole, sort_keys=True) == json.dumps(folded, sort_keys=True)
    with CaptureQueriesContext(connection) as queries:
        projections.refresh(campaign, current_state(campaign), public_change=False)
    writes = _writes(queries.captured_queries)
    assert len(writes) == 1 and writes[0].startswith('UPDATE "campaigns_campaign"'), writes
    assert campaign.positions == stored


def test_every_submission_of_a_cg1_half_day_leaves_rows_a_full_comparison_agrees_with(club, people):
    checked = []

    def after(table):
        assert_nothing_left_to_write(table.campaign)
        checked.append(table.campaign.last_seq)

    table = play_cg(club, people, "cg1", "server", half_days=1)
    table.after = after
    correct_and_undo(table)  # changes to the past: the whole journal folded again
    table.by("allied", "note.added", {"scenario": table.state["current"], "text": "Regroup."})
    assert len(checked) >= 2
    assert RosterEntry.objects.filter(campaign=table.campaign).count() > 10


@override_settings(MUSTER_EXTRA_SYSTEMS=DRILL)
def test_many_changed_rows_and_people_changes_are_written_as_a_full_comparison_would(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="drill", variant="short", name="Drill"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    submit(campaign, olga, "campaign.started")
    submit(campaign, people["alice"], "drill.enlist", {"count": 60, "hidden": 10})
    submit(campaign, people["bob"], "drill.enlist", {"count": 60})
    assert_nothing_left_to_write(campaign)
    # A result marking many units lost: more changed rows than one UPDATE each.
    submit(
        campaign,
        people["rita"],
        "result.submitted",
        {"scenario": 0, "data": {"red": 1, "blue": 2, "losses": 40}},
    )
    assert RosterEntry.objects.filter(campaign=campaign, status="lost").count() == 40
    assert_nothing_left_to_write(campaign)
    made = svc.assign_player(
        campaign, olga, side="red", username="carol"
    )  # in play: red or the referee agrees
    submit(campaign, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    svc.assign_referee(campaign, olga, username=None)
    assert_nothing_left_to_write(campaign)
    campaign.refresh_from_db()
    assert campaign.referee is None
    assert {p.user.username for p in campaign.sides.get(slug="red").memberships.all()} == {
        "alice",
        "carol",
    }


@override_settings(MUSTER_EXTRA_SYSTEMS=DRILL)
def test_an_append_reads_neither_the_journal_nor_the_rows(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="drill", variant="short", name="Drill"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    submit(campaign, people["alice"], "drill.enlist", {"count": 30})
    for n in range(5):
        submit(campaign, people["alice"], "drill.train", {"unit": n})
    with CaptureQueriesContext(connection) as queries:
        submit(campaign, people["alice"], "drill.train", {"unit": 7})
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    journal = [
        sql for sql in reads if 'FROM "campaigns_event"' in sql or "campaigns_event e" in sql
    ]
    assert journal == [], journal  # a step that rolls nothing reads not even the dice
    for table in (
        "rosters_rosterentry",
        "campaigns_scenario",
        "campaigns_sideplayer",
        "campaigns_side",
    ):
        assert not [sql for sql in reads if f'FROM "{table}"' in sql], table
    assert_nothing_left_to_write(campaign)


@override_settings(MUSTER_EXTRA_SYSTEMS=DRILL)
@pytest.mark.parametrize("spoil", ["row deleted", "other build"])
def test_rows_not_known_to_be_the_last_states_are_compared_in_full(club, people, spoil):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="drill", variant="short", name="Drill"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    submit(campaign, people["alice"], "drill.enlist", {"count": 5})
    first = RosterEntry.objects.filter(campaign=campaign).order_by("order").first()
    if spoil == "row deleted":
        first.delete()  # the unit trained next has no row to update
    else:  # rows written by other code: the next append cannot trust them
        RosterEntry.objects.filter(pk=first.pk).update(name="Drawn by an older build")
        positions = {**Campaign.objects.get(pk=campaign.pk).positions, "projected": "older"}
        Campaign.objects.filter(pk=campaign.pk).update(positions=positions)
    campaign.refresh_from_db()
    submit(campaign, people["alice"], "drill.train", {"unit": 0})
    assert_nothing_left_to_write(campaign)
    assert RosterEntry.objects.filter(campaign=campaign).count() == 5
    assert not RosterEntry.objects.filter(
        campaign=campaign, name="Drawn by an older build"
    ).exists()


def test_an_older_fold_never_overwrites_a_later_snapshot(skirmish, people):
    from campaigns.models import Snapshot
    from campaigns.services.snapshots import store_snapshot

    older = current_state(skirmish)
    submit(skirmish, people["alice"], "skirmish.supply")
    skirmish.refresh_from_db()
    store_snapshot(skirmish, older)  # the odds task, done folding a journal read before the append
    assert Snapshot.objects.get(campaign=skirmish).seq == skirmish.last_seq > older["seq"]
    with CaptureQueriesContext(connection) as queries:  # so the next append folds no journal
        submit(skirmish, people["bob"], "skirmish.supply")
    journal = [
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "campaigns_event"' in q["sql"] or "FROM campaigns_event e" in q["sql"]
    ]
    assert journal and all("dice.rolled" in sql for sql in journal), journal


def test_a_difference_is_the_same_json_not_only_equal_in_python():
    before = {"seq": 1, "game": {"a": {"b": {"c": {"d": 1}}}, "flag": 1, "n": 1}, "gone": 0}
    after = {"seq": 2, "game": {"a": {"b": {"c": {"d": 2}}}, "flag": True, "n": 1.0}, "new": []}
    assert sorted(difference(before, after), key=str) == sorted(
        [
            (["seq"], 2),
            (["game", "a", "b", "c"], {"d": 2}),  # no deeper than DEPTH keys
            (["game", "flag"], True),
            (["game", "n"], 1.0),
            (["new"], []),
            (["gone"], difference.__globals__["_GONE"]),
        ],
        key=str,
    )
    assert difference({"a": {1: 2}}, {"a": {1: 3}}) is None  # a key that is not text: whole


def test_an_append_that_changes_no_sides_part_draws_the_roster_once_and_leaves_its_rows(
    club, people, monkeypatch
):
    from campaigns.systems.achtung_panzer.system import AchtungPanzer

    table = play_cg(club, people, "cg1", "server", half_days=1)
    rows = list(RosterEntry.objects.filter(campaign=table.campaign).values_list("key", "data"))
    drawn = []
    real = AchtungPanzer.roster
    monkeypatch.setattr(
        AchtungPanzer, "roster", lambda self, state: drawn.append(1) or real(self, state)
    )
    table.by("allied", "note.added", {"scenario": table.state["current"], "text": "Regroup."})
    # The parts' stored digests tell that nothing of the roster moved: it is drawn for the
    # positions only, not drawn again for the state before and compared.
    assert len(drawn) == 1
    assert rows == list(
        RosterEntry.objects.filter(campaign=table.campaign).values_list("key", "data")
    )
    assert_nothing_left_to_write(table.campaign)
