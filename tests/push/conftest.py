"""Web Push against a push endpoint of the test's own: an http.server in a thread on 127.0.0.1
(the site allowed plain http and private addresses, as a test site may), each device a key pair
and an auth secret the test keeps, so it decrypts what was pushed (RFC 8291) and reads exactly
what the device would. Notices are made and planned the moment each change is written (as the
task after commit does); `push_all` sends every push owed (what the task and the sweep do)."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Endpoint:
    """What the push endpoint received (path, headers, body), and the status it answers."""

    base: str
    status: int = 201
    received: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)


@pytest.fixture
def endpoint():
    found = Endpoint(base="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            found.received.append((self.path, dict(self.headers), body))
            self.send_response(found.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    found.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield found
    server.shutdown()
    server.server_close()


@pytest.fixture
def push_on(settings):
    from campaigns.push import keys

    private, public = keys.make_pair()
    settings.MUSTER_VAPID_PRIVATE_KEY, settings.MUSTER_VAPID_PUBLIC_KEY = private, public
    settings.MUSTER_VAPID_SUBJECT = "mailto:operator@example.org"
    settings.MUSTER_PUSH_ALLOW_HTTP = settings.MUSTER_PUSH_ALLOW_PRIVATE = True
    return public


@dataclass
class Device:
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    fields: dict[str, str]

    def read(self, body: bytes) -> dict[str, str]:
        """The payload as the device decrypts it."""
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def new_device(endpoint_url: str, label: str = "phone") -> Device:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    auth = os.urandom(16)
    fields = {"endpoint": endpoint_url, "p256dh": b64(public), "auth": b64(auth), "label": label}
    return Device(key, auth, fields)


@pytest.fixture
def planned(monkeypatch):
    from campaigns.mails import outbox as mail_outbox
    from campaigns.notices import making, outbox
    from campaigns.push import outbox as push_outbox

    def send(campaign_id):
        making.process(campaign_id)
        mail_outbox.plan(campaign_id)
        push_outbox.plan(campaign_id)

    monkeypatch.setattr(outbox, "send", send)


@pytest.fixture
def push_all():
    from campaigns.push import outbox, sending

    def run() -> int:
        return sum(sending.send(push_id) for push_id in outbox.owed())

    return run
