"""Run every benchmark and record the results: `make bench` (or `python -m benchmarks.run`).

  1. generate the benchmark clubs through the services (benchmarks.generate)
  2. (b) queries per API call and page at two data sizes (benchmarks.queries)
  3. (a) rps and p50/p99 latency under gunicorn, each beside the bare view (benchmarks.load)
  4. (d) writes under load: 16 clients on 16 campaigns and 4 on one, the write-rate limit lifted
     for them, then the limit checked on its own on a site with it on (benchmarks.writes)
  5. (c) PDF render time and peak memory for 13/100/500/2,000 rows, beside Chromium's time
     on the same HTML (benchmarks.render)
  6. (e) the JSON encoder: DRF's against orjson on the same answers
  7. (f) growth: the CG III page, state API and an append at 1, 4, 8 and 13 half-days, a club's
     list and dashboard at 10, 100 and 1,000 campaigns (benchmarks.growth); --no-growth skips it

Every target (benchmarks/README.md, "Targets") is printed beside its figure; the run exits 1
when one is missed. Results: benchmarks/results/<name>.json, and the table in
benchmarks/README.md. With REDIS_URL set, the cache is Redis and a Celery worker of the
benchmark's own runs the background tasks (as in production). Options: --reuse (keep the
generated data), --duration S, --concurrency N, --workers N, --write-seconds S,
--write-interval S, --name NAME, --no-growth, --no-readme.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from benchmarks.django_env import setup

setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import DatabaseError, connection  # noqa: E402

from benchmarks import (  # noqa: E402
    encoders,
    generate,
    growth,
    judge,
    load,
    queries,
    real_sheets,
    render,
    writes,
)
from benchmarks.targets import (  # noqa: E402
    Target,
    ap_targets,
    campaign_page,
    in_play_targets,
)

HERE = Path(__file__).resolve().parent


def _data_file() -> Path:
    """What the generator made, per database (SQLite and PostgreSQL runs keep their own)."""
    name = re.sub(r"[^\w.-]", "_", Path(str(connection.settings_dict["NAME"])).name)
    return HERE.parent / "var" / "bench" / f"data-{connection.vendor}-{name}.json"


def main(argv=None) -> int:
    args = _arguments(argv)
    stray = _other_workers()
    if stray:
        say(
            f"another Celery worker answers on the benchmark's broker ({', '.join(stray)}): it would take "
            "the benchmark's tasks and share its CPUs. Stop it first (a benchmark stopped midway leaves "
            "one: pkill -f 'celery -A muster worker -Q muster-bench')."
        )
        return 2
    started = time.perf_counter()
    data = _data(args.reuse)
    result = {
        "name": args.name,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "data": generate.counts(),
    }
    with _worker():
        say("(b) queries per request, small vs large club")
        result["queries"] = queries.measure(data)
        for row in result["queries"]:
            say(
                f"    {row['target']:<28} "
                + (
                    f"{row['small']:>3} -> {row['large']:>3}"
                    if "small" in row
                    else f"skipped: {row['skipped']}"
                )
            )
        say(
            f"(a) load: {args.concurrency} concurrent clients, {args.duration:g} s per target, "
            f"{args.workers} gunicorn workers"
        )
        result["load_average"] = {"before_load": _busy()}
        result["load"] = _load(data, args)
        say(
            f"(d) writes: {writes.SINGLE} clients on as many campaigns and {writes.SHARED} on one, "
            f"{args.write_seconds:g} s"
        )
        result["load_average"]["before_writes"] = _busy()
        result["writes"] = _writes(args)
    say("(c) PDF render, beside Chromium on the same HTML")
    result["load_average"]["before_render"] = _busy()
    result["render"] = render.measure()
    for row in result["render"]:
        compared = (
            f"Chromium {row['chromium_seconds']} s"
            if row.get("chromium_seconds")
            else f"Chromium not compared: {row.get('chromium_skipped')}"
        )
        say(
            f"    {row['rows']:>5} rows: {row['seconds']:.2f} s, {row['pages']} pages, peak {row['peak_rss_mb']} MB"
            f" | {compared}"
        )
    say("(c) the sheets people print, beside Chromium on the same content")
    result["real_sheets"] = real_sheets.measure()
    for row in result["real_sheets"]:
        compared = (
            f"{row['chromium_ratio']}× Chromium ({row['chromium_seconds']} s)"
            if row.get("chromium_ratio") is not None
            else f"Chromium not compared: {row.get('chromium_skipped')}"
        )
        say(
            f"    {row['sheet']:<40} {row['seconds']:.2f} s {row['engine']}, {row['pages']} pages | {compared}"
        )
    say("(e) JSON encoder")
    result["encoders"] = encoders.measure(data)
    for row in result["encoders"]:
        say(
            f"    {row['answer']:<28} DRF {row['drf_ms']} ms, orjson {row['orjson_ms']} ms ({row['kb']} KB)"
        )
    if not args.no_growth:
        say(
            "(f) growth: CG III after 1, 4, 8 and 13 half-days; clubs of 10, 100 and 1,000 campaigns "
            "(generated first, a few minutes)"
        )
        result["load_average"]["before_growth"] = _busy()
        result["growth"] = growth.measure(growth.generate(log=say), say)
    result["targets"] = judge.targets(result)
    result["seconds"] = round(time.perf_counter() - started)
    path = HERE / "results" / f"{args.name}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    say(f"results: {path.relative_to(HERE.parent)}")
    if not args.no_readme:
        update_readme(result)
        say("table: benchmarks/README.md")
    say("targets:")
    for row in result["targets"]:
        say(f"    {judge.VERDICT[row['met']]} {row['target']:<58} {row['figure']}")
    missed = judge.missed(result["targets"])
    if missed:
        say(f"{len(missed)} target(s) missed: {'; '.join(missed)}")
        return 1
    return 0


def _other_workers() -> list[str]:
    """The names of Celery workers already listening on the benchmark's broker (REDIS_URL set)."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return []
    from muster.celery import app

    try:
        replies = app.control.ping(timeout=1.0)
    except Exception as error:  # the broker is away: the run would fail anyway, say why
        raise SystemExit(
            f"the broker in REDIS_URL does not answer ({error.__class__.__name__})"
        ) from None
    return sorted(name for reply in replies for name in reply)


