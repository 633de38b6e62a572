"""A web worker is ready when it takes its first request: the WSGI module imports every view
and game system (a cold first request cost about 1.5 s while the requests behind it queued),
then freezes what it holds, so the collector's full passes do not walk it during requests, and
collects its youngest generation less often (muster.collector); a Celery worker does the same
with its loaded systems before it forks its pool."""

import os
import subprocess
import sys
from pathlib import Path

from muster.collector import YOUNGEST

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import muster.wsgi
from campaigns.systems import _read_from
print(",".join(sorted(m for m in ("api.campaigns", "campaigns.views.play", "rosters.views") if m in sys.modules)))
print(int(_read_from[0] is not None))  # the registry read: every game system loaded
import gc
print(gc.get_freeze_count(), len(gc.get_objects()), gc.get_threshold()[0])
"""
CELERY_PROBE = """
import gc
from muster.celery import _load_game_systems
before = gc.get_freeze_count()
_load_game_systems()
from campaigns.systems import _read_from
print(before, gc.get_freeze_count(), int(_read_from[0] is not None), gc.get_threshold()[0])
"""


def _run(probe) -> str:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "muster.settings",
        "DATABASE_URL": "sqlite:///:memory:",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wsgi_module_loads_the_views_and_systems_before_any_request():
    modules, systems, frozen, tracked, youngest = _run(PROBE).split()
    assert modules == "api.campaigns,campaigns.views.play,rosters.views"
    assert int(systems) == 1
    # Everything loaded so far is frozen; what the collector still tracks is what came after.
    assert int(frozen) > 50_000 and int(tracked) < int(frozen) // 10
    assert int(youngest) == YOUNGEST


def test_the_celery_worker_freezes_the_loaded_systems_before_forking():
    before, frozen, systems, youngest = map(int, _run(CELERY_PROBE).split())
    assert before == 0 and frozen > 50_000 and systems == 1
    assert youngest == YOUNGEST
