"""What no database stores (NUL, a lone surrogate) is refused at the door, on
pages and in the API, before any lookup; errors under /api/ are JSON. On PostgreSQL each of these
would be a 500 (it refuses NUL in text); on SQLite they would reach the lookups and answer as a
missing name would, so the status codes below fail there too without the door."""

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Event, Invitation, Membership
from campaigns.services.journal import submit
from muster.unstorable import json_text_unstorable

from .conftest import text_of


def _json(answer):
    assert answer["Content-Type"].startswith("application/json"), answer.content[:200]
    return answer.json()


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("code", ["%00", "abc%00def", "%01", "%1b%5b2J", "%7f", "%c2%85"])
def test_an_invitation_code_with_a_control_character_names_no_page(db, client, method, code):
    answer = getattr(client, method)(f"/join/{code}/")
    assert answer.status_code == 404
    assert "Not found" in text_of(answer)


def test_the_role_of_a_member_named_with_nul_is_refused_on_the_page_and_in_json_in_the_api(
    skirmish, people
):
    page = Client()
    page.force_login(people["olga"])
    answer = page.post(f"/clubs/{skirmish.club.slug}/members/%00/role/", {"role": "organizer"})
    assert answer.status_code == 404
    api = APIClient()
    api.force_login(people["olga"])
    answer = api.post(
        f"/api/v1/clubs/{skirmish.club.slug}/members/%00/role/",
        {"role": "organizer"},
        format="json",
    )
    assert answer.status_code == 404
    assert _json(answer) == {"detail": "Not found."}
    answer = api.post(
        f"/api/v1/clubs/{skirmish.club.slug}/members/carol/role/",
        {"role": "org\u0000anizer"},
        format="json",
    )
    assert answer.status_code == 400
    assert list(_json(answer)) == ["role"]
    assert Membership.objects.get(user=people["carol"]).role == "player"


def test_a_page_form_with_a_nul_idempotency_key_is_a_400_and_writes_nothing(
    skirmish, people, client_for
):
    before = Event.objects.count()
    answer = client_for("alice").post(
        f"/campaigns/{skirmish.pk}/submit/",
        {"_kind": "skirmish.supply", "_side": "red", "idempotency_key": "\x00"},
    )
    assert answer.status_code == 400
    assert "Bad request" in text_of(answer)
    assert Event.objects.count() == before


@pytest.mark.parametrize("field", ["username", "password"])
def test_a_nul_in_the_sign_in_form_is_a_400(db, client, field):
    values = {"username": "alice", "password": "x"}
    values[field] = "al\x00ice"
    assert client.post("/accounts/login/", values).status_code == 400


def test_a_nul_in_a_query_string_is_a_400_page_and_json_in_the_api(skirmish, people):
    page = Client()
    page.force_login(people["alice"])
    assert page.get(f"/campaigns/{skirmish.pk}/", {"do": "\x00"}).status_code == 400
    api = APIClient()
    api.force_login(people["alice"])
    answer = api.get("/api/v1/campaigns/", {"club": "tues\x00day"})
    assert answer.status_code == 400
    assert _json(answer) == {
        "club": ["Contains a character that cannot be stored (a NUL byte or a lone surrogate)."]
    }


def test_the_api_refuses_nul_and_lone_surrogates_anywhere_in_a_json_body(skirmish, people):
    api = APIClient()
    api.force_login(people["olga"])
    Invitation.objects.create(club=skirmish.club, created_by=people["olga"])
    for body, field in (
        ('{"code": "\\u0000"}', "code"),
        ('{"code": "\\ud800"}', "code"),
        ('{"code": ["x", "\\udc00x"]}', "code[1]"),
        ('{"\\u0000": 1}', "body"),
        ('{"a": {"b\\u0000": 1}}', "a"),
        ('"\\u0000"', "body"),
    ):
        answer = api.generic(
            "POST", "/api/v1/invitations/accept/", body, content_type="application/json"
        )
        assert answer.status_code == 400, body
        assert list(_json(answer)) == [field], body
    answer = api.post(
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "side": "red", "data": {}, "idempotency_key": "k\u0000"},
        format="json",
    )
    assert answer.status_code == 400
    assert list(_json(answer)) == ["idempotency_key"]
    assert not Event.objects.filter(idempotency_key__startswith="k").exists()


def test_a_nul_in_a_header_a_query_would_read_is_a_400(skirmish, people):
    api = APIClient()
    api.force_login(people["alice"])
    answer = api.post(
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {"kind": "skirmish.supply", "side": "red", "data": {}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="a\x00b",
    )
    assert answer.status_code == 400
    assert _json(answer) == {
        "idempotency-key": [
            "Contains a character that cannot be stored (a NUL byte or a lone surrogate)."
        ]
    }
    anonymous = APIClient()
    answer = anonymous.get("/api/v1/campaigns/", HTTP_AUTHORIZATION="Token \x00" * 3)
    assert answer.status_code == 400


def test_escaped_text_and_surrogate_pairs_pass_the_door():
    assert not json_text_unstorable('{"a": "\\\\u0000"}')  # a backslash, then "u0000"
    assert not json_text_unstorable('{"a": "\\ud83d\\ude00"}')  # one emoji, as a pair
    assert not json_text_unstorable('{"a": "tab\\t and \\u00e9"}')
    assert json_text_unstorable('{"a": "\\\\\\u0000"}')
    assert json_text_unstorable('{"a": "\\ud83d x"}')
    assert json_text_unstorable('{"a": "\\ud83d"}')


def test_a_pair_of_surrogates_is_ordinary_text_in_the_api(skirmish, people):
    api = APIClient()
    api.force_login(people["alice"])
    submit(skirmish, people["alice"], "skirmish.supply")
    answer = api.post(
        f"/api/v1/campaigns/{skirmish.pk}/events/",
        {
            "kind": "note.added",
            "side": "red",
            "data": {"scenario": 0, "text": "Well played \U0001f600"},
        },
        format="json",
    )
    assert answer.status_code in (201, 400), answer.content
    assert "body" not in (answer.json() if answer.status_code == 400 else {})


@pytest.mark.parametrize("method", ["options", "post", "put", "delete"])
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_answer_any_method_in_json(db, method, url):
    answer = getattr(APIClient(), method)(url)
    assert answer.status_code in (200, 405)
    assert answer["Content-Type"].startswith("application/json")
    json.loads(answer.content)
    assert APIClient().get(url).status_code == 200


def test_a_server_error_under_the_api_is_json(skirmish, people, monkeypatch):
    from api import systems as api_systems

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(api_systems.SystemListApi, "get", broken)
    api = APIClient(raise_request_exception=False)
    api.force_login(people["alice"])
    answer = api.get("/api/v1/systems/")
    assert answer.status_code == 500
    assert _json(answer) == {"detail": "Server error."}
