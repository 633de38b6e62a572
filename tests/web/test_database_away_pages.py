"""A page asked while the database is away, or whose query PostgreSQL stops for taking too long,
answers 503 with Retry-After and words saying what to do, not Django's 500 "Something went wrong"
(muster.database_away); the API answers the same two cases with JSON 503s of its own words
(api/errors.py). The timeout is PostgreSQL's own: a statement_timeout set on the connection."""

import pytest
from django.db import OperationalError, connection
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


class Fault:
    """An execute wrapper that breaks the first query of the campaigns' tables: `timeout` runs it
    under a 50 ms statement_timeout behind a 1 s sleep; `away` raises what a lost connection does."""

    def __init__(self, how):
        self.how, self.done = how, False

    def __call__(self, execute, sql, params, many, context):
        if self.done or "campaigns_" not in sql:
            return execute(sql, params, many, context)
        self.done = True
        if self.how == "away":
            raise OperationalError("server closed the connection unexpectedly")
        cursor = context["cursor"]
        cursor.execute("SET statement_timeout = 50")
        try:
            return execute("SELECT pg_sleep(1)", None, False, context)
        finally:
            cursor.execute("SET statement_timeout = 0")


# The timeout is PostgreSQL's statement_timeout: SQLite has none (CI runs the tests on PostgreSQL).
HOW = [
    "away",
    pytest.param(
        "timeout",
        marks=pytest.mark.skipif(
            connection.vendor != "postgresql", reason="PostgreSQL's statement_timeout"
        ),
    ),
]


def signed_in(people):
    client = Client()
    client.force_login(people["alice"])
    return client


@pytest.mark.parametrize("how", HOW)
def test_a_page_answers_503_saying_what_to_do(people, how):
    client = signed_in(people)
    with connection.execute_wrapper(Fault(how)):
        answer = client.get("/")
    assert answer.status_code == 503
    assert answer["Retry-After"] == ("2" if how == "away" else "5")
    text = answer.content.decode()
    assert "Try again in a moment" in text and "Something went wrong" not in text
    # A phone's page (no sideways scroll: the site's stylesheet and viewport), and nothing of the
    # error itself: neither the database's message nor a stack.
    assert 'name="viewport" content="width=device-width' in text and "muster.css" in text
    assert "server closed" not in text and "canceling statement" not in text
    assert "Traceback" not in text
    if how == "timeout":
        assert "it took too long" in text
    else:
        assert "was away for a moment" in text
    assert client.get("/").status_code == 200  # and the next request is served


@pytest.mark.parametrize("how", HOW)
def test_the_api_says_which_of_the_two_it_was(people, how):
    client = signed_in(people)
    with connection.execute_wrapper(Fault(how)):
        answer = client.get("/api/v1/clubs/")
    assert answer.status_code == 503
    detail = answer.json()["detail"]
    assert "server closed" not in detail and "canceling statement" not in detail
    if how == "timeout":
        assert "took too long" in detail and answer["Retry-After"] == "5"
    else:
        assert "was away for a moment" in detail and answer["Retry-After"] == "2"
    assert client.get("/api/v1/clubs/").status_code == 200
