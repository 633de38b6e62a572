"""(f) Growth is a curve: what a request costs as a campaign grows and as a club grows.

  * an Achtung! Panzer! CG III campaign after 1, 4, 8 and 13 half-days (each stopped where its
    last half-day's Refit Phase has begun: both sides have steps to take, their forms on the page):
    its page and its state API as served (kept answers: a reader after the first), the same right
    after an append (the answer drawn again: shown, no target), and an append (a note, through
    the API);
  * a club of 10, 100 and 1,000 campaigns: the campaign list API (the club's first page), the
    dashboard and the club page, for the club's organizer, who plays red in every campaign.

Every size is a campaign or a club of its own, played or made through the services
(benchmarks.apcg; campaigns.services.campaigns and the journal), so the sizes are measured side
by side at the end, in turns (size 1, 4, 8, 13, then again), not minutes apart: other work on the
machine then lands on every size alike. Each figure is the median of its repetitions, in process
(Django's test client, the benchmark's settings: the write-rate limit lifted). Target: every
size within FACTOR of the smallest.

    python -m benchmarks.growth [--readme] [--half-days 1,4,8,13] [--campaigns 10,100,1000]

alone: generates its clubs (replacing the last ones), measures, prints the figures as JSON;
--readme draws them in benchmarks/README.md (this database's section).
"""

from __future__ import annotations

import datetime
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HALF_DAYS = (1, 4, 8, 13)
CLUB_SIZES = (10, 100, 1000)
FACTOR = 1.5
READS, APPENDS = 15, 7  # repetitions of each read and of the append, per size
CG3_CLUB = "bench-growth-cg3"
HERE = Path(__file__).resolve().parent

Log = Callable[[str], None]


def generate(log: Log, half_days=HALF_DAYS, club_sizes=CLUB_SIZES) -> dict:
    """The growth clubs (replaced): {"cg3": {half_days: campaign pk}, "clubs": {size: {...}},
    "seconds": {...}}."""
    from django.core.management import call_command

    from campaigns.models import Club

    call_command("migrate", verbosity=0, interactive=False)
    Club.objects.filter(slug__startswith="bench-growth").delete()
    started = time.perf_counter()
    cg3 = _cg3_campaigns(log, half_days)
    cg3_seconds = time.perf_counter() - started
    clubs, club_seconds = {}, {}
    for size in club_sizes:
        began = time.perf_counter()
        clubs[size] = _club(size)
        club_seconds[size] = round(time.perf_counter() - began, 1)
        log(f"    a club of {size} campaigns made in {club_seconds[size]:.0f} s")
    from .run import settle_database

    settle_database(log)  # as (a)-(e) are measured: the fresh tables analysed, as on a live site
    return {
        "cg3": cg3,
        "clubs": clubs,
        "seconds": {"cg3": round(cg3_seconds, 1), "clubs": club_seconds},
    }


def _cg3_campaigns(log: Log, sizes) -> dict[int, int]:
    from campaigns.models import Club, Membership

    from .apcg import play
    from .generate import _users

    organizer, german, referee = _users(["bench-g", "bench-g-german", "bench-g-referee"])
    club = Club.objects.create(name="Benchmark club (growth, CG III)", slug=CG3_CLUB)
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in (german, referee)])
    campaigns = {}
    for half_days in sizes:
        began = time.perf_counter()
        game = play(
            club,
            organizer,
            {"allied": organizer, "german": german},
            referee,
            half_days=half_days,
            stop_at=(half_days, "refit"),
        )
        campaigns[half_days] = game.campaign.pk
        log(
            f"    CG III stopped in half-day {half_days}'s Refit Phase "
            f"({time.perf_counter() - began:.0f} s)"
        )
    return campaigns


def _club(size: int) -> dict:
    """A club of `size` Drill campaigns, each created, staffed and started through the services
    (the organizer plays red in each, one member blue), with a few units a side."""
    from campaigns.models import Club, Membership
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    from .generate import _users

    organizer, blue = _users([f"bench-g{size}", f"bench-g{size}-blue"])
    club = Club.objects.create(name=f"Benchmark club (growth, {size})", slug=f"bench-growth-{size}")
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    Membership.objects.create(club=club, user=blue)
    for n in range(size):
        campaign = svc.create_campaign(
            club=club,
            user=organizer,
            system="drill",
            variant="short",
            name=f"Operation {n + 1:04d}",
        )
        svc.assign_player(campaign, organizer, side="red", username=organizer.username)
        svc.assign_player(campaign, organizer, side="blue", username=blue.username)
        submit(campaign, organizer, "campaign.started")
        submit(campaign, organizer, "drill.enlist", {"count": 4, "hidden": 1})
    return {"club": club.slug, "user": organizer.username}


# --- measuring ---------------------------------------------------------------------------------

Probe = Callable[[], dict[str, float]]  # one turn: request name -> seconds


