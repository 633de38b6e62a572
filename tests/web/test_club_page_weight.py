"""The club page and the dashboard do not grow with the club's campaigns: with 120 campaigns
(more than the 100 at which the club page went past 2,000 elements) they, and the pages of all
the campaigns they link to, stay within the page-weight budget (≤ 100 KB, ≤ 2,000 elements)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.systems.achtung_panzer.tests.test_page_weight import BYTES, ELEMENTS, weigh

MANY = 120


def _campaigns(club, people, n: int) -> None:
    olga = people["olga"]
    for i in range(n):
        campaign = svc.create_campaign(
            club=club, user=olga, system="skirmish", variant="short", name=f"War {i:03d}"
        )
        svc.assign_player(campaign, olga, side="red", username="alice")
        svc.assign_player(campaign, olga, side="blue", username="bob")
        if i % 4:  # most in play (each waits for alice), some still being set up
            submit(campaign, olga, "campaign.started")


def test_club_page_and_dashboard_stay_within_the_budget_with_many_campaigns(
    club, people, client_for
):
    _campaigns(club, people, MANY)
    pages = {
        "olga": [
            f"/clubs/{club.slug}/",
            f"/clubs/{club.slug}/campaigns/",
            f"/clubs/{club.slug}/campaigns/?page=3",
            "/",
            "/campaigns/",
        ],
        "alice": ["/", "/campaigns/", "/campaigns/?page=2", f"/clubs/{club.slug}/"],
    }
    for name, urls in pages.items():
        client = client_for(name)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            size, elements = weigh(response.content)
            assert size <= BYTES and elements <= ELEMENTS, (name, url, size, elements)


def test_pages_of_all_campaigns_show_each_once_and_fall_back_to_the_last(club, people, client_for):
    _campaigns(club, people, 60)
    client = client_for("olga")
    first = client.get(f"/clubs/{club.slug}/campaigns/").content.decode()
    second = client.get(f"/clubs/{club.slug}/campaigns/?page=2").content.decode()
    assert "page 1 of 2" in first and 'rel="next"' in first and 'rel="prev"' not in first
    assert "page 2 of 2" in second and 'rel="prev"' in second and 'rel="next"' not in second
    first, second = (
        page.split('id="camp-h"')[1].split("</section>")[0] for page in (first, second)
    )
    for i in range(60):  # each campaign in the campaigns table of one page only
        row = f">War {i:03d}</a>"
        assert (row in first) != (row in second), i
    assert (
        client.get(f"/clubs/{club.slug}/campaigns/?page=99").content.decode().count("page 2 of 2")
    )
    assert "page 1 of 2" in client.get(f"/clubs/{club.slug}/campaigns/?page=x").content.decode()
    mine = client_for("alice").get("/campaigns/?page=0").content.decode()
    assert "page 1 of 2" in mine


def test_club_page_counts_every_archived_campaign_and_shows_the_latest(club, people, client_for):
    _campaigns(club, people, 18)
    start = timezone.now()
    for i, campaign in enumerate(club.campaigns.order_by("pk")):  # as if archived one by one
        type(campaign).objects.filter(pk=campaign.pk).update(
            archived_at=start + timedelta(minutes=i)
        )
    content = client_for("olga").get(f"/clubs/{club.slug}/").content.decode()
    assert "Archived campaigns (18)" in content
    assert "The latest 15 shown" in content
    assert "War 017" in content and "War 000" not in content  # the latest archived first


def test_a_campaign_being_set_up_is_shown_before_many_finished_ones(club, people, client_for):
    """The club page and the dashboard show campaigns in play, then those being set up, then the
    finished ones: a new campaign never falls off the first CLUB_SHOWN behind finished ones."""
    from campaigns.models import Campaign

    _campaigns(club, people, 20)
    Campaign.objects.filter(club=club).update(status=Campaign.FINISHED)
    olga = people["olga"]
    new = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Next spring"
    )
    svc.assign_player(new, olga, side="red", username="alice")
    club_page = client_for("olga").get(f"/clubs/{club.slug}/").content.decode()
    assert ">Next spring</a>" in club_page
    dashboard = client_for("alice").get("/").content.decode()
    assert "Next spring" in dashboard