@contextmanager
def _worker():
    """With REDIS_URL, the background tasks (odds) run in a Celery worker, as in production."""
    from django.conf import settings

    if not settings.REDIS_URL:
        yield
        return
    from django.core.cache import cache

    cache.clear()  # the benchmark's own Redis database: nothing kept from an earlier run
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.settings"}
    log = open(HERE.parent / "var" / "bench" / "celery.log", "w")
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "muster",
            "worker",
            "-Q",
            f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.CELERY_ODDS_QUEUE}",
            "--concurrency",
            "1",
            "--loglevel",
            "warning",
        ],
        cwd=HERE.parent,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    say(
        f"    Celery worker {process.pid} on queues {settings.CELERY_TASK_DEFAULT_QUEUE} and "
        f"{settings.CELERY_ODDS_QUEUE} (REDIS_URL set)"
    )
    try:
        yield
    finally:
        load.stop(process, timeout=30)
        log.close()


def _writes(args) -> dict:
    from django.conf import settings

    clients = writes.setup()
    limited = writes.limit_client()
    before = writes.event_counts(clients)
    if settings.WRITE_LIMIT_LIFTED:
        say(
            f"    the write-rate limit ({settings.WRITE_LIMIT} writes a minute per member) is lifted for "
            "the benchmark's clients (benchmarks/settings.py): counted, never refused; checked on "
            "its own after the runs"
        )
    out: dict = {}
    appended: dict[int, int] = {}
    with load.gunicorn(args.workers) as port:
        # Two paced seconds first, not reported (their appends are checked like the others): every
        # worker opens its connections to the database, Redis and the broker, as on a site that
        # has been up for a while; the reads are measured the same way (after a first request).
        for mode, interval in (
            ("warm-up", args.write_interval),
            ("paced", args.write_interval),
            ("saturated", None),
        ):
            run = writes.run(
                port,
                clients,
                seconds=2 if mode == "warm-up" else args.write_seconds,
                interval=interval,
            )
            for pk, n in run.pop("per_campaign").items():
                appended[pk] = appended.get(pk, 0) + n
            if mode == "warm-up":
                continue
            out[mode] = run
            for group in ("different", "same"):
                g = run[group]
                say(
                    f"    {mode:<9} {group:<9} {g['clients']:>2} clients: {g['appends_per_s']:>6} appends/s, "
                    f"p50 {g['p50_ms']} ms, p99 {g['p99_ms']} ms, errors {g['errors']} {g['statuses'] or ''}"
                )
        from .urls import make_bare_write_table

        make_bare_write_table()
        bare = writes.run(
            port, clients, seconds=args.write_seconds, interval=None, path=load.BARE_WRITE
        )
        bare.pop("per_campaign")
        out["bare_saturated"] = bare
        g = bare["all"]
        say(
            f"    saturated, the bare write ({load.BARE_WRITE}), {g['clients']} clients: {g['appends_per_s']} "
            f"writes/s, p50 {g['p50_ms']} ms, p99 {g['p99_ms']} ms, errors {g['errors']} {g['statuses'] or ''}"
        )
    out["checks"] = writes.check(clients, appended, before)
    good = sum(
        1 for c in out["checks"] if c["replay_equals_snapshot"] and c["events"] == c["expected"]
    )
    say(f"    replay equals snapshot, events as answered: {good} of {len(out['checks'])} campaigns")
    out["limit_lifted"] = settings.WRITE_LIMIT_LIFTED
    out["limit"] = _limit_check(args, limited)
    return out


