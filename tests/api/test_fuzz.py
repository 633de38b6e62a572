"""A bounded fuzz run: hypothesis throws typed mutations of every event kind and
hostile JSON at the journal service, and hostile bodies and parameters at every operation of
the live OpenAPI schema, as every kind of user. Never a server error: every answer is one the
schema documents, in its documented shape, and the campaign stays foldable and writable.

Bounded: a fixed number of examples per test and no deadline, so the run takes seconds."""

from __future__ import annotations

import functools
import json
import re

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from rest_framework.test import APIClient

from campaigns.errors import Conflict, DomainError, Forbidden, NotFound
from campaigns.journal import engine
from campaigns.journal.core_events import KINDS
from campaigns.services.journal import submit
from campaigns.services.state import current_state, load_records
from campaigns.systems import get_system

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
PEOPLE = ("olga", "alice", "bob", "rita", "carol")

# --- hostile values ----------------------------------------------------------------------------

_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    ["", " ", "\x00", "\x1b[2J", "\u202e", "x" * 2100, "red", "blue", "1", "-1", "nan", "9" * 30]
)
_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    _text,
)
_json = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=20,
)


def _deep(depth: int):
    value = 0
    for _ in range(depth):
        value = [value]
    return value


hostile = st.one_of(
    _json,
    st.integers(min_value=10, max_value=1500).map(_deep),
    st.integers(min_value=0, max_value=1200).map(lambda n: list(range(n))),
)


def _mostly(usual, rare, one_in: int = 8):
    """`usual`, and one time in `one_in` `rare` (one_of would draw each about as often)."""
    return st.integers(0, one_in - 1).flatmap(lambda n: rare if n == 0 else usual)


def field_values(field, hints=None):
    """Values for one schema field: its own kind of value near its bounds (or, by its name, one
    the campaign knows: a member, a side, an event's uid), or anything at all."""
    hints = hints or {}
    if field.name in hints:
        typed = hints[field.name]
    elif field.type == "int":
        lo, hi = (
            field.min if field.min is not None else -5,
            field.max if field.max is not None else 5,
        )
        typed = st.integers(min_value=lo - 2, max_value=hi + 2) | st.sampled_from([2**60, -(2**60)])
    elif field.type in ("choice", "str") and field.choices:
        typed = st.sampled_from(list(field.choices))
    elif field.type == "str":
        typed = _text
    elif field.type == "bool":
        typed = st.booleans()
    elif field.type == "list":
        typed = st.lists(field_values(field.item, hints) if field.item else hostile, max_size=4)
    elif field.type == "object" and field.fields:
        typed = st.fixed_dictionaries({f.name: field_values(f, hints) for f in field.fields})
    else:
        typed = hostile
    return _mostly(typed, hostile)


def event_data(kind, hints):
    """Mostly well-typed data (so the rules are reached), sometimes a field missing, a field too
    many, or anything at all."""
    typed = st.fixed_dictionaries({f.name: field_values(f, hints) for f in kind.fields})
    loose = st.fixed_dictionaries(
        {}, optional={f.name: field_values(f, hints) for f in kind.fields}
    )
    extra = st.tuples(typed, st.dictionaries(_text, hostile, min_size=1, max_size=1)).map(
        lambda t: {**t[0], **t[1]}
    )
    return _mostly(typed, st.one_of(loose, extra, hostile))


def _kinds(system_slug):
    system = get_system(system_slug)
    return [*KINDS.values(), *system.event_kinds]


def _still_writable(campaign):
    campaign.refresh_from_db()
    state = current_state(campaign)
    assert engine.fold(load_records(campaign)) == state  # the journal folds to the stored state
    json.dumps(state)  # and the state can be written again


# --- the journal service, every event kind -----------------------------------------------------------


def _pick(values):
    """One of `values`, drawn the same way whatever they are (the campaign grows between examples,
    and hypothesis wants each draw to look alike)."""
    values = tuple(values) or ("",)
    return st.integers(0, 1_000_000).map(lambda i: values[i % len(values)])


def _hints(campaign) -> dict:
    state = current_state(campaign)
    uids = [str(u) for u in campaign.events.values_list("uid", flat=True)]
    keys = [*state["sealed"], *get_system(campaign.system).constants()]
    return {
        "username": _pick(PEOPLE),
        "old": _pick(PEOPLE),
        "new": _pick(PEOPLE),
        "side": _pick(state["sides"]),
        "scenario": _pick(range(len(state["scenarios"]) + 1)),
        "target": _pick(uids),
        "proposal": _pick(uids),
        "key": _pick(keys),
        "action": _pick(["correct", "undo", "house_rule", "export", "seat"]),
    }


