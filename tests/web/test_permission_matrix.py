"""Every page × every kind of viewer → the status it must answer.

Viewers (conftest.py): anonymous, outsider (no member), carol (club member
who plays nothing in the campaign), alice (red), bob (blue), olga (organizer
playing red), rita (referee). Anonymous visitors are sent to the login page; a
non-member never learns that a club or campaign exists (404, like a thing that
does not exist); a member who may see a thing but not do it gets 403.

The context holds a private event of red (its supply roll): the pages about it
exist for red and the referee only.

The completeness test walks the URL resolver: a page of campaigns.urls or
rosters.urls (anything outside /api/ and /admin/) without a row here fails it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.files.base import ContentFile
from django.urls import URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaigns.mails import unsubscribe
from campaigns.models import Invitation, Notice, Webhook, WebhookDelivery
from campaigns.services.journal import submit
from rosters.models import PrintJob
from rosters.services import request_sheet
from tests.factories import UserFactory

from .conftest import VIEWERS

LOGIN = "login"


def everyone(ok=200):
    return dict.fromkeys(VIEWERS, ok)


def signed_in(ok=200):
    return {**everyone(ok), "anonymous": LOGIN}


def members(ok=200):
    return {**signed_in(ok), "outsider": 404}


def organizer(ok=302, others=403):
    return {**members(others), "olga": ok}


def red(ok=200, others=404):
    """Something about red's private event: red's players and the referee."""
    return {**members(others), "alice": ok, "olga": ok, "rita": ok}


@dataclass(frozen=True)
class Row:
    method: str
    route: str  # as the URL resolver spells it
    expect: dict
    body: object = None  # a dict, or a function of the context
    params: dict = field(default_factory=dict)  # path parameters other than the context's


C = "campaigns/<int:pk>/"
RED_EVENT = C + "history/<uuid:uid>/"

ROWS = [
    # --- auth: open to everyone --------------------------------------------------------------
    Row(
        "GET", "accounts/login/", {**everyone(302), "anonymous": 200}
    ),  # signed in: on to the dashboard
    Row("POST", "accounts/logout/", everyone(302)),
    # The site as an app on a phone: its manifest and service worker, the same for everyone.
    Row("GET", "manifest.webmanifest", everyone()),
    Row("GET", "sw.js", everyone()),
    Row("GET", "accounts/password/change/", signed_in()),
    Row("GET", "accounts/password/change/done/", signed_in()),
    Row("GET", "accounts/password/reset/", everyone()),
    Row("GET", "accounts/password/reset/sent/", everyone()),
    Row(
        "GET", "accounts/password/reset/<uidb64>/<token>/", everyone(302)
    ),  # a good link sets its session
    Row("GET", "accounts/password/reset/done/", everyone()),
    Row("GET", "join/<str:code>/", everyone()),
    # Mail settings: one's own; a mail's links work signed in or not (the token says who).
    Row("GET", "accounts/settings/", signed_in()),
    Row("POST", "accounts/settings/", signed_in(302), {"action": "default", "choice": "at_once"}),
    # Web Push: the person's own devices only (push off in the tests: a subscribe is refused).
    Row("POST", "accounts/push/subscribe/", signed_in(400), {"endpoint": "https://x.example/1"}),
    Row("POST", "accounts/push/remove/", signed_in(302), {"device": "0"}),
    Row("GET", "accounts/address/<str:signed>/", everyone()),  # a button; a GET confirms nothing
    Row("POST", "accounts/address/<str:signed>/", everyone(400)),  # not a confirm link: refused
    Row("GET", "mails/unsubscribe/<str:signed>/", everyone()),  # a button; a GET stops nothing
    Row("POST", "mails/unsubscribe/<str:signed>/", everyone()),  # one click, no session
    # --- dashboard and clubs ---------------------------------------------------------------------
    Row("GET", "", signed_in()),
    Row("GET", "clubs/new/", signed_in()),
    Row("GET", "campaigns/", signed_in()),
    Row("GET", "clubs/<slug:slug>/", members()),
    Row("GET", "clubs/<slug:slug>/campaigns/", members()),
    Row("POST", "clubs/<slug:slug>/invitations/", organizer(), {"role": "player", "email": ""}),
    Row("POST", "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/", organizer()),
    Row(
        "POST", "clubs/<slug:slug>/members/<str:username>/role/", organizer(), {"role": "organizer"}
    ),
    Row("POST", "clubs/<slug:slug>/hand-over/", organizer(), {"username": "carol"}),
    # A club's webhooks: its organizers' only (a public address as an IP: no DNS in the test).
    Row("GET", "clubs/<slug:slug>/webhooks/", organizer(200)),
    Row(
        "POST",
        "clubs/<slug:slug>/webhooks/",
        organizer(200),  # the page again, with the new webhook's secret shown once
        {"new-url": "https://93.184.215.14/hook", "new-format": "json"},
    ),
    Row(
        "POST",
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/",
        organizer(),
        lambda ctx: {
            f"w{ctx['webhook_id']}-url": "https://93.184.215.14/other",
            f"w{ctx['webhook_id']}-format": "discord",
        },
    ),
    Row("POST", "clubs/<slug:slug>/webhooks/<int:webhook_id>/remove/", organizer()),
    Row("POST", "clubs/<slug:slug>/webhooks/<int:webhook_id>/secret/", organizer(200)),
    Row("POST", "clubs/<slug:slug>/webhooks/<int:webhook_id>/test/", organizer()),
    Row(
        "POST",
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/again/",
        organizer(),
    ),
    Row("GET", "clubs/<slug:slug>/campaigns/new/", organizer(200)),
    Row(
        "GET",
        "clubs/<slug:slug>/campaigns/new/<slug:system>/",
        organizer(200),
        params={"system": "skirmish"},
    ),
    # --- notices: one's own (bob's notice is nobody else's: 404, like a missing one) -------------
    Row("GET", "notices/", signed_in()),
    Row("POST", "notices/read/", signed_in(302)),
    Row("GET", "notices/<int:notice_id>/", {**signed_in(404), "bob": 302}),
    # --- the campaign ----------------------------------------------------------------------------
    Row("GET", C, members()),
    Row("GET", C + "mails/", members()),
    Row("POST", C + "mails/", members(302), {"choice": "nothing"}),
    # A red step: red's players and the referee (acting for red) may; blue and bystanders may not.
    Row(
        "POST",
        C + "submit/",
        {**members(403), "alice": 302, "olga": 302, "rita": 302},
        {"kind": "skirmish.buy", "side": "red", "count": "1"},
    ),
    Row("GET", C + "history/", members()),
    Row("GET", C + "scenarios/", members()),
    Row("GET", C + "procedure/", members()),
    Row(
        "GET", C + "records/", members(404)
    ),  # the test game keeps no records page (A!P!'s: campaigns/systems/achtung_panzer/tests)
    Row("POST", RED_EVENT + "undo/", red(302)),
    Row("GET", RED_EVENT + "correct/", red(200)),
    # Proposals come from those who take part: players, referee, organizers (carol only watches).
    Row(
        "POST",
        C + "propose/house-rule/",
        {**members(302), "carol": 403},
        {"key": "buy.max_per_round", "value": "3"},
    ),
    Row("POST", C + "propose/export/", {**members(302), "carol": 403}),
    Row("GET", C + "export/", members()),
    # --- the organizer's setup -------------------------------------------------------------------
    Row("GET", C + "setup/", organizer(200)),
    Row("POST", C + "setup/players/", organizer(), {"side": "blue", "username": "carol"}),
    Row("POST", C + "setup/players/remove/", organizer(), {"side": "blue", "username": "bob"}),
    Row(
        "POST",
        C + "setup/players/replace/",
        organizer(),
        {"side": "blue", "old": "bob", "new": "carol"},
    ),
    Row("POST", C + "setup/referee/", organizer(), {"username": "carol"}),
    # The campaign is in play: a direct house rule and a second start are refused (400) - to the organizer.
    Row(
        "POST", C + "setup/house-rules/", organizer(400), {"key": "buy.max_per_round", "value": "3"}
    ),
    Row("POST", C + "setup/start/", organizer(400), {"confirm": "yes"}),
    Row("POST", C + "setup/finish/", organizer(), {"reason": "Enough."}),
    # In play: the organizer is told on the setup page to end it first; restoring one that is not
    # archived is refused the same way (tests/web/test_archive_and_templates.py archives for real).
    Row("POST", C + "archive/", organizer(400)),
    Row("POST", C + "restore/", organizer(400)),
    Row("GET", C + "again/", organizer(200)),
    Row("POST", C + "again/", organizer(302), {"name": "The same again", "variant": "short"}),
    # --- sheets (rosters.urls); the context's job is red's supply record, ready ------------------
    Row(
        "POST",
        "campaigns/<int:campaign_id>/sheets/request/",
        {**red(302, others=403), "outsider": 404},
        {"sheet": "supply", "side": "red", "paper": "A4"},
    ),
    Row(
        "GET",
        "campaigns/<int:campaign_id>/sheets/<slug:sheet>/print/",
        members(),
        params={"sheet": "summary"},
    ),
    # Several of the campaign's sheets in one PDF: the club's summary, for every member.
    Row(
        "POST",
        "campaigns/<int:campaign_id>/sheets/combined/",
        members(302),
        {"pick": ["summary"], "paper": "A4"},
    ),
    # Blank sheets: nothing of any campaign in them, for every signed-in person.
    Row("GET", "sheets/blank/", signed_in()),
    Row(
        "POST",
        "sheets/blank/",
        signed_in(302),
        {"system": "ardennes44", "sheet": "ledger", "paper": "A4"},
    ),
    Row("GET", "sheets/jobs/<str:job_id>/", red(200)),
    Row("POST", "sheets/jobs/<str:job_id>/retry/", red(400)),  # it is ready: nothing to retry
    Row("GET", "sheets/jobs/<str:job_id>/file/", red(200)),
]

_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def page_routes() -> set[str]:
    """Every route of the site outside /api/ and /admin/, from the URL resolver."""
    found = set()

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif not route.startswith(("api/", "admin/")):
                found.add(route)

    walk(get_resolver().url_patterns, "")
    return found


def test_every_page_has_a_row():
    rows = {row.route for row in ROWS}
    assert len({(r.method, r.route) for r in ROWS}) == len(ROWS), "a row is listed twice"
    assert page_routes() - rows == set(), "pages without a permission-matrix row"
    assert rows - page_routes() == set(), "rows for pages that no longer exist"
    assert all(set(row.expect) == set(VIEWERS) for row in ROWS)


@pytest.fixture
def ctx(skirmish, people, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    red_supply = submit(skirmish, people["alice"], "skirmish.supply").events[0]
    red_job, _ = request_sheet(people["alice"], skirmish, "supply", "A4", "red")
    red_job.file.save("supply.pdf", ContentFile(b"%PDF-1.4 test"), save=False)
    red_job.status = PrintJob.DONE
    red_job.save()
    invitation = Invitation.objects.create(club=skirmish.club, created_by=people["olga"])
    forgetful = UserFactory(username="forgetful")  # whose password reset link is followed
    hook = Webhook.objects.create(club=skirmish.club, url="https://93.184.215.14/hook")
    failed = WebhookDelivery.objects.create(
        webhook=hook, event_key="test/1", event={"kind": "test", "words": "A test"}, status="failed"
    )
    notice = Notice.objects.create(
        recipient=people["bob"], campaign=skirmish, key="turn/blue", words="Roll", link="/"
    )
    return {
        "notice_id": notice.pk,
        "slug": skirmish.club.slug,
        "pk": skirmish.pk,
        "campaign_id": skirmish.pk,
        "job_id": red_job.pk,
        "username": "carol",
        "invitation_id": invitation.pk,
        "webhook_id": hook.pk,
        "delivery_id": failed.pk,
        "code": invitation.code,
        "uid": red_supply.uid,
        "uidb64": urlsafe_base64_encode(force_bytes(forgetful.pk)),
        "token": default_token_generator.make_token(forgetful),
        "signed": unsubscribe.token(people["bob"].pk, skirmish.pk),
    }


def _check(row, viewer, ctx, client):
    values = {**ctx, **row.params}
    url = "/" + _PARAM.sub(lambda m: str(values[m.group(1)]), row.route)
    if row.method == "GET":
        response = client.get(url)
    else:
        body = row.body(ctx) if callable(row.body) else row.body
        response = client.post(url, body or {})
    expected = row.expect[viewer]
    if expected == LOGIN:
        assert response.status_code == 302 and response["Location"].startswith(
            "/accounts/login/?next="
        ), (url, viewer, response.status_code)
        return
    assert response.status_code == expected, (url, viewer, response.content[:500])
    if expected == 404:
        assert b"Test war" not in response.content and b"Tuesday" not in response.content


_ID = lambda row: f"{row.method} {row.route or '/'}"  # noqa: E731


@pytest.mark.parametrize("row", [r for r in ROWS if r.method == "GET"], ids=_ID)
def test_reading(row, ctx, client_for):
    """Reading changes nothing: every viewer reads the same context."""
    for viewer in VIEWERS:
        _check(row, viewer, ctx, client_for(viewer))


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("row", [r for r in ROWS if r.method != "GET"], ids=_ID)
def test_acting(row, viewer, ctx, client_for):
    """Each viewer acts on a fresh context (an allowed action changes it)."""
    _check(row, viewer, ctx, client_for(viewer))
