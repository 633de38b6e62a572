"""/api/v1/clubs/<slug>/webhooks/: an organizer adds one (its secret answered once), reads it with
its last posts, changes and removes it; a refused address is a 400 naming `url`; a player gets
403 and a stranger 404, and neither sees an address or a secret."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from campaigns.models import Webhook, WebhookDelivery

PUBLIC = "https://93.184.215.14/hook"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


def test_an_organizer_adds_reads_changes_and_removes_a_webhook(club, people):
    olga, base = _client(people["olga"]), f"/api/v1/clubs/{club.slug}/webhooks/"
    made = _post(olga, base, {"url": PUBLIC, "format": "discord"})
    assert made.status_code == 201
    body = made.json()
    hook = Webhook.objects.get()
    assert body["secret"] == hook.secret and body["format"] == "discord"
    listed = olga.get(base).json()
    assert [h["url"] for h in listed["results"]] == [PUBLIC]
    assert "secret" not in listed["results"][0]  # answered once only
    WebhookDelivery.objects.create(
        webhook=hook, event_key="test/1", event={"kind": "test", "words": "A test"}
    )
    one = olga.get(f"{base}{hook.pk}/").json()
    assert one["deliveries"][0]["text"] == "A test" and one["deliveries"][0]["status"] == "pending"
    changed = olga.patch(f"{base}{hook.pk}/", {"format": "json"}, content_type="application/json")
    assert changed.status_code == 200 and changed.json()["format"] == "json"
    assert olga.delete(f"{base}{hook.pk}/").status_code == 200
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https://127.0.0.1/x", "loopback"),
        ("https://10.2.3.4/x", "private network"),
        ("https://169.254.169.254/", "link-local"),
        ("http://93.184.215.14/x", "https://"),
    ],
)
def test_a_refused_address_is_a_400_naming_url(club, people, url, words):
    answer = _post(_client(people["olga"]), f"/api/v1/clubs/{club.slug}/webhooks/", {"url": url})
    assert answer.status_code == 400
    assert words in answer.json()["url"][0]
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("carol", 403), ("alice", 403), ("outsider", 404)])
def test_a_non_organizer_neither_sees_nor_changes_webhooks(club, people, who, status):
    hook = Webhook.objects.create(club=club, url=PUBLIC)
    client, base = _client(people[who]), f"/api/v1/clubs/{club.slug}/webhooks/"
    answers = [
        client.get(base),
        _post(client, base, {"url": PUBLIC}),
        client.get(f"{base}{hook.pk}/"),
        client.patch(f"{base}{hook.pk}/", {"url": PUBLIC + "2"}, content_type="application/json"),
        client.delete(f"{base}{hook.pk}/"),
    ]
    for answer in answers:
        assert answer.status_code == status
        assert hook.secret not in answer.content.decode() and PUBLIC not in answer.content.decode()
    assert list(Webhook.objects.values_list("url", flat=True)) == [PUBLIC]
