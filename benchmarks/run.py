"""Run every benchmark and record the results: `make bench` (or `python -m benchmarks.run`).

  1. generate the benchmark clubs through the services (benchmarks.generate)
  2. (b) queries per API call and page at two data sizes (benchmarks.queries)
  3. (a) rps and p50/p99 latency under gunicorn, each beside the bare view (benchmarks.load)
  4. (c) PDF render time and peak memory for 13/100/500/2,000 rows (benchmarks.render)

Results: benchmarks/results/<name>.json, and the table in benchmarks/README.md.
Options: --reuse (keep the generated data), --duration S, --concurrency N,
--workers N, --name NAME, --no-readme.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
import time
from pathlib import Path

from benchmarks.django_env import setup

setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from benchmarks import generate, load, queries, render  # noqa: E402
from benchmarks.targets import Target, campaign_page  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA_FILE = HERE.parent / "var" / "bench" / "data.json"


def main(argv=None) -> int:
    args = _arguments(argv)
    started = time.perf_counter()
    data = _data(args.reuse)
    result = {"name": args.name, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": machine(), "data": generate.counts()}
    say("(b) queries per request, small vs large club")
    result["queries"] = queries.measure(data)
    for row in result["queries"]:
        say(f"    {row['target']:<28} " + (f"{row['small']:>3} -> {row['large']:>3}" if "small" in row
                                         else f"skipped: {row['skipped']}"))
    say(f"(a) load: {args.concurrency} concurrent clients, {args.duration:g} s per target, "
        f"{args.workers} gunicorn workers")
    result["load_average"] = {"before_load": _busy()}
    result["load"] = _load(data, args)
    say("(c) PDF render")
    result["load_average"]["before_render"] = _busy()
    result["render"] = render.measure()
    for row in result["render"]:
        say(f"    {row['rows']:>5} rows: {row['seconds']:.2f} s, {row['pages']} pages, peak {row['peak_rss_mb']} MB")
    result["seconds"] = round(time.perf_counter() - started)
    path = HERE / "results" / f"{args.name}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    say(f"results: {path.relative_to(HERE.parent)}")
    if not args.no_readme:
        update_readme(result)
        say("table: benchmarks/README.md")
    grown = [r["target"] for r in result["queries"] if r.get("constant") is False]
    if grown:
        say(f"QUERY COUNTS GROW WITH ROWS: {', '.join(grown)}")
        return 1
    return 0


def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reuse", action="store_true", help="keep the data of the last run (skip the generator)")
    parser.add_argument("--duration", type=float, default=6.0, help="seconds measured per target (default 6)")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent connections (default 8)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", 3)),
                        help="gunicorn workers (default $WEB_CONCURRENCY or 3, as in the Procfile)")
    parser.add_argument("--name", default=None, help="results file name (default <date>-<database>)")
    parser.add_argument("--no-readme", action="store_true", help="do not update the table in benchmarks/README.md")
    args = parser.parse_args(argv)
    args.name = args.name or f"{datetime.date.today().isoformat()}-{connection.vendor}"
    if not re.fullmatch(r"[\w.-]+", args.name):
        parser.error("--name: letters, digits, '.', '-' and '_' only")
    return args


def _data(reuse: bool) -> dict:
    if reuse and DATA_FILE.exists():
        data = json.loads(DATA_FILE.read_text())
        counts = generate.counts()
        if all(slug in data and "user" in data[slug] and counts[slug]["campaigns"] == len(data[slug]["campaigns"])
               for slug in (generate.SMALL.slug, generate.LARGE.slug)):
            say("reusing the generated clubs")
            return data
    _fresh_sqlite()
    say(f"generating the benchmark clubs into {connection.vendor} (takes a few minutes)")
    data = generate.generate(log=say)
    DATA_FILE.write_text(json.dumps(data))
    return data


def _busy() -> float:
    """The 1-minute load average; warns when other work competes with the benchmark."""
    load_average = round(os.getloadavg()[0], 2)
    if load_average > (os.cpu_count() or 1) / 2:
        say(f"    warning: load average {load_average} on {os.cpu_count()} CPUs: other work competes, "
            "figures will be low")
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
        campaign_page(large["heavy"]),
    ]
    headers = {"Cookie": session_cookie(), "Host": "127.0.0.1"}
    rows = []
    processes = max(1, min(args.concurrency, os.cpu_count() or 1))
    with load.gunicorn(args.workers) as port:
        for target in targets:
            if target.path is None:
                rows.append({"target": target.label, "skipped": target.note})
                say(f"    {target.label:<22} skipped: {target.note}")
                continue
            # The bare view right before and right after the target: other work on the
            # machine that comes and goes shows as a difference between the two.
            def bare_run():
                return load.run(port, load.BARE, headers, duration=args.duration, concurrency=args.concurrency,
                                processes=processes)

            before = bare_run()
            measured = load.run(port, target.path, headers, duration=args.duration, concurrency=args.concurrency,
                                processes=processes)
            after = bare_run()
            bare = {**before, "rps": round((before["rps"] + after["rps"]) / 2, 1),
                    "p50_ms": _mean(before["p50_ms"], after["p50_ms"]),
                    "p99_ms": _mean(before["p99_ms"], after["p99_ms"]), "before": before, "after": after}
            ratio = round(measured["rps"] / bare["rps"], 3) if bare["rps"] else None
            rows.append({"target": target.label, "workers": args.workers, "bare": bare, "measured": measured,
                         "ratio": ratio})
            say(f"    {target.label:<22} {measured['rps']:>7.1f} rps p50 {measured['p50_ms']} ms "
                f"p99 {measured['p99_ms']} ms | bare {bare['rps']:.1f} rps | ratio {ratio}")
    return rows


def _mean(a, b):
    return round((a + b) / 2, 2) if a is not None and b is not None else None


def session_cookie() -> str:
    """A signed-in session for the benchmark user, made the way django.contrib.auth.login makes one."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    user = get_user_model().objects.get(username=generate.USER)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal"))
        memory = f"{mem_kb / 2**20:.0f} GB"
    except (OSError, StopIteration):
        memory = "?"
    import django
    import weasyprint

    with connection.cursor() as cursor:
        cursor.execute("select sqlite_version()" if connection.vendor == "sqlite" else "show server_version")
        db_version = cursor.fetchone()[0]
    return {
        "cpu": cpu, "cpus": os.cpu_count(), "memory": memory, "os": platform.platform(),
        "python": platform.python_version(), "django": django.get_version(), "weasyprint": weasyprint.__version__,
        "database": f"{connection.vendor} {db_version}",
    }