def measure(data: dict, log: Log) -> dict:
    """Every size side by side, in turns; medians in ms, and each beside its smallest size."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    User = get_user_model()
    date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    load_average = round(os.getloadavg()[0], 2)
    cg3_client = Client()
    cg3_client.force_login(User.objects.get(username="bench-g"))
    cg3 = {int(n): _cg3_probes(cg3_client, pk) for n, pk in data["cg3"].items()}
    clubs = {}
    for size, club in data["clubs"].items():
        client = Client()
        client.force_login(User.objects.get(username=club["user"]))
        clubs[int(size)] = [
            (
                READS,
                _served(client, "campaign list API", f"/api/v1/campaigns/?club={club['club']}"),
            ),
            (READS, _served(client, "dashboard", reverse("dashboard"))),
            (READS, _served(client, "club page", reverse("club", kwargs={"slug": club["club"]}))),
        ]
    out = {
        "cg3": _curve(cg3, "half-days"),
        "clubs": _curve(clubs, "campaigns"),
        "seconds": data.get("seconds", {}),
        "date": date,
        "load_average": load_average,
    }
    for name in ("cg3", "clubs"):
        for row in out[name]["rows"]:
            figures = ", ".join(
                f"{size}: {ms}" for size, ms in zip(out[name]["sizes"], row["ms"], strict=True)
            )
            log(f"    {row['request']:<36} ms at {figures} | {row['worst']}× the smallest")
    return out


def _served(client, name: str, path: str) -> Probe:
    """A read as served: the first request is not timed (the answer kept, as for every reader after
    the first)."""
    _timed_get(client, path)
    return lambda: {name: _timed_get(client, path)}


def _cg3_probes(client, pk: int) -> list[tuple[int, Probe]]:
    """The page and the state API as served, and an append (the Allies' note on the scenario in
    hand, through the API) followed by the page and the state API drawn again (in turns which
    comes first). A campaign keeps 20 notes a side and scenario: APPENDS stays well below."""
    from django.urls import reverse

    from campaigns.models import Campaign
    from campaigns.services.state import current_state

    page, state = reverse("campaign", kwargs={"pk": pk}), f"/api/v1/campaigns/{pk}/state/"
    scenario = current_state(Campaign.objects.get(pk=pk))["current"]
    turns = iter(range(10**6))

    def append() -> dict[str, float]:
        n = next(turns)
        body = {"kind": "note.added", "data": {"scenario": scenario, "text": f"Note {n}"}}
        began = time.perf_counter()
        response = client.post(f"/api/v1/campaigns/{pk}/events/", body, "application/json")
        elapsed = time.perf_counter() - began
        if response.status_code != 201:
            raise RuntimeError(f"the append answered {response.status_code}: {response.content!r}")
        out = {"an append (a note, API)": elapsed}
        reads = [
            ("CG III page, after an append", page),
            ("CG III state API, after an append", state),
        ]
        for name, path in reads if n % 2 == 0 else reads[::-1]:
            out[name] = _timed_get(client, path)
        return out

    return [
        (READS, _served(client, "CG III page", page)),
        (READS, _served(client, "CG III state API", state)),
        (APPENDS, append),
    ]


def _timed_get(client, path: str) -> float:
    began = time.perf_counter()
    response = client.get(path)
    elapsed = time.perf_counter() - began
    if response.status_code != 200:
        raise RuntimeError(f"GET {path} answered {response.status_code}")
    return elapsed


def _curve(probes: dict[int, list[tuple[int, Probe]]], unit: str) -> dict:
    """Each probe run at every size in turns (smallest first, then the next, ...), as many turns as
    it asks; the median of each request's times, in ms, and the largest against the smallest."""
    sizes = sorted(probes)
    times: dict[str, dict[int, list[float]]] = {}
    for k in range(len(probes[sizes[0]])):
        for _ in range(probes[sizes[0]][k][0]):
            for size in sizes:
                for name, seconds in probes[size][k][1]().items():
                    times.setdefault(name, {s: [] for s in sizes})[size].append(seconds)
    rows = []
    for name, by_size in times.items():
        ms = [round(statistics.median(by_size[s]) * 1000, 2) for s in sizes]
        rows.append(
            {
                "request": name,
                "ms": ms,
                "worst": round(max(ms) / ms[0], 2) if ms[0] else None,
                "target": "after an append" not in name,
            }
        )
    return {"unit": unit, "sizes": sizes, "rows": rows}


# --- the curve ---------------------------------------------------------------------------------

TITLES = {
    "cg3": "A CG III campaign, by half-days played",
    "clubs": "A club, by its campaigns",
}