def _limit_check(args, client: dict) -> dict:
    """The write-rate limit still holds: a site with it on (BENCH_WRITE_LIMIT=on) answers one
    member's write past the limit 429 (benchmarks.writes.limit_check)."""
    from django.conf import settings

    from campaigns.models import Event

    limit = settings.WRITE_LIMIT
    # Without Redis each web worker counts in its own memory: one worker, so that one count holds.
    workers = args.workers if settings.REDIS_URL else 1
    with load.gunicorn(workers, env={"BENCH_WRITE_LIMIT": "on"}) as port:
        result = writes.limit_check(
            writes.http_post(port, client),
            limit,
            lambda: Event.objects.filter(campaign_id=client["campaign"]).count(),
        )
    result["workers"] = workers
    say(
        f"    write-rate limit on ({limit} a minute, {workers} web worker{'s' if workers != 1 else ''}): "
        f"{result['figure']}"
    )
    return result


def _arguments(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--reuse", action="store_true", help="keep the data of the last run (skip the generator)"
    )
    parser.add_argument(
        "--duration", type=float, default=6.0, help="seconds measured per target (default 6)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="concurrent connections (default 8)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", 3)),
        help="gunicorn workers (default $WEB_CONCURRENCY or 3, as in the Procfile)",
    )
    parser.add_argument(
        "--write-seconds", type=float, default=30.0, help="seconds of each write run (default 30)"
    )
    parser.add_argument(
        "--write-interval",
        type=float,
        default=1.0,
        help="seconds between a paced write client's steps (default 1)",
    )
    parser.add_argument(
        "--name", default=None, help="results file name (default <date>-<database>)"
    )
    parser.add_argument(
        "--no-growth",
        action="store_true",
        help="skip (f) growth (its clubs take a few minutes to generate)",
    )
    parser.add_argument(
        "--no-readme", action="store_true", help="do not update the table in benchmarks/README.md"
    )
    args = parser.parse_args(argv)
    args.name = args.name or f"{datetime.date.today().isoformat()}-{connection.vendor}"
    if not re.fullmatch(r"[\w.-]+", args.name):
        parser.error("--name: letters, digits, '.', '-' and '_' only")
    return args


