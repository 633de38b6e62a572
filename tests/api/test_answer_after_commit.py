"""After a commit the answer is never an error.

PostgreSQL ends the request's connection right after the submission committed (as a restart
does): the answer is built on a fresh connection; if the database stays away, the answer is a
201 with the stored event's uid and a note. A request that finds the database away before
anything is stored is a JSON 503 with Retry-After, and sending it again with the same
idempotency key stores it once.
"""

import dataclasses

import pytest
from django.db import connection
from rest_framework.test import APIClient

from api import journal as api_journal
from campaigns.models import Event
from campaigns.views import play
from muster import connection_loss
from tests.db_faults import database_away, lose_connection
from tests.workers import need

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql(monkeypatch):
    need(
        connection.vendor == "postgresql",
        "needs PostgreSQL (set DATABASE_URL=postgres://...): it terminates a backend",
    )
    monkeypatch.setattr(connection_loss, "PAUSES", (0.0, 0.05))  # the tries, shortened
    yield
    connection.close()


def _client(user):
    client = APIClient()
    client.force_authenticate(user)  # no session: nothing read from the database before the view
    return client


def _submit_then(monkeypatch, module, fault):
    """`module.submit` commits, then `fault()` happens before the answer is built. The answer
    is made to read the campaign again, as after a change of who plays which side (otherwise it
    is built from what the writer holds and needs no database)."""
    real = module.submit

    def submit_then_fault(*args, **kwargs):
        submission = dataclasses.replace(real(*args, **kwargs), after=None)
        fault()
        return submission

    monkeypatch.setattr(module, "submit", submit_then_fault)


def _events(skirmish, key):
    return list(
        Event.objects.filter(campaign=skirmish, idempotency_key=key).values_list("uid", flat=True)
    )


def test_a_connection_lost_after_the_commit_still_gets_the_full_answer(
    skirmish, people, monkeypatch
):
    _submit_then(monkeypatch, api_journal, lose_connection)
    answer = _client(people["alice"]).post(
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "side": "red", "idempotency_key": "after-commit-1"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert [e["kind"] for e in body["events"]][0] == "skirmish.supply" and body["state"] is not None
    assert [str(u) for u in _events(skirmish, "after-commit-1")] == [body["events"][0]["uid"]]


def test_the_database_staying_away_after_the_commit_answers_201_with_the_stored_uid(
    skirmish, people, monkeypatch
):
    away = []

    def go_away():
        away.append(database_away())
        away[0].__enter__()

    _submit_then(monkeypatch, api_journal, go_away)
    try:
        answer = _client(people["alice"]).post(
            f"/api/v1/campaigns/{skirmish.pk}/events/",
            {"kind": "skirmish.supply", "side": "red", "idempotency_key": "after-commit-2"},
            format="json",
        )
    finally:
        away[0].__exit__(None, None, None)
    assert answer.status_code == 201 and answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["uid"] == str(_events(skirmish, "after-commit-2")[0])
    assert body["events"] == [] and body["state"] is None and "Saved" in body["note"]

    # Sent again with the same key once the database is back: the same event, nothing doubled.
    monkeypatch.undo()
    again = _client(people["alice"]).post(
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "side": "red", "idempotency_key": "after-commit-2"},
        format="json",
    )
    assert again.status_code == 200 and again.json()["events"][0]["uid"] == body["uid"]
    assert len(_events(skirmish, "after-commit-2")) == 1


def test_the_database_away_before_the_write_is_a_json_503_and_the_resend_stores_once(
    skirmish, people, monkeypatch
):
    real = api_journal.submit

    def submit_while_away(*args, **kwargs):
        with database_away():
            return real(*args, **kwargs)

    monkeypatch.setattr(api_journal, "submit", submit_while_away)
    body = {"kind": "skirmish.supply", "side": "red", "idempotency_key": "before-commit"}
    refused = _client(people["alice"]).post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", body, format="json"
    )
    assert refused.status_code == 503 and refused["Retry-After"] == "2"
    assert "database was away" in refused.json()["detail"]
    assert _events(skirmish, "before-commit") == []

    monkeypatch.setattr(api_journal, "submit", real)
    stored = _client(people["alice"]).post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", body, format="json"
    )
    assert stored.status_code == 201 and len(_events(skirmish, "before-commit")) == 1


def test_the_page_after_a_lost_connection_says_it_was_saved(skirmish, people, monkeypatch):
    from django.test import Client

    client = Client()
    client.force_login(people["alice"])
    client.get(f"/campaigns/{skirmish.pk}/")  # the session row read once before the fault
    away = []

    def go_away():
        away.append(database_away())
        away[0].__enter__()

    _submit_then(monkeypatch, play, go_away)
    try:
        answer = client.post(
            f"/campaigns/{skirmish.pk}/submit/",
            {"_kind": "skirmish.supply", "_side": "red", "idempotency_key": "page-1"},
        )
    finally:
        away[0].__exit__(None, None, None)
    assert answer.status_code == 302
    assert len(_events(skirmish, "page-1")) == 1
    page = client.get(answer["Location"]).content.decode()
    assert "Saved: Roll for supply." in page
