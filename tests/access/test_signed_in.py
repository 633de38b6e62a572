"""A campaign's GET settles the session, the user and the campaign in one query
(campaigns.access.signed_in), and only when Django would have signed the request in as that user."""

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.access import visibility

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_campaign_page_reads_the_user_with_the_campaign(skirmish, people):
    client = _signed_in(people["bob"])
    url = f"/campaigns/{skirmish.pk}/history/?page=1"  # a page drawn for each request, not kept
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200 and answer.context["viewer"].playing == "blue"
    user_table = people["bob"]._meta.db_table
    alone = [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().startswith("SELECT")
        and (f"FROM {user_table}" in q["sql"] or f'FROM "{user_table}"' in q["sql"])
        and "campaigns_campaign" not in q["sql"]
    ]
    assert alone == []  # no query of the user's row alone: it came with the campaign


def test_a_page_asked_with_a_session_ended_elsewhere_signs_in_nobody(skirmish, people):
    client = _signed_in(people["bob"])
    url = f"/campaigns/{skirmish.pk}/"
    assert client.get(url).status_code == 200
    stolen = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.logout()  # the session row goes
    thief = Client()
    thief.cookies[settings.SESSION_COOKIE_NAME] = stolen
    answer = thief.get(url)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse(settings.LOGIN_URL))


def test_a_non_member_page_is_404_and_signs_in_as_themselves(skirmish, people):
    answer = _signed_in(people["outsider"]).get(f"/campaigns/{skirmish.pk}/")
    assert answer.status_code == 404


def test_the_campaign_read_with_the_user_answers_the_first_lookup_only(skirmish, people):
    user = people["bob"]
    real_campaign, real_viewer = visibility.campaign_and_viewer(user, skirmish.pk)
    marker = object()
    user.signed_in_campaign = (skirmish.pk, marker, real_viewer)
    assert visibility.campaign_and_viewer(user, skirmish.pk)[0] is marker
    again, _ = visibility.campaign_and_viewer(user, skirmish.pk)
    assert again is not marker and again.pk == real_campaign.pk
    user.signed_in_campaign = (skirmish.pk, marker, real_viewer)
    assert (
        visibility.campaign_and_viewer(user, skirmish.pk, lock=True)[0] is not marker
    )  # writers read afresh


def test_without_it_the_user_would_be_read_alone(skirmish, people, monkeypatch):
    """The first test's check can fail: with the settling turned off, Django reads the user's row."""
    from campaigns.access import signed_in

    monkeypatch.setattr(signed_in, "campaign", lambda request, pk: None)
    client = _signed_in(people["bob"])
    url = f"/campaigns/{skirmish.pk}/history/"
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    user_table = people["bob"]._meta.db_table
    assert any(
        f"FROM {user_table}" in q["sql"] or f'FROM "{user_table}"' in q["sql"]
        for q in queries
        if "campaigns_campaign" not in q["sql"]
    )


@pytest.mark.parametrize("tail", ["", "history/", "export/"])
def test_a_settled_page_still_varies_by_cookie(skirmish, people, tail):
    """Answered without reading the session, a page still depends on it: a shared cache must not
    hand one person's page (a side's journal) to another."""
    client = _signed_in(people["bob"])
    url = f"/campaigns/{skirmish.pk}/{tail}"
    client.get(url)
    answer = client.get(url)
    assert answer.status_code == 200 and "Cookie" in answer.headers.get("Vary", "")


def test_the_journal_download_is_never_kept_by_a_shared_cache(skirmish, people):
    answer = _signed_in(people["bob"]).get(f"/campaigns/{skirmish.pk}/export/")
    assert "private" in answer["Cache-Control"] and "no-store" in answer["Cache-Control"]


@pytest.mark.parametrize("cookie", ["abcdefgh\x00ijk", "x" * 65, "ABC-DEF-GHI", "é" * 10])
def test_a_session_cookie_django_never_made_is_no_session_not_a_500(skirmish, people, cookie):
    # Sent as the raw Cookie header a client wrote, which Django parses itself: the test client's
    # cookie jar is Python's SimpleCookie, which refuses control characters on some builds
    # (Debian's 3.11.2-6+deb12u9) and accepts them on others, while a server gets the header as sent.
    header = f"{settings.SESSION_COOKIE_NAME}={cookie}".encode().decode(
        "latin-1"
    )  # as WSGI hands bytes over
    page = Client().get(f"/campaigns/{skirmish.pk}/", HTTP_COOKIE=header)
    assert (
        page.status_code == 302
        and page.wsgi_request.COOKIES[settings.SESSION_COOKIE_NAME] == cookie
    )
    assert Client().get(f"/api/v1/campaigns/{skirmish.pk}/", HTTP_COOKIE=header).status_code == 403


def test_sessions_work_with_the_cache_down(skirmish, people, monkeypatch):
    """Sessions are written through to the database: with Redis away, signing in and reading a
    page still work (slower), rather than failing every signed-in request."""
    from django.core.cache import caches

    cache = caches["default"]

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    for method in ("get", "set", "delete", "has_key", "get_many", "add"):
        monkeypatch.setattr(cache, method, down)
    client = Client()
    client.force_login(people["bob"])
    assert client.get(f"/campaigns/{skirmish.pk}/").status_code == 200
    assert client.get(f"/api/v1/campaigns/{skirmish.pk}/state/").status_code == 200
    client.logout()
    assert client.get(f"/campaigns/{skirmish.pk}/").status_code == 302
