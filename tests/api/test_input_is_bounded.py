"""Hostile input at the API's doors: every free-form value is
bounded with a 400 naming the field, bodies are capped, nothing can make a campaign
unwritable, hidden events cannot be probed, and every error answer has the documented shape."""

import json
import uuid

import pytest
from rest_framework.test import APIClient

from campaigns.journal.state_copy import copy_json
from campaigns.models import Event
from campaigns.schema.fields import JSON_MAX_DEPTH
from campaigns.services.journal import submit

from .conftest import post


def _nested(depth: int, leaf=1):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


def _flat_field_errors(body) -> bool:
    """The documented 400 shape: {field path: [message, …]}."""
    return (
        isinstance(body, dict)
        and body
        and all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(m, str) for m in v)
            for k, v in body.items()
        )
    )


# --- unbounded JSON -------------------------------------------------------------------------------


def test_a_deeply_nested_proposal_is_refused_and_the_campaign_stays_writable(skirmish, client_for):
    """The attack: a 1 KB export proposal nesting 480 levels, were it accepted, would make every
    later write to the campaign fail (RecursionError copying the state)."""
    alice, url = client_for("alice"), f"/api/v1/campaigns/{skirmish.pk}/events/"
    before = Event.objects.count()
    answer = post(
        alice, url, {"kind": "proposal.made", "data": {"action": "export", "data": _nested(480)}}
    )
    assert answer.status_code == 400 and list(answer.json()) == ["body"], (
        answer.json()
    )  # the body's own bound
    answer = post(
        alice, url, {"kind": "proposal.made", "data": {"action": "export", "data": _nested(25)}}
    )
    assert answer.status_code == 400 and _flat_field_errors(answer.json())
    assert [key.split("[")[0] for key in answer.json()] == ["data"], (
        answer.json()
    )  # the field's bound
    assert Event.objects.count() == before
    # Just within the bound (JSON_MAX_DEPTH levels of the json field) is accepted …
    fine = post(
        alice,
        url,
        {
            "kind": "proposal.made",
            "data": {"action": "export", "data": _nested(JSON_MAX_DEPTH - 1)},
        },
    )
    assert fine.status_code == 201, fine.json()
    # … and the campaign still takes everyone's writes.
    assert post(client_for("bob"), url, {"kind": "skirmish.supply"}).status_code == 201
    assert post(alice, url, {"kind": "skirmish.supply"}).status_code == 201


@pytest.mark.parametrize(
    "value,field",
    [
        ({"x": float("nan")}, "data.x"),  # sent as NaN: no database keeps it
        ("\x00hidden", "data"),
        ("\x07bell", "data"),
        ("x" * 3000, "data"),  # one text: at most 2000 characters
        (list(range(1500)), "data"),  # one list: at most 1000 entries
        (2**60, "data"),  # past what JSON readers keep exactly
        ({"\x1bkey": 1}, "data"),  # object keys are text like any other
    ],
)
def test_free_form_values_are_bounded_naming_the_field(skirmish, client_for, value, field):
    body = json.dumps({"kind": "proposal.made", "data": {"action": "export", "data": value}})
    answer = client_for("alice").post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", body, content_type="application/json"
    )
    assert answer.status_code == 400, answer.content
    assert _flat_field_errors(answer.json()) and any(k.startswith(field) for k in answer.json()), (
        answer.json()
    )
    assert not Event.objects.filter(kind="proposal.made").exists()


def test_lone_surrogates_are_refused_not_a_server_error(skirmish, client_for):
    body = '{"kind": "proposal.made", "data": {"action": "export", "reason": "\\ud800"}}'
    answer = client_for("alice").post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", body, content_type="application/json"
    )
    assert (
        answer.status_code == 400 and "data.reason" in answer.json()
    )  # its path in the body (at the door)


def test_an_events_data_is_capped(skirmish, client_for):
    """Under the request cap, over the event cap (64 KB): many texts of allowed length."""
    data = {"action": "export", "data": {f"k{i}": "x" * 1900 for i in range(40)}}  # about 76 KB
    answer = post(
        client_for("alice"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "proposal.made", "data": data},
    )
    assert answer.status_code == 400 and "data" in answer.json(), answer.json()
    assert not Event.objects.filter(kind="proposal.made").exists()


def test_a_too_large_body_is_a_json_413(skirmish, client_for, settings):
    big = json.dumps(
        {"kind": "proposal.made", "data": {"action": "export", "reason": "x" * 300_000}}
    )
    answer = client_for("alice").post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", big, content_type="application/json"
    )
    assert answer.status_code == 413
    assert (
        answer["Content-Type"].startswith("application/json")
        and "too large" in answer.json()["detail"]
    )
    assert not Event.objects.filter(kind="proposal.made").exists()


@pytest.mark.parametrize(
    "url", ["/api/v1/auth/token/", "/api/v1/clubs/", "/api/v1/invitations/accept/"]
)
@pytest.mark.parametrize("depth", [100, 50_000])
def test_deep_json_anywhere_is_a_400_never_a_traceback(url, depth, people):
    for client in (APIClient(), _signed_in(people["carol"])):
        answer = client.post(url, _deep_text(depth), content_type="application/json")
        assert answer.status_code in (400, 403), answer.content
        if answer.status_code == 400:
            assert list(answer.json()) == ["body"], answer.json()


def test_a_body_that_is_not_utf8_is_a_400(people):
    answer = _signed_in(people["carol"]).post(
        "/api/v1/clubs/", b'{"name": "\xff\xfe"}', content_type="application/json"
    )
    assert answer.status_code == 400 and "body" in answer.json()


