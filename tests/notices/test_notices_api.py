"""/api/v1/notices/: the same notices as the inbox, one's own only; another person's notice id is
a 404 like a missing one; bad input is a 400 naming the field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaigns.models import Notice


@pytest.fixture
def api_for(people):
    def make(name: str) -> APIClient:
        client = APIClient()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make


def test_the_list_is_ones_own_open_notices_in_words(notices_inline, skirmish, api_for):
    answer = api_for("bob").get("/api/v1/notices/")
    assert answer.status_code == 200
    listed = answer.json()["results"]
    assert [(n["key"], n["words"], n["waiting"]) for n in listed] == [
        ("turn/blue", "Roll for supply", True),  # newest first
        ("campaign/active", "Test war has started", False),
    ]
    assert all(n["campaign"] == skirmish.pk and n["campaign_name"] == "Test war" for n in listed)
    assert all(n["read_at"] is None for n in listed)
    assert api_for("carol").get("/api/v1/notices/").json()["results"] == []


def test_unread_only_counts_what_is_unread(notices_inline, skirmish, people, api_for):
    bob = api_for("bob")
    turn = Notice.objects.get(recipient=people["bob"], key="turn/blue")
    assert bob.get("/api/v1/notices/?unread=true").json()["count"] == 2
    marked = bob.patch(f"/api/v1/notices/{turn.pk}/", {"read": True}, format="json")
    assert marked.status_code == 200 and marked.json()["read_at"] is not None
    assert bob.get("/api/v1/notices/?unread=true").json()["count"] == 1
    again = bob.patch(f"/api/v1/notices/{turn.pk}/", {"read": False}, format="json")
    assert again.status_code == 200 and again.json()["read_at"] is None
    assert bob.get("/api/v1/notices/?unread=yes").json() == {"unread": ["Must be true or false."]}


def test_mark_all_read_up_to_the_newest_seen(notices_inline, skirmish, people, api_for):
    bob = api_for("bob")
    newest = max(n["id"] for n in bob.get("/api/v1/notices/").json()["results"])
    answer = bob.post("/api/v1/notices/read/", {"up_to": newest}, format="json")
    assert answer.status_code == 200
    assert [(n["key"], n["read_at"] is not None) for n in answer.json()] == [("turn/blue", True)]
    assert bob.get("/api/v1/notices/?unread=true").json()["count"] == 0


def test_bad_input_is_a_400_naming_the_field(notices_inline, skirmish, people, api_for):
    bob = api_for("bob")
    for body in ({}, {"up_to": 0}, {"up_to": "x"}):
        answer = bob.post("/api/v1/notices/read/", body, format="json")
        assert answer.status_code == 400 and set(answer.json()) == {"up_to"}, body
    turn = Notice.objects.get(recipient=people["bob"], key="turn/blue")
    answer = bob.patch(f"/api/v1/notices/{turn.pk}/", {"read": "maybe"}, format="json")
    assert answer.status_code == 400 and set(answer.json()) == {"read"}


def test_another_persons_notice_is_a_404_like_a_missing_one(
    notices_inline, skirmish, people, api_for
):
    theirs = Notice.objects.get(recipient=people["bob"], key="turn/blue")
    alice = api_for("alice")
    for method in ("get", "patch"):
        hidden = getattr(alice, method)(f"/api/v1/notices/{theirs.pk}/", format="json")
        missing = getattr(alice, method)("/api/v1/notices/99999999/", format="json")
        assert hidden.status_code == missing.status_code == 404
        assert hidden.json() == missing.json() == {"detail": "Not found."}
    alice.post("/api/v1/notices/read/", {"up_to": theirs.pk + 100}, format="json")
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_the_notices_need_a_sign_in(api_for):
    assert api_for("anonymous").get("/api/v1/notices/").status_code == 403


def test_a_notice_of_no_campaign_lists_with_no_campaign(club, people, api_for, django_user_model):
    from campaigns.services import clubs

    django_user_model.objects.create_user("dora", email="dora@example.org", password="x")
    clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    client = APIClient()
    client.force_login(django_user_model.objects.get(username="dora"))
    listed = client.get("/api/v1/notices/").json()["results"]
    assert [(n["campaign"], n["campaign_name"], n["link"]) for n in listed] == [(None, None, "/")]
