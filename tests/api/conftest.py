"""API fixtures: a client signed in as one of the named people (conftest.py)."""

import pytest
from rest_framework.test import APIClient

# The permission matrix's viewers: anonymous, a non-member, a club member who is
# not in the campaign, red's player, blue's player, the organizer who plays red,
# the referee.
VIEWERS = ("anonymous", "outsider", "carol", "alice", "bob", "olga", "rita")


@pytest.fixture
def client_for(people):
    """client_for("alice") -> an APIClient signed in (session) as alice; "anonymous" -> not signed in."""

    def make(name: str) -> APIClient:
        client = APIClient()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make


@pytest.fixture
def campaign_url(skirmish):
    def url(tail: str = "") -> str:
        return f"/api/v1/campaigns/{skirmish.pk}/{tail}"

    return url


def post(client, url, data=None, **extra):
    return client.post(url, data if data is not None else {}, format="json", **extra)