def _signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_fold_copies_any_state_without_recursion():
    deep = {"game": _nested(20_000, {"x": [1, 2]})}
    copied = copy_json(deep)  # the writer's copy: too deep for JSON, copied without recursion
    assert copied is not deep
    inner, original = copied["game"], deep["game"]
    for _ in range(20_000):
        inner, original = inner[0], original[0]
    assert inner == {"x": [1, 2]} and inner is not original and inner["x"] is not original["x"]


def test_entered_dice_are_bounded(skirmish, client_for):
    dice = {f"key-{i}": [1] for i in range(200)}
    answer = post(
        client_for("alice"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "dice": dice},
    )
    assert answer.status_code == 400 and "dice" in answer.json()
    assert len(json.dumps(answer.json())) < 500  # the refusal does not echo 200 keys back


# --- probing for hidden events --------------------------------------------------------------------


def test_hidden_missing_and_unchangeable_events_answer_alike_and_create_nothing(
    skirmish, people, client_for
):
    supply = submit(skirmish, people["alice"], "skirmish.supply").events
    hidden = {e.kind: e for e in supply}  # red's secret step and its secret dice roll
    bob, url = client_for("bob"), f"/api/v1/campaigns/{skirmish.pk}/events/"
    answers = []
    for target in (hidden["skirmish.supply"].uid, hidden["dice.rolled"].uid, uuid.uuid4()):
        for action in ("undo", "correct"):
            data = {"action": action, "target": str(target), "data": {"count": 1}}
            answer = post(bob, url, {"kind": "proposal.made", "data": data})
            answers.append((answer.status_code, answer.json()))
    assert answers == [(400, {"target": ["No such earlier event."]})] * 6, answers
    # Sequence numbers are refused whatever they name:
    for seq in range(1, Event.objects.count() + 2):
        answer = post(
            bob, url, {"kind": "proposal.made", "data": {"action": "undo", "target": seq}}
        )
        assert (answer.status_code, answer.json()) == (
            400,
            {"target": ["Name the event by its uid."]},
        )
    assert not Event.objects.filter(kind="proposal.made").exists()


def test_the_service_itself_takes_uids_only(skirmish, people):
    """Every door (pages, API, tasks, commands) goes through the journal service: it refuses
    sequence numbers itself, before looking at what they name."""
    from campaigns.errors import DomainError

    supply = submit(skirmish, people["alice"], "skirmish.supply").events[0]
    for data, field in [
        ({"action": "undo", "target": supply.seq}, "target"),
        ({"action": "undo", "target": 10_000}, "target"),
    ]:
        with pytest.raises(DomainError) as error:
            submit(skirmish, people["bob"], "proposal.made", data)
        assert (error.value.field, error.value.message) == (field, "Name the event by its uid.")
    with pytest.raises(DomainError) as error:
        submit(skirmish, people["bob"], "proposal.approved", {"proposal": 1})
    assert error.value.field == "proposal"
    assert not Event.objects.filter(kind="proposal.made").exists()


# --- error answers as the schema documents them ---------------------------------------------------


def test_an_unknown_route_under_api_is_a_json_404(client_for):
    for client in (APIClient(), client_for("alice")):
        for url in ("/api/v1/nothing/", "/api/v2/clubs/", "/api/v1/campaigns/1/nothing/"):
            answer = client.get(url)
            assert answer.status_code == 404 and answer["Content-Type"].startswith(
                "application/json"
            )
            assert answer.json() == {"detail": "Not found."}


def test_an_unknown_route_under_api_with_a_session_cookie_is_a_json_404(people):
    """A signed-in browser's POST (session cookie, no CSRF token) to an address the API does not
    have is the API's JSON 404 like any other, not CSRF's HTML 403 page."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(people["alice"])
    for method in ("post", "put", "patch", "delete", "get"):
        for url in ("/api/v1/nothing/", "/api/nothing", "/api/v1/campaigns/1/nothing/"):
            answer = getattr(browser, method)(url)
            assert answer.status_code == 404 and answer["Content-Type"].startswith(
                "application/json"
            ), (method, url)
            assert answer.json() == {"detail": "Not found."}
    # A page's own CSRF refusal stays a page.
    page = browser.post("/clubs/new/", {"name": "X"})
    assert (
        page.status_code == 403 and "This form has expired" in page.content.decode()
    )  # templates/403_csrf.html


def test_a_csrf_refusal_under_api_is_json(rf, people):
    from django.conf import settings
    from django.utils.module_loading import import_string

    failure = import_string(settings.CSRF_FAILURE_VIEW)
    answer = failure(rf.post("/api/v1/docs-or-any-plain-view/"), reason="CSRF cookie not set.")
    assert answer.status_code == 403 and json.loads(answer.content) == {
        "detail": "CSRF Failed: CSRF cookie not set."
    }
    assert (
        "text/html"
        in failure(rf.post("/clubs/new/"), reason="CSRF cookie not set.")["Content-Type"]
    )


def test_a_page_past_the_last_is_a_documented_404(skirmish, client_for):
    answer = client_for("alice").get(f"/api/v1/campaigns/{skirmish.pk}/events/", {"page": 99})
    assert answer.status_code == 404 and set(answer.json()) == {"detail"}
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    events = schema["paths"]["/api/v1/campaigns/{campaign_id}/events/"]
    assert "404" in events["get"]["responses"] and "413" in events["post"]["responses"]


def test_nested_serializer_errors_are_flat_field_paths(skirmish, client_for):
    answer = post(
        client_for("alice"),
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "dice": {"0/supply/red": ["six"]}},
    )
    assert answer.status_code == 400 and _flat_field_errors(answer.json())
    assert list(answer.json()) == ["dice.0/supply/red[0]"], answer.json()
