"""(e) The JSON encoder: DRF's own (json.dumps with its encoder) against orjson (the API's
renderer, api/renderers.py), on the same answers: the large club's campaign list page and the
CG III campaign's state for its Allied player. Milliseconds per encoding, best of 5 rounds."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.renderers import JSONRenderer as DrfRenderer

from api.renderers import dumps

from .generate import LARGE


def measure(data: dict) -> list[dict]:
    client = Client()
    client.force_login(get_user_model().objects.get(username=data[LARGE.slug]["user"]))
    answers = {
        "API campaign list": f"/api/v1/campaigns/?club={LARGE.slug}",
        "CG III API state": f"/api/v1/campaigns/{data[LARGE.slug]['cg3']}/state/",
    }
    rows = []
    for label, path in answers.items():
        payload = client.get(path).json()
        drf = _best(lambda: DrfRenderer().render(payload))  # noqa: B023 - called at once, in this turn
        fast = _best(lambda: dumps(payload))  # noqa: B023 - called at once, in this turn
        rows.append(
            {
                "answer": label,
                "kb": len(dumps(payload)) // 1024,
                "drf_ms": round(drf * 1000, 3),
                "orjson_ms": round(fast * 1000, 3),
                "speedup": round(drf / fast, 1) if fast else None,
            }
        )
    return rows


def _best(call, rounds: int = 5, repeat: int = 20) -> float:
    best = float("inf")
    for _ in range(rounds):
        began = time.perf_counter()
        for _ in range(repeat):
            call()
        best = min(best, (time.perf_counter() - began) / repeat)
    return best
