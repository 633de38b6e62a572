"""Kept answers served before the API's views (api.kept): the same bytes and headers as the full
answer, for the same people only; everything it cannot settle goes to the views."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaigns.services.journal import submit

pytestmark = pytest.mark.django_db

HEADERS = (
    "Content-Type",
    "Vary",
    "Allow",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
)


def _signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _kept(client, url):
    """The answer, and whether it came from the kept path (one query: no view ran)."""
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    return answer, len(queries) == 1


@pytest.mark.parametrize("tail", ["", "state/"])
@pytest.mark.parametrize("name", ["olga", "alice", "bob", "rita", "carol"])
def test_a_kept_answer_is_the_full_answer_byte_for_byte(skirmish, people, name, tail):
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})  # red's secret purchase
    url = f"/api/v1/campaigns/{skirmish.pk}/{tail}"
    client = _signed_in(people[name])
    full, kept_path = _kept(client, url)
    assert full.status_code == 200 and not kept_path
    again, kept_path = _kept(client, url)
    assert kept_path and again.status_code == 200
    assert again.content == full.content
    assert {h: again.headers.get(h) for h in HEADERS} == {h: full.headers.get(h) for h in HEADERS}


@pytest.mark.parametrize("tail", ["", "state/"])
def test_one_sides_kept_answer_never_answers_another_audience(skirmish, people, tail):
    submit(skirmish, people["alice"], "skirmish.buy", {"count": 1})
    url = f"/api/v1/campaigns/{skirmish.pk}/{tail}"
    red = _signed_in(people["alice"]).get(url).content
    for name in ("bob", "carol", "rita", "olga"):
        client = _signed_in(people[name])
        cold = client.get(url).content
        warm, kept_path = _kept(client, url)
        assert kept_path and warm.content == cold
    assert _signed_in(people["bob"]).get(url).content != red


def test_a_non_member_gets_404_however_warm_the_cache(skirmish, people):
    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    _signed_in(people["bob"]).get(url)
    _signed_in(people["bob"]).get(url)
    answer = _signed_in(people["outsider"]).get(url)
    assert answer.status_code == 404 and b"red" not in answer.content


def test_a_session_whose_password_changed_is_not_served(skirmish, people):
    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    client = _signed_in(people["bob"])
    assert client.get(url).status_code == 200 and _kept(client, url)[1]
    people["bob"].set_password("a new and different password")
    people["bob"].save()
    answer = client.get(url)
    assert answer.status_code == 403 and b"side" not in answer.content
    assert client.get(url).status_code == 403  # the session was ended, as Django ends it


def test_an_inactive_user_is_not_served(skirmish, people):
    url = f"/api/v1/campaigns/{skirmish.pk}/"
    client = _signed_in(people["bob"])
    client.get(url)
    type(people["bob"]).objects.filter(pk=people["bob"].pk).update(is_active=False)
    assert client.get(url).status_code == 403


def test_a_member_seated_on_a_side_reads_that_sides_answer_at_once(skirmish, people):
    from campaigns.services import campaigns as svc

    submit(skirmish, people["bob"], "skirmish.buy", {"count": 1})  # blue's secret purchase
    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    carol = _signed_in(people["carol"])
    carol.get(url)
    as_club, kept_path = _kept(carol, url)
    assert kept_path and as_club.json()["viewer"]["sides"] == []
    made = svc.assign_player(skirmish, people["olga"], side="blue", username="carol")
    submit(
        skirmish, people["bob"], "proposal.approved", {"proposal": str(made.events[0].uid)}
    )  # blue agrees
    now = carol.get(url).json()
    assert now["viewer"]["sides"] == ["blue"]
    assert (
        now["state"]
        == _signed_in(people["bob"]).get(url).json()["state"]
        != as_club.json()["state"]
    )


@pytest.mark.parametrize(
    "extra",
    [
        {"HTTP_ACCEPT": "text/html"},
        {"QUERY_STRING": "format=json"},
    ],
)
def test_other_requests_go_to_the_views(skirmish, people, extra):
    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    client = _signed_in(people["bob"])
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, **extra)
    assert answer.status_code == 200 and len(queries) > 1


def test_a_token_is_answered_by_the_views_with_the_same_body(skirmish, people):
    from rest_framework.authtoken.models import Token

    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    session = _signed_in(people["bob"])
    session.get(url)
    by_session = session.get(url).content
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people['bob']).key}")
    assert token.get(url).content == by_session


def test_a_session_ended_elsewhere_is_not_served(skirmish, people):
    """The session key is remembered by the process; the database says whether it still lives."""
    from django.conf import settings

    url = f"/api/v1/campaigns/{skirmish.pk}/state/"
    client = _signed_in(people["bob"])
    client.get(url)
    assert _kept(client, url)[1]
    stolen = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.logout()  # signs out: the session row goes
    thief = APIClient()
    thief.cookies[settings.SESSION_COOKIE_NAME] = stolen
    answer = thief.get(url)
    assert answer.status_code == 403 and b"state" not in answer.content


@pytest.mark.django_db(transaction=True)
def test_a_dead_database_connection_is_opened_again_not_a_500(skirmish, people):
    """The kept path skips Django's health check (a round trip per request); a connection that
    died is found by the lookup and opened again, as the health check would have."""
    from django.db import connection

    if connection.vendor != "postgresql" or not connection.settings_dict.get("CONN_HEALTH_CHECKS"):
        pytest.skip("a server's connection, health-checked (SQLite's never dies)")
    url = f"/api/v1/campaigns/{skirmish.pk}/"
    client = _signed_in(people["bob"])
    expected = client.get(url).content
    connection.connection.close()  # as a restarted database server leaves it
    connection.health_check_enabled = True
    answer = client.get(url)
    assert answer.status_code == 200 and answer.content == expected


@pytest.mark.parametrize("query", ["", "?club=the-club"])
def test_the_campaign_list_is_the_views_answer_byte_for_byte(skirmish, people, club, query):
    from campaigns.services import campaigns as svc

    svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Second war"
    )
    url = "/api/v1/campaigns/" + query.replace("the-club", club.slug)
    client = _signed_in(people["bob"])
    fast, kept_path = _kept(client, url)
    assert kept_path  # served before the view
    view = client.get(url + ("&" if query else "?") + "page=1")  # the view's
    assert fast.status_code == view.status_code == 200
    assert fast.content == view.content
    assert [row["name"] for row in fast.json()["results"]] == ["Second war", "Test war"]
    assert {h: fast.headers.get(h) for h in HEADERS} == {h: view.headers.get(h) for h in HEADERS}


def test_the_list_of_another_club_or_of_a_non_member_is_empty(skirmish, people):
    assert _signed_in(people["outsider"]).get("/api/v1/campaigns/").json()["count"] == 0
    assert (
        _signed_in(people["bob"]).get("/api/v1/campaigns/?club=no-such-club").json()["count"] == 0
    )


@pytest.mark.parametrize("asked", ["\x00", "a b", "x" * 101])
def test_a_club_that_cannot_be_a_slug_goes_to_the_view(skirmish, people, asked, monkeypatch):
    from urllib.parse import urlencode

    from campaigns.access import visibility

    monkeypatch.setattr(
        visibility, "signed_in_campaign_list", lambda *args: pytest.fail("the kept path ran")
    )
    answer = _signed_in(people["bob"]).get("/api/v1/campaigns/?" + urlencode({"club": asked}))
    assert answer.status_code in (200, 400)


@pytest.mark.parametrize("query", ["", "?club=the-club"])
def test_a_list_longer_than_a_page_links_the_next_as_the_view_does(
    skirmish, people, club, monkeypatch, query
):
    from api.pagination import Pagination
    from campaigns.services import campaigns as svc

    monkeypatch.setattr(Pagination, "page_size", 1)
    svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Second war"
    )
    url = "/api/v1/campaigns/" + query.replace("the-club", club.slug)
    client = _signed_in(people["bob"])
    fast, kept_path = _kept(client, url)
    assert kept_path and fast.json()["count"] == 2 and fast.json()["next"].endswith("page=2")
    assert fast.json()["results"][0]["name"] == "Second war"
    view = client.get(
        url, HTTP_ACCEPT="application/json, text/plain"
    )  # not plain JSON: the view answers
    assert view.content == fast.content


@pytest.mark.parametrize("tail", ["%0A", "state/%0A"])
def test_a_path_with_a_trailing_newline_is_not_found_as_the_views_say(skirmish, people, tail):
    client = _signed_in(people["bob"])
    client.get(f"/api/v1/campaigns/{skirmish.pk}/")
    client.get(f"/api/v1/campaigns/{skirmish.pk}/state/")
    assert client.get(f"/api/v1/campaigns/{skirmish.pk}/{tail}").status_code == 404