def _data(reuse: bool) -> dict:
    if reuse and _data_file().exists():
        data = json.loads(_data_file().read_text())
        counts = generate.counts()
        if all(
            slug in data
            and "cg3" in data[slug]
            and counts[slug]["campaigns"] == len(data[slug]["campaigns"])
            for slug in (generate.SMALL.slug, generate.LARGE.slug)
        ) and "cg3_refit" in data.get(generate.PLAY_CLUB, {}):
            say("reusing the generated clubs")
            return data
    _fresh_sqlite()
    say(f"generating the benchmark clubs into {connection.vendor} (takes a few minutes)")
    data = generate.generate(log=say)
    settle_database(
        say
    )  # before the data file: a --reuse run never finds data that was not settled
    _data_file().write_text(json.dumps(data))
    return data


def settle_database(log: Callable[[str], None] | None = None) -> None:
    """On PostgreSQL, the database (the fresh generated tables) analysed and its pages written out before
    anything is measured, as on a site that has been up a while: otherwise the planner works
    without statistics (a list's count read every row of the table, not its index), and a
    checkpoint writing the generator's pages can land in a load phase. Also after (f)'s clubs."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        try:
            cursor.execute("CHECKPOINT")  # a superuser's (or pg_checkpoint's) only
        except DatabaseError as error:
            (log or say)(
                f"    no CHECKPOINT ({error.__class__.__name__}): a checkpoint may land in a measurement"
            )


def _busy() -> float:
    """The 1-minute load average; warns when other work competes with the benchmark."""
    load_average = round(os.getloadavg()[0], 2)
    if load_average > (os.cpu_count() or 1) / 2:
        say(
            f"    warning: load average {load_average} on {os.cpu_count()} CPUs: other work competes, "
            "figures will be low"
        )
    return load_average


def _fresh_sqlite() -> None:
    """The default benchmark database (SQLite under var/bench/) starts empty every run:
    a schema migrated by an older checkout would not match the code."""
    from benchmarks.settings import _VAR

    name = Path(str(connection.settings_dict["NAME"]))
    if connection.vendor != "sqlite" or not name.is_relative_to(_VAR):
        return
    connection.close()
    for path in (name, name.with_name(name.name + "-wal"), name.with_name(name.name + "-shm")):
        path.unlink(missing_ok=True)


def _load(data, args) -> list[dict]:
    large = data[generate.LARGE.slug]
    targets = [
        Target("API campaign list", f"/api/v1/campaigns/?club={large['club']}"),
        Target("API campaign detail", f"/api/v1/campaigns/{large['heavy']}/"),
        Target("API campaign state", f"/api/v1/campaigns/{large['heavy']}/state/"),
        campaign_page(large["heavy"]),
        *ap_targets(large["cg3"]),
        *in_play_targets(data[generate.PLAY_CLUB]),
    ]
    cookies: dict[str, str] = {}  # username -> a signed-in session of their own

    def headers_for(target: Target) -> dict[str, str]:
        user = target.user or generate.USER
        if user not in cookies:
            cookies[user] = session_cookie(user)
        return {"Cookie": cookies[user], "Host": "127.0.0.1"}

    bare_headers = headers_for(Target("bare", load.BARE))
    rows = []
    processes = max(1, min(args.concurrency, os.cpu_count() or 1))
    with load.gunicorn(args.workers) as port:
        for target in targets:
            if target.path is None:
                rows.append({"target": target.label, "skipped": target.note})
                say(f"    {target.label:<30} skipped: {target.note}")
                continue

            # The bare view right before and right after the target: other work on the
            # machine that comes and goes shows as a difference between the two.
            def bare_run():
                return load.run(
                    port,
                    load.BARE,
                    bare_headers,
                    duration=args.duration,
                    concurrency=args.concurrency,
                    processes=processes,
                )

            before = bare_run()
            measured = load.run(
                port,
                target.path,
                headers_for(target),
                duration=args.duration,
                concurrency=args.concurrency,
                processes=processes,
            )
            after = bare_run()
            bare = {
                **before,
                "rps": round((before["rps"] + after["rps"]) / 2, 1),
                "p50_ms": _mean(before["p50_ms"], after["p50_ms"]),
                "p99_ms": _mean(before["p99_ms"], after["p99_ms"]),
                "before": before,
                "after": after,
            }
            ratio = round(measured["rps"] / bare["rps"], 3) if bare["rps"] else None
            rows.append(
                {
                    "target": target.label,
                    "user": target.user or generate.USER,
                    "workers": args.workers,
                    "bare": bare,
                    "measured": measured,
                    "ratio": ratio,
                }
            )
            say(
                f"    {target.label:<30} {measured['rps']:>7.1f} rps p50 {measured['p50_ms']} ms "
                f"p99 {measured['p99_ms']} ms | bare {bare['rps']:.1f} rps | ratio {ratio}"
            )
    return rows


def _mean(a, b):
    return round((a + b) / 2, 2) if a is not None and b is not None else None


def session_cookie(username: str = generate.USER) -> str:
    """A signed-in session of `username` (the benchmark user, "bench", unless told), made the way
    django.contrib.auth.login makes one."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
    user = get_user_model().objects.get(username=username)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "muster.auth.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass
    try:
        mem_kb = next(
            int(line.split()[1])
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        )
        memory = f"{mem_kb / 2**20:.0f} GB"
    except (OSError, StopIteration):
        memory = "?"
    import django
    import weasyprint

    with connection.cursor() as cursor:
        cursor.execute(
            "select sqlite_version()" if connection.vendor == "sqlite" else "show server_version"
        )
        db_version = cursor.fetchone()[0]
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "weasyprint": weasyprint.__version__,
        "database": f"{connection.vendor} {db_version}",
    }


