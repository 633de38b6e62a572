"""Subscribing a device from the settings page: a good subscription is kept (201); bad input (not
https, too long, a private address, keys missing or malformed) is a 400 with each field's errors
and nothing kept; the bound per person; removing a device; the page without keys says push is
off, and without JavaScript that push needs it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import PushSubscription
from campaigns.push import subscriptions

from .conftest import new_device


@pytest.fixture
def bob_client(people):
    client = Client()
    client.force_login(people["bob"])
    return client


def _subscribe(client, fields):
    return client.post(reverse("push-subscribe"), fields)


def test_a_device_subscribes_and_is_listed(push_on, endpoint, bob_client, people):
    answer = _subscribe(bob_client, new_device(endpoint.base + "/push/1", "Pixel of Bob").fields)
    assert answer.status_code == 201, answer.content
    device = PushSubscription.objects.get(user=people["bob"])
    assert device.label == "Pixel of Bob"
    page = bob_client.get(reverse("mail-settings")).content.decode()
    assert "Pixel of Bob" in page
    assert "Push notices need JavaScript" in page
    assert push_on in page  # the public key, for PushManager.subscribe


def _bad_cases(base):
    good = new_device(base + "/push/1").fields
    return [
        ({**good, "endpoint": "ftp://push.example.org/x"}, "endpoint"),
        ({**good, "endpoint": base + "/" + "x" * 600}, "endpoint"),
        ({**good, "p256dh": ""}, "p256dh"),
        ({**good, "p256dh": "not-a-key"}, "p256dh"),
        ({k: v for k, v in good.items() if k != "auth"}, "auth"),
        ({**good, "auth": "AAAA"}, "auth"),
        ({**good, "label": "x" * 61}, "label"),
    ]


def test_bad_input_is_refused_field_by_field_and_nothing_is_kept(push_on, endpoint, bob_client):
    for fields, bad in _bad_cases(endpoint.base):
        answer = _subscribe(bob_client, fields)
        assert answer.status_code == 400, (fields, answer.content)
        assert bad in answer.json()["errors"], (fields, answer.json())
    assert not PushSubscription.objects.exists()


def test_plain_http_and_private_addresses_are_refused_unless_allowed(
    push_on, endpoint, bob_client, settings
):
    fields = new_device(endpoint.base + "/push/1").fields
    settings.MUSTER_PUSH_ALLOW_HTTP = False
    answer = _subscribe(bob_client, fields)
    assert answer.status_code == 400 and "https" in answer.json()["errors"]["endpoint"][0]
    settings.MUSTER_PUSH_ALLOW_HTTP, settings.MUSTER_PUSH_ALLOW_PRIVATE = True, False
    answer = _subscribe(bob_client, fields)
    assert answer.status_code == 400 and "loopback" in answer.json()["errors"]["endpoint"][0]
    assert not PushSubscription.objects.exists()


def test_at_most_so_many_devices(push_on, endpoint, bob_client, people, monkeypatch):
    monkeypatch.setattr(subscriptions, "MAX_PER_PERSON", 2)
    for n in range(2):
        assert (
            _subscribe(bob_client, new_device(f"{endpoint.base}/p/{n}").fields).status_code == 201
        )
    answer = _subscribe(bob_client, new_device(f"{endpoint.base}/p/3").fields)
    assert answer.status_code == 400 and "endpoint" in answer.json()["errors"]
    again = new_device(f"{endpoint.base}/p/0").fields  # the same device again: its keys renewed
    assert _subscribe(bob_client, again).status_code == 201
    assert PushSubscription.objects.filter(user=people["bob"]).count() == 2


def test_a_device_is_removed_by_its_button_only_by_its_person(
    push_on, endpoint, bob_client, people
):
    mine = subscriptions.subscribe(people["bob"], new_device(endpoint.base + "/p/b").fields)
    theirs = subscriptions.subscribe(people["alice"], new_device(endpoint.base + "/p/a").fields)
    answer = bob_client.post(reverse("push-remove"), {"device": theirs.pk})
    assert answer.status_code == 302
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()
    bob_client.post(reverse("push-remove"), {"device": mine.pk})
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()


def test_a_device_subscribed_by_another_person_moves_to_them(push_on, endpoint, people):
    fields = new_device(endpoint.base + "/p/shared").fields
    subscriptions.subscribe(people["bob"], fields)
    subscriptions.subscribe(people["alice"], fields)
    assert PushSubscription.objects.get().user == people["alice"]


def test_without_keys_the_page_says_push_is_off(settings, bob_client, endpoint):
    settings.MUSTER_VAPID_PRIVATE_KEY = settings.MUSTER_VAPID_PUBLIC_KEY = ""
    page = bob_client.get(reverse("mail-settings")).content.decode()
    assert "Push notices are off on this site" in page
    answer = _subscribe(bob_client, new_device(endpoint.base + "/p/1").fields)
    assert answer.status_code == 400
    assert not PushSubscription.objects.exists()


def test_the_service_worker_shows_a_push_and_opens_its_link(client):
    worker = client.get("/sw.js").content.decode()
    assert 'addEventListener("push"' in worker and "showNotification" in worker
    assert 'addEventListener("notificationclick"' in worker and "openWindow" in worker
