"""The product's URLs plus the bare views the benchmarks compare against."""

from django.db import connection, transaction
from django.http import JsonResponse
from django.urls import path
from rest_framework import permissions, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from muster.urls import urlpatterns as product

CONSTANT = {"status": "ok", "items": [1, 2, 3]}
BARE_WRITE_TABLE = "bench_bare_write"


def constant(request):
    """A Django view doing nothing: the floor every figure is compared with."""
    return JsonResponse(CONSTANT)


class BareWrite(APIView):
    """The floor of a write: an API client signed in by its token, its JSON body read and one
    row inserted and committed, 201. What the machine can take of this is the most any append
    could reach (an append also checks, folds, projects and enqueues)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    def post(self, request):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {BARE_WRITE_TABLE} (member_id, body) VALUES (%s, %s)",
                [request.user.pk, str(request.data)[:200]],
            )
        return Response({"status": "stored"}, status=status.HTTP_201_CREATED)


def make_bare_write_table() -> None:
    """The bare write's table, empty (made again every run)."""
    identity = {
        "postgresql": "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "sqlite": "integer PRIMARY KEY AUTOINCREMENT",
    }.get(connection.vendor, "integer PRIMARY KEY")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {BARE_WRITE_TABLE}")
        cursor.execute(
            f"CREATE TABLE {BARE_WRITE_TABLE} (id {identity}, member_id integer NOT NULL, "
            "body text NOT NULL)"
        )


urlpatterns = [
    path("bench/constant/", constant),
    path("bench/write/", BareWrite.as_view()),
    *product,
]