# --- the README table --------------------------------------------------------------------------


def _markers(result: dict) -> tuple[str, str]:
    vendor = result["machine"]["database"].split()[0]
    return f"<!-- results:{vendor}:start -->", f"<!-- results:{vendor}:end -->"


def update_readme(result: dict) -> None:
    """The table of this database's latest run (SQLite and PostgreSQL keep one each)."""
    readme = HERE / "README.md"
    text = readme.read_text()
    start, end = _markers(result)
    if start not in text or end not in text:
        return
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    if result.get("growth"):
        growth.update_readme(
            result["growth"], result["machine"], f"`make bench` run `{result['name']}`"
        )
    readme.write_text(f"{head}{start}\n{table(result)}{end}{tail}")


def table(result: dict) -> str:
    m = result["machine"]
    lines = [
        f"Run `{result['name']}` on {result['date'][:16].replace('T', ' ')} UTC: {m['cpu']}, {m['cpus']} CPUs, "
        f"{m['memory']}, {m['os']}, Python {m['python']}, Django {m['django']}, {m['database']}, "
        f"WeasyPrint {m['weasyprint']}. Load average before the load test "
        f"{result.get('load_average', {}).get('before_load', '?')}, before the writes "
        f"{result.get('load_average', {}).get('before_writes', '?')}, before the renders "
        f"{result.get('load_average', {}).get('before_render', '?')}"
        + (
            f", before the growth curves {result['load_average']['before_growth']}"
            if "before_growth" in result.get("load_average", {})
            else ""
        )
        + " (other work on the machine lowers the figures).",
        "",
        "**Targets** (this run)",
        "",
        "| target | figure | met |",
        "| --- | --- | --- |",
        *[
            f"| {t['target']} | {t['figure']} | {judge.MET_WORDS[t['met']]} |"
            for t in result["targets"]
        ],
        "",
        "Data: "
        + "; ".join(
            f"{slug}: {c['campaigns']} campaigns, {c['scenarios']} scenarios, "
            f"{c['roster_entries']} roster entries, {c['events']} journal events"
            for slug, c in result["data"].items()
        )
        + ".",
        "",
        "**(a) Load** (gunicorn on 127.0.0.1; bare = the constant-JSON view right before and after each target, "
        "averaged)",
        "",
        "| target | rps | p50 ms | p99 ms | bare rps | bare p50 ms | bare p99 ms | target/bare |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in result["load"]:
        if "skipped" in row:
            lines.append(f"| {row['target']} | skipped: {row['skipped']} | | | | | | |")
            continue
        t, b = row["measured"], row["bare"]
        lines.append(
            f"| {row['target']} | {t['rps']} | {t['p50_ms']} | {t['p99_ms']} | {b['rps']} | {b['p50_ms']} "
            f"| {b['p99_ms']} | {row['ratio']} |"
        )
    first = next((r for r in result["load"] if "measured" in r), None)
    if first:
        lines += [
            "",
            f"{first['measured']['concurrency']} concurrent connections, {first['workers']} sync workers, "
            f"{first['measured']['seconds']:g} s per target.",
        ]
    lines += [
        "",
        "**(b) Queries per request** (same request, small club vs large club)",
        "",
        "| request | small | large | constant |",
        "| --- | ---: | ---: | --- |",
    ]
    for row in result["queries"]:
        if "skipped" in row:
            lines.append(f"| {row['target']} | | | skipped: {row['skipped']} |")
        else:
            lines.append(
                f"| {row['target']} | {row['small']} | {row['large']} | "
                f"{'yes' if row['constant'] else '**NO**'} |"
            )
    w = result["writes"]
    lines += [
        "",
        f"**(d) Writes under load** (API through gunicorn, `drill.train` side steps; {writes.SINGLE} clients on "
        f"as many campaigns and {writes.SHARED} on one, two per side, all at once; paced: a step every "
        f"{w['paced']['interval_s']:g} s per client, the clients' steps spread over that second; saturated: the "
        f"next step as soon as the last is answered; {w['paced']['seconds']:g} s each, after two unreported "
        "seconds of warm-up)"
        + (
            "; the write-rate limit lifted for these clients (counted, never refused; "
            "`benchmarks/settings.py`)"
            if w.get("limit_lifted")
            else ""
        ),
        "",
        "| run | clients | appends/s | p50 ms | p99 ms | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for mode in ("paced", "saturated"):
        for group, words in (("different", "on different campaigns"), ("same", "on one campaign")):
            g = w[mode][group]
            lines.append(
                f"| {mode}, {words} | {g['clients']} | {g['appends_per_s']} | {g['p50_ms']} | {g['p99_ms']} "
                f"| {g['errors']} |"
            )
    if w.get("bare_saturated"):
        g = w["bare_saturated"]["all"]
        lines.append(
            f"| saturated, the bare write (the ceiling: a token-authenticated one-row insert) | "
            f"{g['clients']} | {g['appends_per_s']} | {g['p50_ms']} | {g['p99_ms']} | {g['errors']} |"
        )
    good = sum(
        1 for c in w["checks"] if c["replay_equals_snapshot"] and c["events"] == c["expected"]
    )
    lines += [
        "",
        f"Afterwards: {good} of {len(w['checks'])} journals fold to their stored snapshot, each with as many "
        "events as appends were answered 201.",
    ]
    if w.get("limit"):
        lim = w["limit"]
        lines += [
            "",
            f"The write-rate limit, on ({lim['limit']} writes a minute per member; a site of its own, "
            f"{lim['workers']} web worker{'s' if lim['workers'] != 1 else ''}): one member's "
            f"{lim['limit'] + 1} writes within a minute: {lim['figure']}.",
        ]
    lines += [
        "",
        f"**(c) PDF render** ({result['render'][0]['renderer']}; one fresh process per size; Chromium: "
        "a fresh headless process printing the same HTML)",
        "",
        "| rows | engine | pages | seconds | Chromium s | ratio | peak RSS MB | RSS before MB | PDF KB |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in result["render"]:
        lines.append(
            f"| {row['rows']} | {row.get('engine', '–')} | {row['pages']} | {row['seconds']} | "
            f"{row.get('chromium_seconds', '–')} | "
            f"{row.get('chromium_ratio', '–')} | {row['peak_rss_mb']} | {row['rss_before_mb']} | "
            f"{row['pdf_bytes'] // 1024} |"
        )
    lines += [
        "",
        "**(e) JSON encoder** (the same answer encoded by DRF's renderer and by orjson, ms, best of 5)",
        "",
        "| answer | KB | DRF ms | orjson ms | speed-up |",
        "| --- | ---: | ---: | ---: | ---: |",
        *[
            f"| {e['answer']} | {e['kb']} | {e['drf_ms']} | {e['orjson_ms']} | {e['speedup']}× |"
            for e in result["encoders"]
        ],
    ]
    return "\n".join(lines) + "\n"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
