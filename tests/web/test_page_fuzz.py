"""A bounded fuzz run over every route of the site: pages, the API, its
schema and docs, the admin's front door. Each route's path values are real ones or hostile ones
(NUL, other C0 and C1 control characters, escapes, broken UTF-8), form fields and query strings
carry the same, as every kind of visitor, with every method. Never a server error, and under
/api/ every error is JSON. It matters on PostgreSQL (CI): SQLite stores NUL, PostgreSQL refuses
it, which would make each NUL that reached a lookup a 500.

Bounded: a fixed number of examples and no deadline."""

from __future__ import annotations

import functools
import json
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern
from hypothesis import HealthCheck, event, given, settings, strategies as st

from campaigns.models import Event, Invitation
from rosters.services import request_sheet

FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
PEOPLE = ("anonymous", "outsider", "olga", "alice", "bob", "rita", "carol")
CONTROLS = [
    "\x00",
    "\x01",
    "\x08",
    "\x0b",
    "\x1b[2J",
    "\x7f",
    "\x85",
    "\x9b",
    "\t",
    "\n",
    "\r\n",
    "\u202e",
    "a\x00b",
    "%00",
]
SURROGATES = ["\ud800", "x\udfff"]  # only a JSON body can carry one (as an escape); UTF-8 cannot
# Path values as they arrive percent-encoded (a lone surrogate cannot travel as UTF-8: ED A0 80).
PATH_ODD = [
    "%00",
    "a%00b",
    "%01",
    "%08",
    "%0a",
    "%0d%0a",
    "%09",
    "%1b%5b2J",
    "%1f",
    "%7f",
    "%c2%80",
    "%c2%85",
    "%c2%9f",
    "%ed%a0%80",
    "%ff",
    "%e2%80%ae",
    "0",
    "-1",
    "999999",
    "x",
    "a" * 300,
    "%2e%2e",
    "null",
]
FORM_FIELDS = (
    "_kind",
    "_side",
    "_todo",
    "kind",
    "side",
    "idempotency_key",
    "username",
    "old",
    "new",
    "role",
    "code",
    "name",
    "slug",
    "system",
    "variant",
    "sheet",
    "paper",
    "action",
    "target",
    "reason",
    "key",
    "value",
    "rule_table",
    "row",
    "column",
    "note",
    "confirm",
    "password",
    "password1",
    "password2",
    "old_password",
    "new_password1",
    "new_password2",
    "email",
    "next",
    "do",
    "scenario",
    "text",
    "count",
    "private",
    "expected_version",
)
QUERY_FIELDS = (
    "do",
    "rule_table",
    "page",
    "page_size",
    "status",
    "club",
    "format",
    "next",
    "lang",
    "side",
)
_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _routes(resolver=None, prefix: str = "") -> list[str]:
    """Every route as its pattern text ("campaigns/<int:pk>/submit/"); the admin's regex routes
    are its own machinery (its front door is a route), and the API's catch-all is "api/<any>"."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        pattern = entry.pattern
        if isinstance(entry, URLResolver):
            if isinstance(pattern, RoutePattern):
                found.extend(_routes(entry, prefix + str(pattern)))
        elif isinstance(entry, URLPattern):
            if isinstance(pattern, RoutePattern):
                found.append(prefix + str(pattern))
            elif str(pattern) == "^.*$":
                found.append(prefix + "<any>")
    return found


@functools.cache
def routes() -> tuple[str, ...]:
    return tuple(sorted(set(_routes())))


def test_the_fuzz_run_knows_every_kind_of_route():
    known = routes()
    for route in (
        "join/<str:code>/",
        "campaigns/<int:pk>/submit/",
        "clubs/<slug:slug>/members/<str:username>/role/",
        "api/docs/",
        "api/v1/clubs/<slug:slug>/members/<str:username>/role/",
        "sheets/jobs/<str:job_id>/",
        "api/<any>",
        "admin/",
    ):
        assert route in known, route


@pytest.fixture
def real(skirmish, people):
    invitation = Invitation.objects.create(club=skirmish.club, created_by=people["olga"])
    job, _ = request_sheet(people["alice"], skirmish, "summary")
    uid = str(Event.objects.filter(campaign=skirmish).values_list("uid", flat=True).first())
    return {
        "pk": skirmish.pk,
        "campaign_id": skirmish.pk,
        "slug": skirmish.club.slug,
        "username": "carol",
        "invitation_id": invitation.pk,
        "code": invitation.code,
        "uid": uid,
        "system": "skirmish",
        "sheet": "summary",
        "job_id": str(job.pk),
        "uidb64": "Mg",
        "token": "set-password",
        "any": "nowhere/x",
    }


def _values(data, real: dict):
    return {
        name: data.draw(
            st.one_of(st.just(str(value)), st.just(str(value)), st.sampled_from(PATH_ODD)),
            label=name,
        )
        for name, value in real.items()
    }


_text = (
    st.sampled_from(CONTROLS)
    | st.text(max_size=8)
    | st.sampled_from(["red", "blue", "carol", "organizer", "skirmish.supply", "summary", "A4"])
)


def _fields(names):
    return st.dictionaries(st.sampled_from(names) | st.sampled_from(CONTROLS), _text, max_size=5)


@FUZZ
@given(data=st.data())
def test_every_route_takes_control_characters_without_a_server_error(real, people, data):
    route = data.draw(st.sampled_from(routes()), label="route")
    values = _values(data, real)
    url = "/" + _CONVERTER.sub(lambda m: values.get(m.group(2), "x"), route)
    who = data.draw(st.sampled_from(PEOPLE), label="who")
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    method = data.draw(
        st.sampled_from(["get", "post", "post", "post", "options", "head", "put", "delete"]),
        label="method",
    )
    query = data.draw(_fields(QUERY_FIELDS), label="query")
    if method == "post":
        form = data.draw(_fields(FORM_FIELDS), label="form")
        if url.startswith("/api/") and data.draw(st.booleans(), label="as json"):
            form = {
                **form,
                **data.draw(
                    st.dictionaries(
                        st.sampled_from(FORM_FIELDS), st.sampled_from(SURROGATES), max_size=1
                    ),
                    label="surrogates",
                ),
            }
            answer = client.post(
                url + ("?" + _encoded(query) if query else ""),
                json.dumps(form),
                content_type="application/json",
            )
        else:
            answer = client.post(url + ("?" + _encoded(query) if query else ""), form)
    else:
        answer = getattr(client, method)(url, query)
    event(f"{method} {answer.status_code}")
    assert answer.status_code < 500, (method, url, query, answer.status_code)
    if url.startswith("/api/") and answer.status_code >= 400:
        assert answer["Content-Type"].startswith("application/json"), (
            method,
            url,
            answer.status_code,
        )


def _encoded(query: dict) -> str:
    from urllib.parse import urlencode

    return urlencode(query)