def _fuzz_events(campaign, people, data):
    campaign.refresh_from_db()
    kinds = _kinds(campaign.system)
    kind = data.draw(st.sampled_from(kinds), label="kind")
    body = data.draw(event_data(kind, _hints(campaign)), label="data")
    who = data.draw(st.sampled_from(("alice", "bob", "alice", "bob", *PEOPLE)), label="who")
    side = data.draw(
        st.one_of(
            st.none(),
            st.none(),
            st.none(),
            st.sampled_from(["red", "blue", "allied", "german", "x" * 50]),
        ),
        label="side",
    )
    dice = data.draw(
        st.one_of(
            st.none(),
            st.none(),
            st.none(),
            st.dictionaries(_text, st.lists(st.integers(-3, 12), max_size=3), max_size=3),
        ),
        label="dice",
    )
    try:
        submit(campaign, people[who], kind.name, body, side=side, dice=dice)
        event("accepted")
    except (DomainError, Forbidden, NotFound, Conflict) as error:
        event(type(error).__name__)


@FUZZ
@given(data=st.data())
def test_every_skirmish_event_kind_takes_hostile_data_without_a_server_error(
    skirmish, people, data
):
    _fuzz_events(skirmish, people, data)
    _still_writable(skirmish)


@pytest.fixture
def war(club, people):
    from campaigns.systems.achtung_panzer.tests.campaign_harness import War

    return War(club, people, name="Fuzz").campaign


@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_every_achtung_panzer_event_kind_takes_hostile_data_without_a_server_error(
    war, people, data
):
    _fuzz_events(war, people, data)
    _still_writable(war)


# --- every operation of the live schema -------------------------------------------------------------

_PARAM = re.compile(r"{(\w+)}")


@functools.cache
def _operations():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    return [
        (path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()
    ]


def _shape_ok(status: int, body) -> bool:
    if status == 400:
        return (
            isinstance(body, dict)
            and body
            and all(
                isinstance(k, str)
                and (
                    k == "dice_needed"
                    or (isinstance(v, list) and all(isinstance(m, str) for m in v))
                )
                for k, v in body.items()
            )
        )
    if status >= 400:
        return isinstance(body, dict) and isinstance(body.get("detail"), str)
    return True


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_every_api_operation_answers_as_documented(skirmish, people, data):
    from campaigns.models import Invitation

    invitation = Invitation.objects.filter(club=skirmish.club).first() or Invitation.objects.create(
        club=skirmish.club, created_by=people["olga"]
    )
    real = {
        "campaign_id": skirmish.pk,
        "slug": skirmish.club.slug,
        "username": "carol",
        "invitation_id": invitation.pk,
        "job_id": "00000000-0000-0000-0000-000000000000",
        "notice_id": 1,
        "webhook_id": 1,
    }
    path, method, operation = data.draw(st.sampled_from(_operations()), label="operation")
    odd = st.sampled_from(
        [
            "0",
            "999999",
            "x",
            "%00",
            "a%00b",
            "%01",
            "%0a",
            "%1b",
            "%7f",
            "%c2%85",
            "%ed%a0%80",
            "%2e%2e",
            "-1",
            "ü",
            "a" * 300,
            "1e9",
            "null",
        ]
    )
    values = {
        name: data.draw(st.one_of(st.just(value), st.just(value), st.just(value), odd), label=name)
        for name, value in real.items()
    }
    url = _PARAM.sub(lambda m: str(values[m.group(1)]), path)
    who = data.draw(st.sampled_from(("anonymous", *PEOPLE)), label="who")
    client = APIClient()
    if who != "anonymous":
        client.force_login(people[who])
    query = data.draw(
        st.dictionaries(
            st.sampled_from(["page", "page_size", "status", "club", "format"]), _text, max_size=2
        ),
        label="query",
    )
    if method == "get":
        answer = client.get(url, query)
    else:
        body = data.draw(
            hostile
            | st.dictionaries(
                st.sampled_from(
                    [
                        "kind",
                        "data",
                        "name",
                        "code",
                        "username",
                        "role",
                        "side",
                        "old",
                        "new",
                        "sheet",
                        "dice",
                    ]
                ),
                hostile,
                max_size=3,
            ),
            label="body",
        )
        try:
            text = json.dumps(body)
        except (ValueError, RecursionError):
            text = "[" * 5000
        answer = client.generic(method.upper(), url, text, content_type="application/json")
    event(str(answer.status_code))
    assert answer.status_code < 500, (method, url, answer.status_code)
    assert str(answer.status_code) in operation["responses"], (
        method,
        path,
        answer.status_code,
        answer.content[:300],
    )
    if answer.status_code >= 400:
        assert answer["Content-Type"].startswith("application/json"), (method, url)
        assert _shape_ok(answer.status_code, answer.json()), (method, url, answer.json())