# --- the README table --------------------------------------------------------------------------

START, END = "<!-- results:start -->", "<!-- results:end -->"


def update_readme(result: dict) -> None:
    readme = HERE / "README.md"
    text = readme.read_text()
    if START not in text or END not in text:
        return
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{table(result)}{END}{tail}")


def table(result: dict) -> str:
    m = result["machine"]
    lines = [
        f"Run `{result['name']}` on {result['date'][:16].replace('T', ' ')} UTC: {m['cpu']}, {m['cpus']} CPUs, "
        f"{m['memory']}, {m['os']}, Python {m['python']}, Django {m['django']}, {m['database']}, "
        f"WeasyPrint {m['weasyprint']}. Load average before the load test "
        f"{result.get('load_average', {}).get('before_load', '?')}, before the renders "
        f"{result.get('load_average', {}).get('before_render', '?')} (other work on the machine lowers the figures).",
        "",
        "Data: " + "; ".join(f"{slug}: {c['campaigns']} campaigns, {c['scenarios']} scenarios, "
                             f"{c['roster_entries']} roster entries, {c['events']} journal events"
                             for slug, c in result["data"].items()) + ".",
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
        lines.append(f"| {row['target']} | {t['rps']} | {t['p50_ms']} | {t['p99_ms']} | {b['rps']} | {b['p50_ms']} "
                     f"| {b['p99_ms']} | {row['ratio']} |")
    first = next((r for r in result["load"] if "measured" in r), None)
    if first:
        lines += ["", f"{first['measured']['concurrency']} concurrent connections, {first['workers']} sync workers, "
                      f"{first['measured']['seconds']:g} s per target."]
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
            lines.append(f"| {row['target']} | {row['small']} | {row['large']} | "
                         f"{'yes' if row['constant'] else '**NO**'} |")
    lines += [
        "",
        f"**(c) PDF render** ({result['render'][0]['renderer']}; one fresh process per size)",
        "",
        "| rows | pages | seconds | peak RSS MB | RSS before MB | PDF KB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in result["render"]:
        lines.append(f"| {row['rows']} | {row['pages']} | {row['seconds']} | {row['peak_rss_mb']} | "
                     f"{row['rss_before_mb']} | {row['pdf_bytes'] // 1024} |")
    return "\n".join(lines) + "\n"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
