"""(d) Writes under load: clients submitting steps through the API, served by gunicorn.

A club of its own ("bench-writes"): 16 Drill campaigns with one client each (the red player)
and one campaign shared by 4 clients, two per side (team play). Every client submits side
steps (`drill.train`: a unit's experience goes up; filed for its side, so the other side's
cut does not move) with its own API token, all at once for the given seconds:

  * paced: each client sends a step every `interval` seconds (a player at the table acts
    every few seconds; the figure asked of the site is the latency at that load);
  * saturated: each client sends its next step as soon as the last is answered: the
    appends per second the machine can take, and what latency is then.

Saturated, the same clients then send the bare write (benchmarks/urls.py: token, JSON body, one
row inserted and committed, 201): what this machine takes of that is the ceiling any append
could reach here, said beside the appends' figure.

Afterwards every campaign's journal is folded again and must equal its stored snapshot, and
its events must number exactly the appends answered 201 (nothing lost, nothing doubled).

The write-rate limit (muster/write_rate.py, MEMBER_WRITES_PER_MINUTE) is lifted for these
clients (benchmarks/settings.py): at 30 writes a minute per member it refused them, and the run
measured the limit, not the site. Whether the limit still holds is checked on its own
(`limit_check`): on a site with the limit on, one member sends its number of writes and one more
within a clock minute; the last must be answered 429 with Retry-After, and change nothing.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import statistics
import threading
import time
from collections.abc import Callable

from .load import _percentile, gather

CLUB = "bench-writes"
SINGLE, SHARED = 16, 4
UNITS = 200  # per side, as many as a large club's campaigns hold


def setup() -> list[dict]:
    """The campaigns and clients: [{"campaign", "token", "side"}...] (fresh every run)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from campaigns.models import Club, Membership
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    User = get_user_model()
    Club.objects.filter(slug=CLUB).delete()
    club = Club.objects.create(name="Benchmark club (writes)", slug=CLUB)
    organizer = _user("bench-wo", User)
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    players = [_user(f"bench-w{n:02d}", User) for n in range(SINGLE * 2 + SHARED)]
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in players])
    clients = []

    def campaign(name, red, blue):
        c = svc.create_campaign(
            club=club, user=organizer, system="drill", variant="long", name=name
        )
        for side, people in (("red", red), ("blue", blue)):
            for person in people:
                svc.assign_player(c, organizer, side=side, username=person.username)
        submit(c, organizer, "campaign.started")
        submit(c, red[0], "drill.enlist", {"count": UNITS, "hidden": UNITS // 5})
        submit(c, blue[0], "drill.enlist", {"count": UNITS, "hidden": UNITS // 5})
        return c

    for n in range(SINGLE):
        red, blue = players[2 * n], players[2 * n + 1]
        c = campaign(f"Writes {n + 1:02d}", [red], [blue])
        clients.append(
            {"campaign": c.pk, "token": _token(red, Token), "side": "red", "group": "different"}
        )
    shared = players[SINGLE * 2 :]
    c = campaign("Writes shared", shared[:2], shared[2:])
    for person, side in zip(shared, ("red", "red", "blue", "blue")):
        clients.append(
            {"campaign": c.pk, "token": _token(person, Token), "side": side, "group": "same"}
        )
    return clients


def limit_client() -> dict:
    """The limit check's member and campaign, in the writes club (made by `setup`)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from campaigns.models import Club, Membership
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    User = get_user_model()
    club = Club.objects.get(slug=CLUB)
    organizer = club.memberships.get(role=Membership.ORGANIZER).user
    red, blue = _user("bench-wl-red", User), _user("bench-wl-blue", User)
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in (red, blue)])
    c = svc.create_campaign(
        club=club, user=organizer, system="drill", variant="long", name="Writes limit"
    )
    svc.assign_player(c, organizer, side="red", username=red.username)
    svc.assign_player(c, organizer, side="blue", username=blue.username)
    submit(c, organizer, "campaign.started")
    submit(c, red, "drill.enlist", {"count": 10, "hidden": 2})
    return {"campaign": c.pk, "token": _token(red, Token), "side": "red", "group": "limit"}


Post = Callable[[int], tuple[int, str | None]]  # the n-th write -> (status, Retry-After)


def limit_check(post: Post, limit: int, events: Callable[[], int], margin: float = 15.0) -> dict:
    """`limit` + 1 writes by one member within one clock minute (the limit counts per clock
    minute: with less than `margin` seconds of this one left, the next is waited for)."""
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.2)
    before = events()
    answers = [post(n) for n in range(limit + 1)]
    return limit_verdict(answers, limit, events() - before)


def limit_verdict(answers: list[tuple[int, str | None]], limit: int, added: int) -> dict:
    """Met when the first `limit` writes were answered 201, the next 429 with a Retry-After of
    whole seconds, and the journal grew by exactly `limit` events (the refused write changed
    nothing)."""
    within, past = answers[:limit], answers[limit:]
    accepted = sum(1 for status, _ in within if status == 201)
    status, retry_after = past[0] if past else (None, None)
    met = (
        accepted == limit
        and status == 429
        and retry_after is not None
        and retry_after.isdigit()
        and int(retry_after) >= 1
        and added == limit
    )
    figure = (
        f"{accepted} of {limit} writes answered 201, write {limit + 1}: {status}"
        + (f", Retry-After {retry_after} s" if retry_after else ", no Retry-After")
        + ("" if added == limit else f"; the journal grew by {added}")
    )
    return {
        "limit": limit,
        "accepted": accepted,
        "status": status,
        "retry_after": retry_after,
        "events_added": added,
        "figure": figure,
        "met": met,
    }


def http_post(port: int, client: dict) -> Post:
    """The limit check's writes through the API of the site on `port`, as `client`."""

    def post(n: int) -> tuple[int, str | None]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request(
                "POST",
                f"/api/v1/campaigns/{client['campaign']}/events/",
                body=json.dumps({"kind": "drill.train", "data": {"unit": n}}),
                headers={
                    "Authorization": f"Token {client['token']}",
                    "Content-Type": "application/json",
                    "Host": "127.0.0.1",
                },
            )
            response = conn.getresponse()
            response.read()
            return response.status, response.getheader("Retry-After")
        finally:
            conn.close()

    return post


def _user(name, User):
    user = User.objects.filter(username=name).first() or User(
        username=name, email=f"{name}@example.org"
    )
    user.set_password("bench-pass")
    user.save()
    return user


def _token(user, Token) -> str:
    return Token.objects.get_or_create(user=user)[0].key


def _client(port, clients, seconds, interval, out, barrier):
    """One process: a thread per client, each with its own connection. The clock starts once every
    process is up (a fixed delay was not enough on a busy machine: a short run could end before its
    first step, and report none)."""
    results = []
    lock = threading.Lock()
    barrier.wait(timeout=120)
    start = time.time() + 0.2
    deadline = start + seconds

    def loop(client, offset):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {
            "Authorization": f"Token {client['token']}",
            "Content-Type": "application/json",
            "Host": "127.0.0.1",
        }
        path = client.get("path") or f"/api/v1/campaigns/{client['campaign']}/events/"
        mine, n = [], 0
        next_at = start + offset
        while True:
            if interval:
                pause = next_at - time.time()
                if pause > 0:
                    time.sleep(pause)
                next_at += interval
            if time.time() >= deadline:
                break
            body = json.dumps({"kind": "drill.train", "data": {"unit": n}})
            n += 1
            began = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                status = 0
            mine.append((client["group"], client["campaign"], status, time.perf_counter() - began))
        conn.close()
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=loop, args=(c, c["offset"])) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(results)


def run(
    port,
    clients,
    *,
    seconds: float,
    interval: float | None,
    processes: int = 4,
    path: str | None = None,
) -> dict:
    """The clients' steps for `seconds`, each every `interval` seconds or, with None, as soon as
    the last is answered; `path`: sent there instead of each client's campaign (the bare write)."""
    ctx = multiprocessing.get_context("spawn")
    if path:
        clients = [{**c, "path": path} for c in clients]
    out = ctx.Queue()
    # Paced clients start spread evenly over one interval: twenty players do not press at the same
    # instant (they did until 2026-11-23: every second's twenty steps arrived within 0.15 s).
    spread = (interval or 0) / len(clients)
    clients = [{**c, "offset": k * spread} for k, c in enumerate(clients)]
    groups = [clients[i::processes] for i in range(processes)]
    groups = [g for g in groups if g]
    barrier = ctx.Barrier(len(groups))  # every process up before the first step
    procs = [
        ctx.Process(target=_client, args=(port, g, seconds, interval, out, barrier)) for g in groups
    ]
    rows = [r for report in gather(procs, out, timeout=seconds + 240) for r in report]
    result = {"seconds": seconds, "interval_s": interval, "clients": len(clients)}
    for group in ("different", "same", "all"):
        mine = [r for r in rows if group == "all" or r[0] == group]
        ok = sorted(r[3] for r in mine if r[2] == 201)
        result[group] = {
            "clients": sum(1 for c in clients if group == "all" or c["group"] == group),
            "appends": len(ok),
            "errors": len(mine) - len(ok),
            "statuses": sorted({r[2] for r in mine if r[2] != 201}),
            "appends_per_s": round(len(ok) / seconds, 1),
            "p50_ms": round(_percentile(ok, 50) * 1000, 1) if ok else None,
            "p99_ms": round(_percentile(ok, 99) * 1000, 1) if ok else None,
            "mean_ms": round(statistics.fmean(ok) * 1000, 1) if ok else None,
        }
    result["per_campaign"] = {}
    for r in rows:
        if r[2] == 201:
            result["per_campaign"][r[1]] = result["per_campaign"].get(r[1], 0) + 1
    return result


def check(clients, appended: dict[int, int], before: dict[int, int]) -> list[dict]:
    """Every journal folded again equals its snapshot; events = before + appends answered 201."""
    from campaigns.journal import engine
    from campaigns.models import Campaign
    from campaigns.services.snapshots import stored_state
    from campaigns.services.state import load_records

    rows = []
    for pk in sorted({c["campaign"] for c in clients}):
        campaign = Campaign.objects.get(pk=pk)
        records = load_records(campaign)
        folded = json.loads(json.dumps(engine.fold(records)))
        stored = stored_state(campaign)
        rows.append(
            {
                "campaign": pk,
                "events": len(records),
                "expected": before[pk] + appended.get(pk, 0),
                "replay_equals_snapshot": folded == stored and stored["seq"] == campaign.last_seq,
            }
        )
    return rows


def event_counts(clients) -> dict[int, int]:
    from campaigns.models import Event

    return {
        pk: Event.objects.filter(campaign_id=pk).count() for pk in {c["campaign"] for c in clients}
    }
