"""POST /api/v1/auth/token/: a username and password buy a token that signs requests."""

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from .conftest import post

URL = "/api/v1/auth/token/"


def test_the_right_password_gives_a_token_that_signs_requests(club, people):
    response = post(APIClient(), URL, {"username": "alice", "password": "pass-word-123"})
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=people["alice"]).key == token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    clubs = client.get("/api/v1/clubs/")
    assert clubs.status_code == 200
    assert [c["slug"] for c in clubs.json()["results"]] == ["tuesday"]


def test_asking_again_gives_the_same_token(club, people):
    first = post(APIClient(), URL, {"username": "alice", "password": "pass-word-123"}).json()[
        "token"
    ]
    again = post(APIClient(), URL, {"username": "alice", "password": "pass-word-123"}).json()[
        "token"
    ]
    assert first == again and Token.objects.count() == 1


def test_a_wrong_password_gives_no_token(club, people):
    response = post(APIClient(), URL, {"username": "alice", "password": "nope"})
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
    assert not Token.objects.exists()


def test_missing_fields_are_named(db):
    response = post(APIClient(), URL, {})
    assert response.status_code == 400
    assert set(response.json()) == {"username", "password"}


def test_a_made_up_token_is_refused(club, people):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/v1/clubs/")
    assert response.status_code in (401, 403)
    assert response.json() == {"detail": "Invalid token."}


def test_without_credentials_the_api_refuses(club):
    response = APIClient().get("/api/v1/clubs/")
    assert response.status_code == 403  # DRF's answer when session auth comes first
