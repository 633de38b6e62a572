"""(b) Database queries per API call and per page, at two data sizes, with the cache of
per-audience answers cold (a kept answer costs fewer: tests/kept_answers/test_viewcache.py).

The same request is made against the small club and the large one (each by its
organizer, who plays red in all its campaigns: the same kind of campaign, the same
kind of viewer); the count must not grow with the rows.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from .generate import LARGE, SMALL
from .targets import ap_targets, api_targets, page_targets


def measure(data: dict) -> list[dict]:
    small_client, large_client = (
        _client(data[SMALL.slug]["user"]),
        _client(data[LARGE.slug]["user"]),
    )
    small = _targets(data[SMALL.slug])
    large = _targets(data[LARGE.slug])
    rows = []
    for a, b in zip(small, large):
        row = {"target": a.label, "small_path": a.path, "large_path": b.path}
        if a.path is None:
            row.update(skipped=a.note)
        else:
            row["small"], row["small_status"] = _count(small_client, a.path)
            row["large"], row["large_status"] = _count(large_client, b.path)
            row["constant"] = row["large"] <= row["small"]
        rows.append(row)
    return rows


def _client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _targets(club: dict):
    return [
        *api_targets(club["club"], club["heavy"]),
        *page_targets(club["club"], club["heavy"]),
        *ap_targets(club["cg3"]),
    ]


def _count(client, path) -> tuple[int, int]:
    """Queries of a request whose answer is not kept yet (the cache of per-audience answers
    cleared): the most a request costs."""
    from django.core.cache import cache

    client.get(path)  # warm caches that are not the point (system registry, templates)
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    return len(captured), response.status_code
