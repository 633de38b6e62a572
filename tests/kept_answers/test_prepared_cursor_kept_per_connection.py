"""A prepared lookup (`prepared.one`, `prepared.rows`) reuses one server-binding cursor per
database connection on PostgreSQL (making one cost as much as the lookup's own Python): the same
cursor for every lookup of a connection, a new one for a new connection; a lookup that fails is
Django's error and leaves the cursor usable; the dates it reads are the ORM's."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from campaigns.kept_answers import prepared
from campaigns.models import Campaign

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the prepared cursor is PostgreSQL's (CI's)"
)

COLUMNS = ", ".join(f.column for f in Campaign._meta.concrete_fields)  # `one` reads them in order
SQL = f"SELECT {COLUMNS} FROM {Campaign._meta.db_table} WHERE id = %s"


@pytest.fixture
def war(club, people):
    from campaigns.services import campaigns as svc

    return svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Kept cursor"
    )


def _kept_cursor():
    return connection.connection.__dict__[prepared._KEPT_CURSOR][1]


def test_every_lookup_of_a_connection_uses_its_one_prepared_cursor(war):
    first = prepared.one(Campaign, SQL, [war.pk], ())
    cursor = _kept_cursor()
    assert prepared.rows(
        f"SELECT id FROM {Campaign._meta.db_table} WHERE id = %s", [war.pk], {}
    ) == [(war.pk,)]
    again = prepared.one(Campaign, SQL, [war.pk], ())
    assert _kept_cursor() is cursor and not cursor.closed
    assert (first.pk, first.name) == (again.pk, again.name) == (war.pk, "Kept cursor")


def test_a_lookup_that_fails_is_djangos_error_and_the_cursor_reads_on(war):
    prepared.one(Campaign, SQL, [war.pk], ())
    cursor = _kept_cursor()
    with pytest.raises(DatabaseError), transaction.atomic():
        prepared.one(
            Campaign, f"SELECT {COLUMNS} FROM {Campaign._meta.db_table} WHERE nothing = %s", [1], ()
        )
    assert prepared.one(Campaign, SQL, [war.pk], ()).pk == war.pk
    assert _kept_cursor() is cursor


def test_a_lookup_reads_the_dates_the_orm_reads(war):
    found = prepared.one(Campaign, SQL, [war.pk], ())
    stored = Campaign.objects.get(pk=war.pk)
    assert (found.created_at, found.updated_at) == (stored.created_at, stored.updated_at)
    assert found.created_at.utcoffset() is not None and found.created_at.utcoffset().seconds == 0


@pytest.mark.django_db(transaction=True)
def test_a_new_connection_gets_a_new_cursor(club, people):
    from campaigns.services import campaigns as svc

    war = svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Reconnected"
    )
    prepared.one(Campaign, SQL, [war.pk], ())
    before = _kept_cursor()
    connection.close()
    assert prepared.one(Campaign, SQL, [war.pk], ()).name == "Reconnected"
    assert _kept_cursor() is not before
