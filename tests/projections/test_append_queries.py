"""What one append costs in queries, through the API as a client sends it, in campaigns as clubs
play them: an Achtung! Panzer! campaign in play (a state of a hundred kilobytes and more, a journal
of hundreds of events and rolls) and a victory-ledger game (a turn confirmed: scenario and roster
rows change). Counted as the database sees them on a site: the test's own transaction adds a
SAVEPOINT and its RELEASE around each append (in production BEGIN and COMMIT, which Django does
not count), left out here. The count is also the same whatever the other side did in secret."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns.systems.achtung_panzer.tests.table_play import play_cg
from campaigns.systems.victory_ledger.tests.harness import Game

pytestmark = pytest.mark.django_db
MOST = 8  # queries per append on PostgreSQL, the token's look-up included


def _within_budget(queries: list[str]) -> None:
    """At most MOST on PostgreSQL (where several writes go in one statement); SQLite, the
    embedded set-up, writes them one by one."""
    if connection.vendor == "postgresql":
        assert len(queries) <= MOST, queries


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def _append(client, campaign, kind, data) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/v1/campaigns/{campaign.pk}/events/", {"kind": kind, "data": data}, format="json"
        )
    assert answer.status_code == 201, answer.content
    return [
        q["sql"]
        for q in queries.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def test_an_append_in_an_achtung_panzer_campaign_in_play(club, people):
    table = play_cg(club, people, "cg1", "server", half_days=1)
    campaign, index = table.campaign, table.state["current"]
    allied, german = _client(people["alice"]), _client(people["bob"])
    note = {"scenario": index, "text": "Regroup at the bridge."}
    quiet = _append(allied, campaign, "note.added", note)
    _within_budget(quiet)
    # The Germans write in secret; the Allies' next append costs the same.
    _append(
        german, campaign, "note.added", {"scenario": index, "text": "Mine it.", "private": True}
    )
    after_secret = _append(allied, campaign, "note.added", note)
    assert len(after_secret) == len(quiet), (quiet, after_secret)


def test_a_ledger_turn_confirmed(club, people):
    game = Game(club, people, "pattons_vanguard", "s2")
    game.setup()
    game.turn("Turn 1 (25 Sep)", {"13": "Gs", "9": "Acs"}, [("602/D", "reduced")], confirm=False)
    # The Americans confirm: the scenario row and five roster rows change with it.
    confirmed = _append(_client(people["bob"]), game.campaign, "result.confirmed", {"scenario": 0})
    _within_budget(confirmed)
    turn = game.turn_data("Turn 2 (26 Sep)", {"13": "Gs", "9": "Acs"}, [("602/D", "eliminated")])
    recorded = _append(_client(people["alice"]), game.campaign, "pv.turn", turn)
    _within_budget(recorded)


def test_an_append_with_its_dice_writes_them_in_the_same_insert(skirmish, people):
    """A side's step that rolls (the Skirmish's supply: a secret roll) is one INSERT for the step
    and its roll, and its count is the same as the other side's step."""
    red = _append(_client(people["alice"]), skirmish, "skirmish.supply", {})
    inserts = [sql for sql in red if sql.startswith('INSERT INTO "campaigns_event"')]
    assert len(inserts) == 1 and "dice.rolled" in inserts[0], inserts
    _within_budget(red)
    blue = _append(_client(people["bob"]), skirmish, "skirmish.supply", {})
    assert len(blue) == len(red), (red, blue)
