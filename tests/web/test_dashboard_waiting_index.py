"""The lists' "since when it waits for them" (each campaign's oldest open waiting notice of the
person) is read from the index open_waiting_notices' entries alone, not from every open notice's
row: a person with a notice or more for every campaign of theirs pays for the index, not the
table."""

import pytest
from django.db import connection

from campaigns.selectors import dashboard
from campaigns.selectors.campaign_lists import mine_params

pytestmark = pytest.mark.django_db


def _plan(sql: str, params: list) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")  # a test's few rows: a scan is cheaper
            cursor.execute("EXPLAIN " + sql, params)
            return "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(row[3] for row in cursor.fetchall())


def test_the_dashboard_reads_open_waiting_notices_from_their_index_alone(skirmish, people):
    plan = _plan(dashboard._first_pages_sql(), [*mine_params(people["bob"]), 15, 15, 15])
    if connection.vendor == "postgresql":
        assert "Index Only Scan using open_waiting_notices" in plan, plan
    else:
        assert "COVERING INDEX open_waiting_notices" in plan, plan
