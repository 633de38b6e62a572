"""Gunicorn's settings for Muster behind a proxy (deploy/systemd/muster-web.service).

    .venv/bin/gunicorn --config deploy/gunicorn.conf.py muster.wsgi

Muster's own settings come from .env beside manage.py; these are the server's. Each may be
overridden in the unit's environment (MUSTER_BIND, WEB_CONCURRENCY, ...).
"""

import os

# Only the proxy on this machine talks to gunicorn (nginx: deploy/nginx/muster.conf). A web
# node behind a proxy on another machine binds its private address, e.g. 10.0.0.11:8000.
bind = os.environ.get("MUSTER_BIND", "127.0.0.1:8000")
# About two per CPU: requests wait mostly on PostgreSQL and Redis (docs/operations.md).
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
# The app (settings, URLs, game systems) is loaded once, in the master, before the workers fork:
# a bad setting stops gunicorn with its one line and exit code 2 instead of a worker boot loop,
# and the workers share the loaded code's memory.
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
accesslog = "-"  # the journal (systemd), beside the proxy's own log with the client's address
errorlog = "-"
# Request lines and headers bounded as the proxy bounds them.
limit_request_line = 8190
limit_request_fields = 100
