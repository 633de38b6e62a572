"""What a signed-in GET of a kept campaign page costs beyond the bare view, in process.

The WSGI application (``muster.wsgi``, the benchmark's settings) is called directly, as gunicorn's
sync worker calls it (its body read, then closed), with a browser's environ: the bare view
(``benchmarks/urls.py``) and a campaign page read by a signed-in person, alternated so that other
work on the machine lands on both alike. Prints each one's median microseconds, the page's time
outside its queries' execution, and the ratio of their rates (bare / page time: what `make bench`
compares through gunicorn, without the server, the network and the client), then optionally
cProfiles the page.

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m benchmarks.request_path --user demo-alice --campaign 1 [--profile]

Data: any campaign the user can read (`manage.py load_demo` makes five; `--user` one of its
people). `--no-csrf-cookie` sends the session cookie alone, as `make bench`'s client does (every
answer then sets a new CSRF cookie); by default the browser's CSRF cookie is sent too.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time

from benchmarks import django_env


def environ(path: str, cookie: str) -> dict[str, object]:
    """What gunicorn hands the application for a browser's GET of `path` on 127.0.0.1."""
    return {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "RAW_URI": path,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "SERVER_SOFTWARE": "gunicorn/23.0.0",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "50000",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_USER_AGENT": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.5",
        "HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd",
        "HTTP_CONNECTION": "keep-alive",
        "HTTP_UPGRADE_INSECURE_REQUESTS": "1",
        "HTTP_SEC_FETCH_DEST": "document",
        "HTTP_SEC_FETCH_MODE": "navigate",
        "HTTP_SEC_FETCH_SITE": "same-origin",
        "HTTP_COOKIE": cookie,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def call(application, path: str, cookie: str) -> tuple[str, list[tuple[str, str]], bytes]:
    """One request through the application: status, headers and body, the body closed after."""
    answered: list = []

    def start_response(status, headers, exc_info=None):
        answered[:] = [status, headers]

    body = application(environ(path, cookie), start_response)
    try:
        data = b"".join(body)
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
    return answered[0], answered[1], data


def signed_in_cookie(username: str, csrf: bool) -> str:
    """A session of `username` made as django.contrib.auth.login makes one (and a CSRF cookie as
    the browser keeps it after its first page, unless `csrf` is false)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.middleware.csrf import _get_new_csrf_string

    user = get_user_model().objects.get(username=username)
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "muster.auth.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
    if csrf:
        cookie += f"; {settings.CSRF_COOKIE_NAME}={_get_new_csrf_string()}"
    return cookie


def compute_odds(campaign_id: int) -> None:
    """Each side's odds, as the benchmark's Celery worker computes them after a move: a page whose
    odds are pending draws them (and asks the cache for them) at every request."""
    from campaigns.models import Campaign
    from campaigns.services import odds
    from campaigns.systems import get_system

    campaign = Campaign.objects.get(pk=campaign_id)
    for side in get_system(campaign.system).side_slugs():
        odds.compute_and_store(campaign_id, side)


def measure(application, page: str, cookie: str, rounds: int) -> dict[str, float]:
    """Median microseconds of the bare view and of the page, alternated `rounds` times, and of the
    page's time outside its database round trips (what moves least with other work on the machine:
    a loaded PostgreSQL answers late)."""
    from django.db import connection

    bare_times, page_times, outside = [], [], []
    clock = time.perf_counter_ns
    waited = [0]

    def timed(execute, sql, params, many, context):
        began = clock()
        try:
            return execute(sql, params, many, context)
        finally:
            waited[0] += clock() - began

    with connection.execute_wrapper(timed):
        for _ in range(rounds):
            began = clock()
            call(application, "/bench/constant/", cookie)  # `make bench` sends its cookie there too
            bare_times.append(clock() - began)
            waited[0] = 0
            began = clock()
            call(application, page, cookie)
            page_times.append(clock() - began)
            outside.append(page_times[-1] - waited[0])
    bare = statistics.median(bare_times) / 1000
    served = statistics.median(page_times) / 1000
    return {
        "bare_us": round(bare, 1),
        "page_us": round(served, 1),
        "page_outside_db_us": round(statistics.median(outside) / 1000, 1),
        "ratio": round(bare / served, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--user", default="demo-alice")
    parser.add_argument("--campaign", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3, help="measurements, each of --rounds pairs")
    parser.add_argument("--no-csrf-cookie", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile the page afterwards")
    parser.add_argument("--profile-rounds", type=int, default=3000)
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--lines", type=int, default=45)
    parser.add_argument("--dump", help="write the profile's stats to this file (pstats)")
    args = parser.parse_args(argv)

    django_env.setup()
    from muster.wsgi import application

    page = f"/campaigns/{args.campaign}/"
    compute_odds(args.campaign)
    cookie = signed_in_cookie(args.user, csrf=not args.no_csrf_cookie)
    for path, sent in (("/bench/constant/", cookie), (page, cookie), (page, cookie)):
        status, headers, _ = call(application, path, sent)
        if not status.startswith("200"):
            print(f"GET {path} answered {status}", file=sys.stderr)
            return 1
    print(f"{page} as {args.user}; answer headers:")
    for name, value in headers:
        print(f"  {name}: {value[:100]}")
    call(application, page, cookie)
    for _ in range(args.runs):
        print(measure(application, page, cookie, args.rounds))
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.profile_rounds):
            call(application, page, cookie)
        profile.disable()
        if args.dump:
            profile.dump_stats(args.dump)
        stats = pstats.Stats(profile)
        stats.sort_stats(args.sort).print_stats(args.lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
