"""The campaign list's first page (served before the view, api.kept) costs what a page costs, not
what the club's campaigns cost: each club's newest are read from the index campaigns_listed, as
many as the page holds, and counted from its entries; the same rows, order and count as the view
on both databases, over several clubs, ties in creation time and archived campaigns."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.models import Campaign, Club, Membership
from campaigns.services import campaigns as svc

pytestmark = pytest.mark.django_db


def _signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def two_clubs(club, people):
    """Seven campaigns in `club` (two of them created at the same instant, one archived) and four
    in a second club olga and carol also belong to, some created between the first club's."""
    other = Club.objects.create(name="Thursday", slug="thursday")
    for name in ("olga", "carol"):
        Membership.objects.create(club=other, user=people[name], role=Membership.ORGANIZER)
    start = timezone.now()
    made = []
    for n, (where, minutes) in enumerate(
        [(club, 0), (other, 1), (club, 2), (club, 2), (other, 3), (club, 4), (club, 5)]
        + [(other, 6), (club, 7), (club, 8), (other, 9)]
    ):
        campaign = svc.create_campaign(
            club=where, user=people["olga"], system="skirmish", variant="short", name=f"War {n}"
        )
        made.append(campaign.pk)
        Campaign.objects.filter(pk=campaign.pk).update(
            created_at=start + datetime.timedelta(minutes=minutes)
        )
    Campaign.objects.filter(name="War 8").update(archived_at=timezone.now())
    return other


@pytest.mark.parametrize("query", ["", "?club=tuesday", "?club=thursday"])
def test_the_first_page_of_several_clubs_is_the_views_in_rows_order_and_count(
    two_clubs, people, monkeypatch, query
):
    from api.pagination import Pagination

    monkeypatch.setattr(Pagination, "page_size", 3)  # fewer than each club's campaigns
    client = _signed_in(people["carol"])
    url = "/api/v1/campaigns/" + query
    with CaptureQueriesContext(connection) as queries:
        fast = client.get(url)
    assert len(queries) == 1  # the kept path's one query, no view
    view = client.get(url + ("&" if query else "?") + "page=1")
    assert fast.status_code == view.status_code == 200
    assert fast.content == view.content
    every = Campaign.objects.filter(archived_at=None).order_by("-created_at", "-id")
    if query:
        every = every.filter(club__slug=query.split("=")[1])
    assert fast.json()["count"] == every.count()
    assert [row["id"] for row in fast.json()["results"]] == [c.pk for c in every[:3]]


def _list_plan(people) -> list[str]:
    from campaigns.access import visibility

    sql = visibility._list_sql(["id", "password", "is_active"])
    me = people["carol"].pk
    params = [me, "tuesday", "tuesday", *[50] * sql.count("LIMIT %s"), "x", timezone.now(), me]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return [row[3] for row in cursor.fetchall()]


def test_on_sqlite_the_page_and_the_count_read_the_listed_index_not_every_campaign(club, people):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's plan (PostgreSQL reads each club's newest by LATERAL)")
    plan = _list_plan(people)
    listed = [step for step in plan if "campaigns_listed" in step]
    assert len(listed) == 2, plan  # each club's newest, and the count
    assert not any("club_id_" in step for step in plan), plan  # never the plain club index
    assert "CORRELATED LIST SUBQUERY" in " ".join(plan), plan  # as many as the page, per club