def chart(curve: dict, title: str) -> dict:
    """The curve as a chart (campaigns.charts): each request's time at every size over its time at
    the smallest, and the target's line at FACTOR."""
    x = [f"{size:,}" for size in curve["sizes"]]
    series: list[dict] = [
        {"name": row["request"], "values": [round(ms / row["ms"][0], 2) for ms in row["ms"]]}
        for row in curve["rows"]
        if row["ms"][0]
    ]
    series.append({"name": f"target: {FACTOR}×", "values": [FACTOR] * len(x), "kind": "level"})
    return {
        "title": title,
        "x": x,
        "x_name": curve["unit"],
        "series": series,
        "note": "each request's time ÷ its time at the smallest size",
    }


def draw(result: dict, vendor: str, folder: Path = HERE) -> dict[str, str]:
    """The two curves as SVG files beside this module: {"cg3": file name, "clubs": file name}."""
    from campaigns.charts import svg

    names = pictures(vendor)
    for key, title in TITLES.items():
        name = names[key]
        picture = svg(chart(result[key], title))
        (folder / name).write_text('<?xml version="1.0" encoding="utf-8"?>\n' + picture + "\n")
    return names


def pictures(vendor: str) -> dict[str, str]:
    return {key: f"growth-{vendor}-{key}.svg" for key in TITLES}


def update_readme(result: dict, machine: dict, run: str, readme: Path = HERE / "README.md") -> None:
    """This database's growth curves in benchmarks/README.md (between its markers), drawn beside it."""
    vendor = machine["database"].split()[0]
    start, end = f"<!-- growth:{vendor}:start -->", f"<!-- growth:{vendor}:end -->"
    text = readme.read_text()
    if start not in text or end not in text:
        return
    names = draw(result, vendor, readme.parent)
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    said = (
        f"{run}, {result.get('date', '?')[:16].replace('T', ' ')} UTC: {machine['cpu']}, "
        f"{machine['cpus']} CPUs, {machine['database']}"
        + (f", load average {result['load_average']} before" if "load_average" in result else "")
        + "."
    )
    body = "\n".join([said, *table(result, names)]).rstrip("\n") + "\n"
    readme.write_text(f"{head}{start}\n{body}{end}{tail}")


def table(result: dict, pictures: dict[str, str]) -> list[str]:
    """The README's lines for the growth curves: the pictures, then the figures."""
    seconds = result.get("seconds", {})
    made = ", ".join(f"{int(k):,}: {v:g} s" for k, v in seconds.get("clubs", {}).items())
    lines = [
        "",
        f"**(f) Growth** (`benchmarks/growth.py`; in process, the median of {READS} reads and "
        f"{APPENDS} appends per size, the sizes measured in turns; target: every size within "
        f"{FACTOR}× of the smallest). Generated through the services: the four CG III campaigns in "
        f"{seconds.get('cg3', '?')} s, the clubs in {made}.",
        "",
    ]
    for key in TITLES:
        curve, unit = result[key], result[key]["unit"]
        lines += [
            f"![{TITLES[key]}]({pictures[key]})",
            "",
            f"| request | {' | '.join(_words(s, unit) for s in curve['sizes'])} | "
            "largest ÷ smallest | target |",
            "| --- | " + "---: | " * len(curve["sizes"]) + "---: | --- |",
            *[
                f"| {row['request']} | {' | '.join(f'{ms} ms' for ms in row['ms'])} | "
                f"{row['worst']}× | {'≤ ' + str(FACTOR) + '×' if row['target'] else 'shown'} |"
                for row in curve["rows"]
            ],
            "",
        ]
    return lines


def _words(size: int, unit: str) -> str:
    return f"{size:,} {unit[:-1] if size == 1 else unit}"


def targets(result: dict) -> list[dict]:
    """Every request with a target, within FACTOR of its smallest size at every size."""
    rows = []
    for key in TITLES:
        curve = result[key]
        small, large = curve["sizes"][0], curve["sizes"][-1]
        for row in curve["rows"]:
            if not row["target"]:
                continue
            rows.append(
                {
                    "target": f"{row['request']}: up to {large:,} {curve['unit']} ≤ {FACTOR}× {small:,}",
                    "figure": f"{row['worst']}× ({' → '.join(f'{ms} ms' for ms in row['ms'])})",
                    "met": row["worst"] is not None and row["worst"] <= FACTOR,
                }
            )
    return rows


def main(argv: list[str]) -> int:
    """Alone: generate, measure, print the figures as JSON; --readme: and draw them in
    benchmarks/README.md (this database's section)."""
    import argparse
    import json

    from benchmarks.django_env import setup

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--half-days", default=",".join(map(str, HALF_DAYS)))
    parser.add_argument("--campaigns", default=",".join(map(str, CLUB_SIZES)))
    parser.add_argument("--readme", action="store_true", help="draw the curves in the README")
    args = parser.parse_args(argv)
    setup()

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    sizes = [tuple(int(n) for n in arg.split(",")) for arg in (args.half_days, args.campaigns)]
    result = measure(generate(log, *sizes), log)
    print(json.dumps(result))
    if args.readme:
        from benchmarks.run import machine

        update_readme(result, machine(), "`python -m benchmarks.growth --readme`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
