"""A list read by a prepared lookup (`prepared.rows`) reads each timestamp's text once per process
on PostgreSQL, and answers the same dates as the ORM: the same instants, the same time zone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from campaigns.kept_answers import prepared
from campaigns.models import Campaign

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the timestamps' loader is PostgreSQL's (CI's)"
)

SQL = f"SELECT id, created_at, archived_at FROM {Campaign._meta.db_table} WHERE club_id = %s"


@pytest.fixture
def dated(club, people):
    from campaigns.services import campaigns as svc

    made = []
    start = timezone.now().replace(microsecond=123456)
    for n, at in enumerate((start, start - timedelta(days=400), start.replace(microsecond=0))):
        campaign = svc.create_campaign(
            club=club, user=people["olga"], system="skirmish", variant="short", name=f"War {n}"
        )
        Campaign.objects.filter(pk=campaign.pk).update(created_at=at, archived_at=at)
        made.append(campaign.pk)
    return made


def _orm(club) -> dict[int, tuple]:
    return {
        pk: (created, archived)
        for pk, created, archived in Campaign.objects.filter(club=club).values_list(
            "id", "created_at", "archived_at"
        )
    }


def test_the_dates_read_again_are_the_orm_s(club, dated, monkeypatch):
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    expected = _orm(club)
    monkeypatch.setattr(prepared, "_TIMESTAMPS", {})
    read: list[int] = []
    load = BaseTzLoader.load
    monkeypatch.setattr(BaseTzLoader, "load", lambda self, data: read.append(1) or load(self, data))
    for _ in range(2):  # the second read answers from what the first read
        rows = prepared.rows(SQL, [club.pk], {})
        assert {pk: (created, archived) for pk, created, archived in rows} == expected
        assert len(read) == 3  # three texts (each campaign's two dates alike), each read once
    for _, created, _ in prepared.rows(SQL, [club.pk], {}):
        assert created.tzinfo is not None and created.utcoffset() == timedelta(0)


def test_a_full_store_of_dates_starts_again(club, dated, monkeypatch):
    monkeypatch.setattr(prepared, "_TIMESTAMPS", {})
    monkeypatch.setattr(prepared, "_TIMESTAMPS_KEPT", 2)
    rows = prepared.rows(SQL, [club.pk], {})
    assert {pk: (created, archived) for pk, created, archived in rows} == _orm(club)
    assert len(prepared._TIMESTAMPS) <= 2


def test_the_dates_are_read_once_with_preparing_off(club, dated, monkeypatch, settings):
    """A pooler that keeps no prepared statements (DB_PREPARED_LOOKUPS=0) still reads a list's
    timestamps once per process: preparing off is not the dates' Python loader back."""
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    settings.DB_PREPARED_LOOKUPS = False
    expected = _orm(club)
    monkeypatch.setattr(prepared, "_TIMESTAMPS", {})
    read: list[int] = []
    load = BaseTzLoader.load
    monkeypatch.setattr(BaseTzLoader, "load", lambda self, data: read.append(1) or load(self, data))
    for _ in range(2):
        rows = prepared.rows(SQL, [club.pk], {})
        assert {pk: (created, archived) for pk, created, archived in rows} == expected
        assert len(read) == 3
