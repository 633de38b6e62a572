"""A list read by a prepared lookup (`prepared.rows`) on SQLite converts each date once per value
(Django's converter is pure Python), and answers the same dates as the ORM."""

import pytest
from django.db import connection
from django.utils import timezone

from campaigns.models import Campaign

pytestmark = pytest.mark.django_db


def test_on_sqlite_a_lists_dates_are_converted_once_per_value(skirmish, people, monkeypatch):
    """The rows' dates are the ORM's (aware, the same instants); each value is converted once,
    then answered from what was kept."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's converter (PostgreSQL keeps its loader's values: _keep_timestamps)")
    from campaigns.kept_answers import prepared

    calls = []
    converter = connection.ops.convert_datetimefield_value

    def counted(value, expression, connection_):
        calls.append(value)
        return converter(value, expression, connection_)

    monkeypatch.setattr(connection.ops, "convert_datetimefield_value", counted)
    monkeypatch.setattr(prepared, "_SQLITE_DATES", {}, raising=False)
    field = Campaign._meta.get_field("created_at")
    sql = "SELECT id, created_at FROM campaigns_campaign ORDER BY id"
    first = prepared.rows(sql, [], {1: field})
    assert len(calls) == len(first) == 1
    again = prepared.rows(sql, [], {1: field})
    assert len(calls) == 1  # the second read converted nothing
    assert first == again == [(c.pk, c.created_at) for c in Campaign.objects.order_by("id")]
    assert all(timezone.is_aware(when) for _, when in first)
