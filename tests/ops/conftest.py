"""Whole sites for the operations tests: databases of their own (the test database is this
code's), and this code's commands run on them in processes of their own."""

from __future__ import annotations

import os
import subprocess
import uuid

import pytest
from django.db import connection


def run(command, cwd, database, **env) -> str:
    """A command on the site whose database is `database` (a DATABASE_URL), as an operator runs it:
    no broker (tasks inline), no test settings; its standard output, or the test fails with both."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "REDIS_URL",
            "CELERY_BROKER_URL",
            "CACHE_REDIS_URL",
            "MUSTER_EXTRA_SYSTEMS",
            "DEBUG",
            "DJANGO_SETTINGS_MODULE",
            "PYTHONPATH",
            "PYTEST_XDIST_WORKER",
            "MEDIA_ROOT",
        )
    }
    clean.update(DATABASE_URL=database, MUSTER_EXTRA_SYSTEMS="", **env)
    done = subprocess.run(command, cwd=cwd, env=clean, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def postgres_params() -> dict:
    settings = connection.settings_dict
    return {
        "host": settings["HOST"] or "127.0.0.1",
        "port": settings["PORT"] or 5432,
        "user": settings["USER"],
        "password": settings["PASSWORD"] or None,
        "dbname": "postgres",
    }


def postgres_url(name: str) -> str:
    params = postgres_params()
    password = f":{params['password']}" if params["password"] else ""
    return f"postgres://{params['user']}{password}@{params['host']}:{params['port']}/{name}"


@pytest.fixture
def site_databases(tmp_path):
    """site_databases() -> the DATABASE_URL of a new, empty database: on the test database's
    PostgreSQL server when the tests run on PostgreSQL (as CI does), a SQLite file otherwise.
    Dropped after the test."""
    made = []

    def make() -> str:
        if connection.vendor != "postgresql":
            return f"sqlite:///{tmp_path / f'site-{len(made)}.sqlite3'}"
        import psycopg

        name = f"muster_site_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(**postgres_params(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return postgres_url(name)

    yield make
    if made:
        import psycopg

        with psycopg.connect(**postgres_params(), autocommit=True) as admin:
            for name in made:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
