"""Over https the post connects to the checked address and still checks the receiver's certificate
against the URL's name (TLS's server name and hostname check are the name, not the address): a
certificate for the name is accepted, one for another name is refused in words."""

from __future__ import annotations

import socket
import subprocess

import pytest

from campaigns.models import Webhook, WebhookDelivery
from campaigns.webhooks import addresses, delivery
from campaigns.webhooks.organizer import send_test

from .conftest import Receiver


def _certificates(folder, name: str) -> tuple[str, tuple[str, str]]:
    """A test authority and a server certificate it signed for `name`: (ca, (chain, key))."""

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "1",
        "-subj",
        "/CN=Muster test authority",
    )
    run(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "srv.key",
        "-out",
        "srv.csr",
        "-subj",
        f"/CN={name}",
    )
    (folder / "ext.cnf").write_text(f"subjectAltName=DNS:{name}\n")
    run(
        "x509",
        "-req",
        "-in",
        "srv.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "srv.pem",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
    )
    return str(folder / "ca.pem"), (str(folder / "srv.pem"), str(folder / "srv.key"))


@pytest.fixture
def hooks_example_is_here(monkeypatch, local_posts_allowed):
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "hooks.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(
    ("certified", "delivered"), [("hooks.example", True), ("other.example", False)]
)
def test_the_receivers_certificate_is_checked_against_the_urls_name(
    certified, delivered, tmp_path, club, people, monkeypatch, hooks_example_is_here
):
    ca, chain = _certificates(tmp_path, certified)
    monkeypatch.setattr(delivery, "CA_CERTS", ca)
    receiver = Receiver(tls=chain)
    try:
        hook = Webhook.objects.create(club=club, url=f"https://hooks.example:{receiver.port}/in")
        send_test(user=people["olga"], webhook=hook)
        assert delivery.deliver_due(hook.pk) == int(delivered)
        row = WebhookDelivery.objects.get(webhook=hook)
        if delivered:
            assert receiver.posts[0]["headers"]["Host"] == f"hooks.example:{receiver.port}"
        else:
            assert receiver.posts == []
            assert row.last_error == (
                "The receiver's certificate was refused (https could not be trusted)."
            )
    finally:
        receiver.close()
