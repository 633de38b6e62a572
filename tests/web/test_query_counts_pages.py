"""Every list page answers in a number of queries that does not grow with its rows:
measured with a few rows, then held to that count with many more.

Pages: the dashboard (clubs, campaigns, what waits for me), the club page
(members, campaigns, invitations), the campaign page (sides and players,
scenarios, roster, sheets and print jobs), the history, and the HTML print view
of the campaign summary (its timeline).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Club, Invitation, Membership, Scenario
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from rosters.models import RosterEntry
from tests.factories import UserFactory
from tests.web.wars import skirmish_war


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return len(queries)


def _bounded(client, url, grow, django_assert_max_num_queries, seen=None):
    """Queries with 2 rows, then no more with 20; `seen(content, n)` checks the rows are shown."""
    grow(2)
    small = _count(client, url)
    grow(20)
    with django_assert_max_num_queries(small):
        response = client.get(url)
    if seen is not None:
        seen(response.content.decode(), 20)


@pytest.mark.parametrize("url", ["/", "/campaigns/"])
def test_dashboard_campaigns_and_what_waits(
    url, club, people, client_for, django_assert_max_num_queries
):
    # Every campaign is in play and waits for alice (red's supply roll): each row
    # is a campaign and a to-do. The dashboard shows the first 15, the pages of her campaigns all.
    def grow(n):
        for i in range(club.campaigns.count(), n):
            skirmish_war(club, people, f"War {i:02d}")

    def seen(content, n):
        shown = sum(f"War {i:02d}" in content for i in range(n))
        assert shown == (n if url == "/campaigns/" else 15)
        if url == "/":
            assert f"All {n} campaigns" in content

    _bounded(client_for("alice"), url, grow, django_assert_max_num_queries, seen)


def test_dashboard_clubs(people, client_for, django_assert_max_num_queries):
    alice = people["alice"]

    def grow(n):
        for i in range(Membership.objects.filter(user=alice).count(), n):
            Membership.objects.create(
                club=Club.objects.create(name=f"Club {i:02d}", slug=f"club-{i}"), user=alice
            )

    def seen(content, n):
        assert all(f"Club {i:02d}" in content for i in range(1, n))

    _bounded(client_for("alice"), "/", grow, django_assert_max_num_queries, seen)


@pytest.mark.parametrize("page", ["", "campaigns/"])
def test_club_page_members_campaigns_invitations(
    page, club, people, client_for, django_assert_max_num_queries
):
    def grow(n):
        for i in range(club.memberships.count(), n):
            Membership.objects.create(club=club, user=UserFactory(username=f"member{i:02d}"))
        for i in range(club.campaigns.count(), n):
            skirmish_war(club, people, f"War {i:02d}", start=i % 2 == 0)
        for _ in range(club.invitations.count(), n):
            Invitation.objects.create(club=club, created_by=people["olga"], email="x@example.org")

    def seen(content, n):
        if page:  # the pages of all the club's campaigns
            assert all(f"War {i:02d}" in content for i in range(n))
        else:  # the club page: its members, and the first 15 campaigns with a link to them all
            assert sum(f"War {i:02d}" in content for i in range(n)) >= 15
            assert f"All {n} campaigns" in content
            assert "member19" in content

    url = f"/clubs/{club.slug}/{page}"
    _bounded(client_for("olga"), url, grow, django_assert_max_num_queries, seen)


@pytest.mark.parametrize("viewer", ["bob", "rita", "carol"])
def test_campaign_page(viewer, skirmish, people, client_for, django_assert_max_num_queries):
    def grow(n):
        start = skirmish.scenarios.count()
        Scenario.objects.bulk_create(
            [
                Scenario(campaign=skirmish, index=i, label=f"Extra {i}", status="upcoming")
                for i in range(start, start + n)
            ]
        )
        start = skirmish.roster_entries.count()
        RosterEntry.objects.bulk_create(
            [
                RosterEntry(
                    campaign=skirmish,
                    key=f"u{i}",
                    side="blue",
                    audience="public",
                    kind="unit",
                    name=f"Unit {i}",
                )
                for i in range(start, start + n)
            ]
        )
        for _ in range(n // 2):  # journal rows everyone may read
            fresh = submit(skirmish, people["alice"], "proposal.made", {"action": "export"})
            submit(
                skirmish, people["bob"], "proposal.rejected", {"proposal": str(fresh.events[0].uid)}
            )

    _bounded(client_for(viewer), f"/campaigns/{skirmish.pk}/", grow, django_assert_max_num_queries)


def test_campaign_page_players(club, people, client_for, django_assert_max_num_queries):
    campaign = skirmish_war(club, people, "Team war", start=False)

    def grow(n):
        for i in range(
            Membership.objects.filter(club=club, user__username__startswith="team").count(), n
        ):
            user = UserFactory(username=f"team{i:02d}")
            Membership.objects.create(club=club, user=user)
            svc.assign_player(
                campaign, people["olga"], side="red" if i % 2 else "blue", username=user.username
            )

    def seen(content, n):
        assert all(f"team{i:02d}" in content for i in range(n))

    _bounded(
        client_for("olga"), f"/campaigns/{campaign.pk}/", grow, django_assert_max_num_queries, seen
    )


def test_campaign_page_print_jobs(skirmish, people, client_for, django_assert_max_num_queries):
    from rosters import services as print_services
    from rosters.models import PrintJob

    bob = people["bob"]
    first, _ = print_services.request_sheet(bob, skirmish, "summary", "A4")
    statuses = (PrintJob.DONE, PrintJob.FAILED, PrintJob.QUEUED, PrintJob.RUNNING)

    def grow(n):  # earlier states' jobs of the same sheet, in every status
        start = PrintJob.objects.filter(campaign=skirmish).count()
        PrintJob.objects.bulk_create(
            [
                PrintJob(
                    campaign=skirmish,
                    sheet="summary",
                    paper=("A4", "Letter")[i % 2],
                    audience="public",
                    content_hash=f"{i:064d}",
                    context=first.context,
                    title=first.title,
                    requested_by=bob,
                    status=statuses[i % 4],
                    error="Could not render." if statuses[i % 4] == PrintJob.FAILED else "",
                )
                for i in range(start, n)
            ]
        )

    _bounded(client_for("bob"), f"/campaigns/{skirmish.pk}/", grow, django_assert_max_num_queries)


@pytest.mark.parametrize("viewer", ["bob", "rita"])
def test_history(viewer, skirmish, people, client_for, django_assert_max_num_queries):
    def grow(n):
        for _ in range(n // 2):
            fresh = submit(skirmish, people["alice"], "proposal.made", {"action": "export"})
            submit(
                skirmish, people["bob"], "proposal.rejected", {"proposal": str(fresh.events[0].uid)}
            )

    def seen(content, n):
        assert content.count("Change rejected") >= n // 2

    _bounded(
        client_for(viewer),
        f"/campaigns/{skirmish.pk}/history/",
        grow,
        django_assert_max_num_queries,
        seen,
    )


def test_summary_sheet_print_view(skirmish, people, client_for, django_assert_max_num_queries):
    def grow(n):
        start = skirmish.scenarios.count()
        Scenario.objects.bulk_create(
            [
                Scenario(campaign=skirmish, index=i, label=f"Extra {i}", status="upcoming")
                for i in range(start, start + n)
            ]
        )
        for _ in range(n // 2):
            fresh = submit(skirmish, people["alice"], "proposal.made", {"action": "export"})
            submit(
                skirmish, people["bob"], "proposal.rejected", {"proposal": str(fresh.events[0].uid)}
            )

    _bounded(
        client_for("bob"),
        f"/campaigns/{skirmish.pk}/sheets/summary/print/",
        grow,
        django_assert_max_num_queries,
    )


def test_the_dashboards_batch_viewers_are_visibilitys_own(skirmish, club, people):
    """visibility.viewers_for (used by the dashboard to stay at a fixed number of
    queries) answers exactly what viewer_for answers, person by person."""
    from campaigns.access import visibility
    from campaigns.models import Campaign

    skirmish_war(
        club, people, "Second war"
    )  # alice red, bob blue, rita referee; olga plays nothing here
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=people["outsider"])
    campaigns = list(Campaign.objects.all())
    for name, user in people.items():
        batch = visibility.viewers_for(user, campaigns)
        assert batch == {c.pk: visibility.viewer_for(user, c) for c in campaigns}, name
    assert visibility.viewers_for(people["rita"], campaigns)[skirmish.pk].referee
    assert visibility.viewers_for(people["olga"], campaigns)[skirmish.pk].playing == "red"


def test_campaign_setup_page_members_and_players(
    club, people, client_for, django_assert_max_num_queries
):
    """The organizer's setup page lists the club's members (to seat them) and the sides' players."""
    campaign = skirmish_war(club, people, "Setting up", start=False)

    def grow(n):
        for i in range(
            Membership.objects.filter(club=club, user__username__startswith="recruit").count(), n
        ):
            user = UserFactory(username=f"recruit{i:02d}")
            Membership.objects.create(club=club, user=user)
            if i % 2:
                svc.assign_player(campaign, people["olga"], side="blue", username=user.username)

    def seen(content, n):
        assert all(f"recruit{i:02d}" in content for i in range(n))

    _bounded(
        client_for("olga"),
        f"/campaigns/{campaign.pk}/setup/",
        grow,
        django_assert_max_num_queries,
        seen,
    )
