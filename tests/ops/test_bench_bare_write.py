"""The writes' ceiling in the benchmark: the bare write stores one row for a client signed in by
its token, and nothing for anyone else."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from benchmarks.urls import BARE_WRITE_TABLE, make_bare_write_table

pytestmark = pytest.mark.urls("benchmarks.urls")


def _rows() -> list[tuple[int, str]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT member_id, body FROM {BARE_WRITE_TABLE} ORDER BY id")
        return list(cursor.fetchall())


def test_the_bare_write_stores_one_row_for_a_client_with_a_token(people):
    make_bare_write_table()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people['alice']).key}")
    response = client.post("/bench/write/", {"kind": "drill.train"}, format="json")
    assert response.status_code == 201
    assert _rows() == [(people["alice"].pk, "{'kind': 'drill.train'}")]


def test_the_bare_write_refuses_a_client_without_a_token_and_stores_nothing(people):
    make_bare_write_table()
    response = APIClient().post("/bench/write/", {"kind": "drill.train"}, format="json")
    assert response.status_code == 401
    assert _rows() == []
