"""What the dashboard reads does not follow how many campaigns the person has: the lists' "since
when it waits for them" (each campaign's oldest open waiting notice of the person) is read from
the index open_waiting_notices' entries alone, not from every open notice's row; and the seats of
the few campaigns shown are read from those campaigns' sides, not from every seat the person
holds."""

import pytest
from django.db import connection

from campaigns.selectors import dashboard
from campaigns.selectors.campaign_lists import mine_params

pytestmark = pytest.mark.django_db


def test_on_sqlite_the_dashboard_reads_open_waiting_notices_from_their_index_alone(
    skirmish, people
):
    """On SQLite, whose planner reads a row for a column that is only in a partial index's
    condition. (PostgreSQL needs no such key to read an index's entries alone; whether it picks
    the index over a test's few notices is its statistics' choice.)"""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's plan")
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN " + dashboard._first_pages_sql(),
            [*mine_params(people["bob"]), 15, 15, 15],
        )
        plan = "\n".join(row[3] for row in cursor.fetchall())
    assert "USING COVERING INDEX open_waiting_notices" in plan, plan


def test_the_seats_of_the_campaigns_shown_are_read_from_their_sides(skirmish, people):
    from campaigns.access import visibility

    if connection.vendor == "sqlite":
        sql = visibility._seats_sql(2)
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, [skirmish.pk, 0, people["alice"].pk])
            plan = [row[3] for row in cursor.fetchall()]
        assert plan[0].startswith("SEARCH sd ") and "(campaign_id=?)" in plan[0], plan
        assert plan[1].startswith("SEARCH sp ") and "(side_id=? AND user_id=?)" in plan[1], plan
    assert visibility._seats_in(people["alice"].pk, [skirmish.pk]) == {skirmish.pk: "red"}
    assert visibility._seats_in(people["carol"].pk, [skirmish.pk]) == {}
    assert visibility._seats_in(people["alice"].pk, []) == {}
