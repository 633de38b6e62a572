"""Every list endpoint answers in a number of queries that does not grow with its rows:
measured with 2 rows, then held to that count with 20; with the cache of per-audience answers
(campaigns.kept_answers.viewcache) cold and warm alike."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Club, Invitation, Membership, Scenario
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from rosters.models import RosterEntry
from tests.factories import UserFactory


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(queries)


def _cold_and_warm(client, url) -> tuple[int, int]:
    cache.clear()
    return _count(client, url), _count(client, url)


def _bounded(client, url, grow, django_assert_max_num_queries, rows_key="results"):
    grow(2)
    cold, warm = _cold_and_warm(client, url)
    assert len(client.get(url).json()[rows_key]) >= 2
    grow(20)  # some tests add projection rows directly (never done but by the journal): cold again
    cache.clear()
    with django_assert_max_num_queries(cold):
        response = client.get(url)
    assert len(response.json()[rows_key]) >= 20
    with django_assert_max_num_queries(warm):
        assert len(client.get(url).json()[rows_key]) >= 20


def test_clubs(people, client_for, django_assert_max_num_queries):
    alice = people["alice"]

    def grow(n):
        for i in range(Membership.objects.filter(user=alice).count(), n):
            club = Club.objects.create(name=f"Club {i}", slug=f"club-{i}")
            Membership.objects.create(club=club, user=alice)

    _bounded(client_for("alice"), "/api/v1/clubs/", grow, django_assert_max_num_queries)


def test_members(club, people, client_for, django_assert_max_num_queries):
    def grow(n):
        for i in range(club.memberships.count(), n):
            Membership.objects.create(club=club, user=UserFactory(username=f"member{i}"))

    _bounded(
        client_for("alice"), "/api/v1/clubs/tuesday/members/", grow, django_assert_max_num_queries
    )


def test_invitations(club, people, client_for, django_assert_max_num_queries):
    def grow(n):
        for _ in range(club.invitations.count(), n):
            Invitation.objects.create(
                club=club, created_by=people["olga"], accepted_by=people["carol"]
            )

    _bounded(
        client_for("olga"),
        "/api/v1/clubs/tuesday/invitations/",
        grow,
        django_assert_max_num_queries,
    )


def test_campaigns(club, people, client_for, django_assert_max_num_queries):
    def grow(n):
        for i in range(club.campaigns.count(), n):
            campaign = svc.create_campaign(
                club=club, user=people["olga"], system="skirmish", variant="duel", name=f"War {i}"
            )
            svc.assign_referee(campaign, people["olga"], username="rita")

    _bounded(
        client_for("alice"), "/api/v1/campaigns/?club=tuesday", grow, django_assert_max_num_queries
    )


def test_events(skirmish, people, client_for, django_assert_max_num_queries):
    def grow(n):
        for _ in range(n // 2):  # a public proposal and its rejection: two rows
            fresh = submit(skirmish, people["alice"], "proposal.made", {"action": "export"})
            submit(
                skirmish, people["bob"], "proposal.rejected", {"proposal": str(fresh.events[0].uid)}
            )

    _bounded(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        grow,
        django_assert_max_num_queries,
    )


def test_scenarios(skirmish, client_for, django_assert_max_num_queries):
    def grow(n):  # scenarios are a projection; more rows than the calendar only to count queries
        start = skirmish.scenarios.count()
        Scenario.objects.bulk_create(
            [
                Scenario(campaign=skirmish, index=i, label=f"R{i}", status="upcoming")
                for i in range(start, start + n)
            ]
        )

    _bounded(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/scenarios/",
        grow,
        django_assert_max_num_queries,
    )


def test_roster(skirmish, client_for, django_assert_max_num_queries):
    def grow(n):
        start = skirmish.roster_entries.count()
        RosterEntry.objects.bulk_create(
            [
                RosterEntry(
                    campaign=skirmish,
                    key=f"u{i}",
                    side="blue",
                    audience="side",
                    kind="unit",
                    name=f"U{i}",
                )
                for i in range(start, start + n)
            ]
        )

    _bounded(
        client_for("bob"),
        f"/api/v1/campaigns/{skirmish.pk}/roster/",
        grow,
        django_assert_max_num_queries,
    )


@pytest.mark.parametrize("url", ["/api/v1/systems/"])
def test_systems_come_from_the_registry_without_queries_per_system(
    url, people, client_for, django_assert_max_num_queries
):
    # The registry is code, not rows: only the session lookup touches the database.
    client = client_for("alice")
    with django_assert_max_num_queries(2):
        assert client.get(url).status_code == 200


# --- the campaign's own endpoints: the journal grows, the queries do not ------------------------


def _grow_journal(skirmish, people):
    """Public proposals and their rejections: journal rows that every reader may read."""

    def grow(n):
        for _ in range(n // 2):
            fresh = submit(skirmish, people["alice"], "proposal.made", {"action": "export"})
            submit(
                skirmish, people["bob"], "proposal.rejected", {"proposal": str(fresh.events[0].uid)}
            )

    return grow


@pytest.mark.parametrize("tail", ["", "state/", "actions/", "export/"])
@pytest.mark.parametrize("viewer", ["bob", "rita"])
def test_campaign_endpoints_do_not_grow_with_the_journal(
    tail, viewer, skirmish, people, client_for, django_assert_max_num_queries
):
    client, url = client_for(viewer), f"/api/v1/campaigns/{skirmish.pk}/{tail}"
    grow = _grow_journal(skirmish, people)
    grow(2)
    cold, warm = _cold_and_warm(client, url)
    grow(20)  # the journal moved: the first read is a miss, the next a hit
    assert skirmish.events.count() >= 20
    with django_assert_max_num_queries(cold):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(warm):
        assert client.get(url).status_code == 200


def test_campaign_detail_does_not_grow_with_scenarios_and_players(
    skirmish, people, client_for, django_assert_max_num_queries
):
    client, url = client_for("bob"), f"/api/v1/campaigns/{skirmish.pk}/"
    small = _count(client, url)
    start = skirmish.scenarios.count()
    Scenario.objects.bulk_create(
        [
            Scenario(campaign=skirmish, index=i, label=f"R{i}", status="upcoming")
            for i in range(start, start + 20)
        ]
    )
    from tests.factories import MembershipFactory, UserFactory

    MembershipFactory(club=skirmish.club, user=UserFactory(username="dave"))
    for name in (
        "carol",
        "dave",
    ):  # more players on a side: team play (seated directly by red's own olga)
        svc.assign_player(skirmish, people["olga"], side="red", username=name)
    with django_assert_max_num_queries(small):
        response = client.get(url)
    assert len(response.json()["scenarios"]) == start + 20
    assert sorted(next(s for s in response.json()["sides"] if s["slug"] == "red")["players"]) == [
        "alice",
        "carol",
        "dave",
        "olga",
    ]
