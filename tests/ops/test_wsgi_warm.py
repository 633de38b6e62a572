"""A web worker is ready when it takes its first request: the WSGI module imports every view
and game system (a cold first request cost about 1.5 s while the requests behind it queued)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import muster.wsgi
from campaigns.systems import _load
print(",".join(sorted(m for m in ("api.campaigns", "campaigns.views.play", "rosters.views") if m in sys.modules)))
print(_load.cache_info().currsize)
"""


def test_the_wsgi_module_loads_the_views_and_systems_before_any_request():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "muster.settings", "DATABASE_URL": "sqlite:///:memory:"}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    modules, systems = done.stdout.split()
    assert modules == "api.campaigns,campaigns.views.play,rosters.views"
    assert int(systems) == 1
