"""A webhook posts only to public addresses over https: a loopback, private, link-local, multicast
or reserved address, or a name resolving to one, is refused when the URL is saved (a form error in
words) and again when it is posted (nothing reaches it), unless the operator allows it; the post
goes to the address that was checked, and no redirect is followed."""

from __future__ import annotations

import socket

import pytest

from campaigns.errors import DomainError
from campaigns.models import Webhook, WebhookDelivery
from campaigns.webhooks import addresses, delivery
from campaigns.webhooks.organizer import add, send_test

REFUSED = [
    ("https://127.0.0.1/hook", "loopback"),
    ("https://[::1]/hook", "loopback"),
    ("https://10.1.2.3/hook", "private network"),
    ("https://192.168.0.10/hook", "private network"),
    ("https://172.16.5.4/hook", "private network"),
    ("https://169.254.169.254/latest/meta-data", "link-local"),
    ("https://[fe80::1]/hook", "link-local"),
    ("https://224.0.0.1/hook", "multicast"),
    ("https://0.0.0.0/hook", "unspecified"),
    ("https://240.0.0.1/hook", "reserved"),
    ("https://[::ffff:127.0.0.1]/hook", "loopback"),
    ("https://localhost/hook", "loopback"),  # a name resolving to loopback
]


def _resolving(monkeypatch, table):
    """Names resolved from `table` (name -> addresses) instead of the DNS."""

    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in table:
            return real(host, port, *args, **kwargs)
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in table[host]
        ]

    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(("url", "words"), REFUSED)
def test_a_private_address_is_refused_in_words(url, words):
    with pytest.raises(DomainError) as error:
        addresses.resolve(url)
    assert error.value.field == "url"
    assert words in error.value.message
    assert "webhooks post only to public addresses" in error.value.message


def test_a_name_with_one_private_address_among_public_ones_is_refused(monkeypatch):
    _resolving(monkeypatch, {"hooks.example": ["93.184.215.14", "10.0.0.7"]})
    with pytest.raises(DomainError):
        addresses.resolve("https://hooks.example/x")


def test_a_public_address_over_https_is_kept_and_connected_to_as_checked(monkeypatch):
    _resolving(monkeypatch, {"hooks.example": ["93.184.215.14"]})
    target = addresses.resolve("https://hooks.example/in?k=1")
    assert (target.address, target.host, target.port, target.path) == (
        "93.184.215.14",
        "hooks.example",
        443,
        "/in?k=1",
    )
    assert target.host_header == "hooks.example"


@pytest.mark.parametrize(
    "url",
    ["http://93.184.215.14/hook", "ftp://93.184.215.14/", "https://user:pw@93.184.215.14/", "nope"],
)
def test_plain_http_credentials_and_other_schemes_are_refused(url):
    with pytest.raises(DomainError):
        addresses.resolve(url)


def test_the_operator_flags_allow_a_local_receiver(settings):
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = True
    assert addresses.resolve("https://127.0.0.1/hook").address == "127.0.0.1"
    with pytest.raises(DomainError):
        addresses.resolve("http://127.0.0.1/hook")  # http needs its own flag
    settings.MUSTER_WEBHOOKS_ALLOW_HTTP = True
    assert addresses.resolve("http://127.0.0.1:8080/hook").port == 8080


def test_saving_a_private_address_is_a_form_error_and_stores_nothing(club, people, client_for):
    answer = client_for("olga").post(
        f"/clubs/{club.slug}/webhooks/",
        {"new-url": "https://169.254.169.254/latest", "new-format": "json"},
    )
    assert answer.status_code == 400
    assert "The address leads to a link-local address" in answer.content.decode()
    assert not Webhook.objects.exists()
    with pytest.raises(DomainError):
        add(user=people["olga"], club=club, url="https://10.0.0.1/", format_="json")


def test_a_name_resolving_to_loopback_at_delivery_time_is_not_posted_to(
    club, people, receiver, monkeypatch, settings
):
    """Saved while it resolved to a public address; by the time of the post it resolves to this
    machine: refused, nothing reaches the receiver (no DNS-rebinding gap)."""
    _resolving(monkeypatch, {"hooks.example": ["93.184.215.14"]})
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = False
    hook = add(
        user=people["olga"], club=club, url=f"http://hooks.example:{receiver.port}/", format_="json"
    )
    _resolving(monkeypatch, {"hooks.example": ["127.0.0.1"]})
    send_test(user=people["olga"], webhook=hook)
    assert delivery.deliver_due(hook.pk) == 0
    row = WebhookDelivery.objects.get(webhook=hook)
    assert "loopback" in row.last_error
    assert receiver.posts == []


def test_the_post_goes_to_the_checked_address_with_the_name_as_host(
    club, people, receiver, monkeypatch
):
    _resolving(monkeypatch, {"hooks.example": ["127.0.0.1"]})
    hook = Webhook.objects.create(club=club, url=f"http://hooks.example:{receiver.port}/in")
    send_test(user=people["olga"], webhook=hook)
    assert delivery.deliver_due(hook.pk) == 1, WebhookDelivery.objects.get().last_error
    assert receiver.posts[0]["headers"]["Host"] == f"hooks.example:{receiver.port}"
    assert receiver.posts[0]["path"] == "/in"


def test_a_redirect_is_not_followed(hook, receiver, people):
    receiver.answers, receiver.location = [302], "http://127.0.0.1:1/elsewhere"
    send_test(user=people["olga"], webhook=hook)
    assert delivery.deliver_due(hook.pk) == 0
    row = WebhookDelivery.objects.get(webhook=hook)
    assert "redirect" in row.last_error
    assert len(receiver.posts) == 1
