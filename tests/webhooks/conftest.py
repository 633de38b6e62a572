"""A local receiver (a small http.server thread answering as a test scripts it), the operator's
flags that let a test post to it, and a campaign whose club has a webhook before it starts."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Receiver:
    """Answers each post with the next of `answers` (then 200); keeps what it was sent."""

    def __init__(self, tls: tuple[str, str] | None = None) -> None:
        self.answers: list[int] = []
        self.posts: list[dict] = []
        self.location = ""
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.posts.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status = outer.answers.pop(0) if outer.answers else 200
                self.send_response(status)
                if outer.location:
                    self.send_header("Location", outer.location)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:  # (certificate chain, key): an https receiver
            import ssl

            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook?x=1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def json(self, n: int = -1) -> dict:
        return json.loads(self.posts[n]["body"])

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def local_posts_allowed(settings):
    """The operator's flags, as a development site sets them (MUSTER_WEBHOOKS_ALLOW_PRIVATE and
    MUSTER_WEBHOOKS_ALLOW_HTTP)."""
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = True
    settings.MUSTER_WEBHOOKS_ALLOW_HTTP = True
    return settings


@pytest.fixture
def receiver(local_posts_allowed):
    found = Receiver()
    yield found
    found.close()


@pytest.fixture
def hook(club, receiver):
    from campaigns.models import Webhook

    return Webhook.objects.create(club=club, url=receiver.url, format=Webhook.PLAIN)


def start_war(club, people, name="Test war"):
    """The skirmish fixture's campaign, made after the club's webhook exists."""
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name=name
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    return campaign


def play_round(campaign, people, *, secret_buys: bool, red: int = 3, blue: int = 1) -> None:
    """One round to its confirmed result; `secret_buys`: both sides also buy reinforcements, in
    secret (what no post may tell)."""
    from campaigns.services.journal import submit

    submit(campaign, people["alice"], "skirmish.supply")
    submit(campaign, people["bob"], "skirmish.supply")
    if secret_buys:
        submit(campaign, people["alice"], "skirmish.buy", {"count": 2}, side="red")
        submit(campaign, people["bob"], "skirmish.buy", {"count": 1}, side="blue")
    rnd = campaign.scenarios.filter(status="current").values_list("index", flat=True).first()
    for who, stance in (("alice", "attack"), ("bob", "hold")):
        submit(
            campaign, people[who], "sealed.submitted", {"key": f"stance:{rnd}", "choice": stance}
        )
    submit(
        campaign,
        people["alice"],
        "result.submitted",
        {"scenario": rnd, "data": {"red": red, "blue": blue}},
    )
    submit(campaign, people["bob"], "result.confirmed", {"scenario": rnd})


@pytest.fixture
def client_for(people):
    from django.test import Client

    def make(name: str) -> Client:
        client = Client()
        if name != "anonymous":
            client.force_login(people[name])
        return client

    return make
