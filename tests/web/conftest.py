"""Page fixtures: a browser-like client signed in as one of the named people
(conftest.py: olga organizer playing red, alice red, bob blue, rita referee,
carol member playing nothing, outsider)."""

import pytest
from django.test import Client

# The permission matrix's viewers, as in the API's.
VIEWERS = ("anonymous", "outsider", "carol", "alice", "bob", "olga", "rita")


@pytest.fixture
def client_for(people):
    def make(name: str) -> Client:
        client = Client()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make


def text_of(response) -> str:
    return response.content.decode()
