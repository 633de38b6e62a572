"""Every API route × every kind of viewer → the status it must answer.

Viewers (conftest.py): anonymous, outsider (no member), carol (club member
who plays nothing in the campaign), alice (red), bob (blue), olga (organizer
playing red), rita (referee). A non-member never learns that a club or campaign
exists: 404, the same answer as for a thing that does not exist. Anonymous
requests get DRF's 403 (session authentication comes first, so no 401 challenge).

The completeness test walks the URL resolver: a route under /api/ without a row
here (or in COVERED_ELSEWHERE) fails it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.urls import URLResolver, get_resolver

from campaigns.models import Invitation, Notice, Webhook

from .conftest import VIEWERS, post

NOT_FOUND = {"detail": "Not found."}


def everyone(ok=200):
    return dict.fromkeys(VIEWERS, ok)


def signed_in(ok=200):
    return {**everyone(ok), "anonymous": 403}


def members(ok=200):
    return {**signed_in(ok), "outsider": 404}


def organizer(ok=200):
    return {**members(403), "olga": ok}


@dataclass(frozen=True)
class Row:
    method: str
    route: str  # as the URL resolver spells it
    expect: dict
    body: object = None  # a dict, or a function of the context
    params: dict = field(default_factory=dict)  # path parameters other than the context's


CAMPAIGN = "api/v1/campaigns/<int:campaign_id>/"

ROWS = [
    Row(
        "POST",
        "api/v1/auth/token/",
        everyone(200),
        {"username": "alice", "password": "pass-word-123"},
    ),
    Row("GET", "api/v1/systems/", signed_in()),
    Row("GET", "api/v1/systems/<slug:slug>/", signed_in(), params={"slug": "skirmish"}),
    Row("GET", "api/v1/clubs/", signed_in()),
    Row("POST", "api/v1/clubs/", signed_in(201), {"name": "Another club"}),
    Row("GET", "api/v1/clubs/<slug:slug>/", members()),
    Row("GET", "api/v1/clubs/<slug:slug>/members/", members()),
    Row(
        "POST",
        "api/v1/clubs/<slug:slug>/members/<str:username>/role/",
        organizer(),
        {"role": "organizer"},
    ),
    Row("POST", "api/v1/clubs/<slug:slug>/hand-over/", organizer(), {"username": "carol"}),
    Row("GET", "api/v1/clubs/<slug:slug>/invitations/", organizer()),
    Row("POST", "api/v1/clubs/<slug:slug>/invitations/", organizer(201), {"role": "player"}),
    Row("POST", "api/v1/clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/", organizer()),
    # A club's webhooks: its organizers' only (a public address as an IP: no DNS in the test).
    Row("GET", "api/v1/clubs/<slug:slug>/webhooks/", organizer()),
    Row(
        "POST",
        "api/v1/clubs/<slug:slug>/webhooks/",
        organizer(201),
        {"url": "https://93.184.215.14/hook", "format": "discord"},
    ),
    Row("GET", "api/v1/clubs/<slug:slug>/webhooks/<int:webhook_id>/", organizer()),
    Row("PATCH", "api/v1/clubs/<slug:slug>/webhooks/<int:webhook_id>/", organizer()),
    Row("DELETE", "api/v1/clubs/<slug:slug>/webhooks/<int:webhook_id>/", organizer()),
    Row(
        "POST",
        "api/v1/invitations/accept/",
        signed_in(),
        lambda ctx: {"code": ctx["invitation"].code},
    ),
    # Notices: one's own; bob's notice is nobody else's (404, like a missing one).
    Row("GET", "api/v1/notices/", signed_in()),
    Row("POST", "api/v1/notices/read/", signed_in(), {"up_to": 1}),
    Row("GET", "api/v1/notices/<int:notice_id>/", {**signed_in(404), "bob": 200}),
    Row("PATCH", "api/v1/notices/<int:notice_id>/", {**signed_in(404), "bob": 200}),
    Row("GET", "api/v1/campaigns/", signed_in()),
    Row(
        "POST",
        "api/v1/campaigns/",
        organizer(201),
        {"club": "tuesday", "system": "skirmish", "variant": "short", "name": "Another war"},
    ),
    Row("GET", CAMPAIGN, members()),
    Row("GET", CAMPAIGN + "state/", members()),
    Row("GET", CAMPAIGN + "odds/", members()),
    Row("GET", CAMPAIGN + "trends/", members()),
    Row("GET", CAMPAIGN + "actions/", members()),
    Row("GET", CAMPAIGN + "events/", members()),
    # A red step: red's players and the referee (acting for red) may; blue and bystanders may not.
    Row(
        "POST",
        CAMPAIGN + "events/",
        {**members(403), "alice": 201, "olga": 201, "rita": 201},
        {"kind": "skirmish.supply", "side": "red"},
    ),
    Row("GET", CAMPAIGN + "export/", members()),
    Row("GET", CAMPAIGN + "scenarios/", members()),
    Row("GET", CAMPAIGN + "roster/", members()),
    Row("POST", CAMPAIGN + "players/", organizer(201), {"side": "blue", "username": "carol"}),
    Row("POST", CAMPAIGN + "players/remove/", organizer(), {"side": "blue", "username": "bob"}),
    Row(
        "POST",
        CAMPAIGN + "players/replace/",
        organizer(),
        {"side": "blue", "old": "bob", "new": "carol"},
    ),
    Row("POST", CAMPAIGN + "referee/", organizer(), {"username": "carol"}),
    # olga plays red: in play her ending is a proposal (200 all the same; who ends directly and who
    # proposes it: tests/access/test_ending_and_the_referee_in_play.py)
    Row("POST", CAMPAIGN + "finish/", organizer(), {"reason": "Called off"}),
    # The campaign is in play: the organizer is told to end it first (400); restoring one that is
    # not archived is a 400 too (tests/services/test_archive_and_templates.py archives for real).
    Row("POST", CAMPAIGN + "archive/", organizer(400)),
    Row("POST", CAMPAIGN + "restore/", organizer(400)),
    Row("GET", CAMPAIGN + "again/", organizer()),
    Row("POST", CAMPAIGN + "again/", organizer(201), {"name": "The same again"}),
    Row("GET", "api/v1/", everyone()),  # the API root: addresses, never data
    Row("GET", "api/schema/", everyone()),
    Row("GET", "api/docs/", everyone()),
    Row("GET", "api/redoc/", everyone()),
]

# Routes mounted from another app's urls (rosters.api_urls) whose permission tests live
# with that app, in tests/rosters/: (method, route). Only list routes those tests cover.
COVERED_ELSEWHERE: set[tuple[str, str]] = {
    # tests/rosters/test_api.py: the same viewers, for public, side and referee sheets and their jobs.
    ("GET", "api/v1/campaigns/<int:campaign_id>/sheets/"),
    ("POST", "api/v1/campaigns/<int:campaign_id>/sheets/"),
    ("GET", "api/v1/jobs/<str:job_id>/"),
    ("POST", "api/v1/jobs/<str:job_id>/retry/"),
    ("GET", "api/v1/jobs/<str:job_id>/file/"),
    # tests/api/test_input_is_bounded.py: any other address under /api/ is a JSON 404 for everyone.
    ("ANY", "api/^.*$"),
}

_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def api_routes() -> set[tuple[str, str]]:
    """(METHOD, route) for every route under api/, from the URL resolver."""
    found = set()

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif route.startswith("api/"):
                view = getattr(pattern.callback, "cls", None) or getattr(
                    pattern.callback, "view_class", None
                )
                if (
                    view is None
                ):  # a plain function view: its methods are unknown, so it needs a row per method
                    found.add(("ANY", route))
                    continue
                for method in view.http_method_names:
                    if method not in ("options", "head", "trace") and hasattr(view, method):
                        found.add((method.upper(), route))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_api_route_has_a_row():
    rows = {(row.method, row.route) for row in ROWS}
    assert len(rows) == len(ROWS), "a route is listed twice"
    routes = api_routes()
    assert routes - rows - COVERED_ELSEWHERE == set(), "API routes without a permission-matrix row"
    assert rows - routes == set(), "rows for routes that no longer exist"
    assert all(set(row.expect) == set(VIEWERS) for row in ROWS)


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.method} {row.route}")
def test_permission(row, viewer, skirmish, people, client_for):
    invitation = Invitation.objects.create(club=skirmish.club, created_by=people["olga"])
    notice = Notice.objects.create(
        recipient=people["bob"], campaign=skirmish, key="turn/blue", words="Roll", link="/"
    )
    ctx = {
        "notice_id": notice.pk,
        "slug": skirmish.club.slug,
        "campaign_id": skirmish.pk,
        "username": "carol",
        "invitation_id": invitation.pk,
        "invitation": invitation,
        "webhook_id": Webhook.objects.create(
            club=skirmish.club, url="https://93.184.215.14/hook"
        ).pk,
    }
    values = {**ctx, **row.params}
    url = "/" + _PARAM.sub(lambda m: str(values[m.group(1)]), row.route)
    client = client_for(viewer)
    if row.method == "GET":
        response = client.get(url)
    else:
        body = row.body(ctx) if callable(row.body) else row.body
        response = (
            post(client, url, body) if row.method == "POST" else client.generic(row.method, url)
        )
    expected = row.expect[viewer]
    assert response.status_code == expected, (
        url,
        viewer,
        getattr(response, "data", response.content[:300]),
    )
    if expected == 404:
        assert response.json() == NOT_FOUND  # nothing tells a stranger what is there
