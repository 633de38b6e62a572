"""The campaign list's pages are counted with the page itself (a window count; the first page on
the sign-in's own query, from an index): every page says how many campaigns there are in all,
the pages hold each campaign once, newest first, and archived ones stay out unless asked."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import campaigns as svc

pytestmark = pytest.mark.django_db


def test_pages_are_counted_with_their_rows(club, people, client_for):
    for i in range(7):
        svc.create_campaign(
            club=club, user=people["olga"], system="skirmish", variant="duel", name=f"War {i}"
        )
    Campaign.objects.filter(name="War 6").update(archived_at=timezone.now())
    carol = client_for("carol")
    url = f"/api/v1/campaigns/?club={club.slug}&page_size=2"
    seen = []
    for number in (1, 2, 3):
        with CaptureQueriesContext(connection) as queries:
            page = carol.get(f"{url}&page={number}").json()
        assert page["count"] == 6 and len(page["results"]) == 2, number
        assert not any("COUNT(*) AS" in q["sql"] for q in queries.captured_queries), number
        seen += [row["name"] for row in page["results"]]
    assert seen == [f"War {i}" for i in range(5, -1, -1)]  # each once, newest first
    assert page["next"] is None and "page=2" in page["previous"]
    assert carol.get(f"{url}&page=last").json()["results"] == page["results"]
    assert carol.get(f"{url}&page=4").status_code == 404
    assert carol.get(f"{url}&page=x").status_code == 404
    archived = carol.get(f"{url}&archived=true").json()
    assert archived["count"] == 1 and archived["results"][0]["name"] == "War 6"
    assert client_for("carol").get("/api/v1/campaigns/?club=nope").json()["count"] == 0
