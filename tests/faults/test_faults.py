"""Faults survived, each caused on a site the test started for itself
(tests/faults/harness.py: its own PostgreSQL cluster and Redis, gunicorn, a Celery worker):

- a worker killed in the middle of a render: its pool process, then the whole worker (restarted
  5 s later, as systemd's RestartSec=5 does);
- Redis stopped and started again empty, with renders queued and odds kept in it;
- PostgreSQL restarted (fast shutdown: every connection ended) twice during writes and a render;
- a gunicorn worker killed inside a write transaction.

Writes go on all along (notes through the API, each resent with its idempotency key until
answered). Each test checks: no acknowledged write lost or doubled, no error answered (500) for any
write, every print job finished (or failed, hence retryable) within 30 s of the fault without a
person, and the campaign's journal folding again to its stored state. The recovery times are
printed (docs/operations.md, "Faults", quotes them).
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from .harness import wait_until
from .load import Api, Writes, request_sheet

pytestmark = pytest.mark.services

RECOVERY = 30  # seconds: every job finished or retryable within this, without a person


@pytest.fixture
def api(site):
    return Api(site.web_port, site.data["tokens"]["alice"])


@pytest.fixture
def writes(site, api, request):
    writer = Writes(api, site.data["campaign"], request.node.name[:40]).start()
    yield writer
    writer.stop()


def _job(site, job_id):
    return site.jobs().get(job_id, ("missing", 0))


def _running_pid(site, job_id, timeout=20) -> int:
    """The pid of the pool process rendering the job, once it runs."""

    def claimed():
        rows = site.postgres.query(
            "SELECT status, claimed_by FROM rosters_printjob WHERE id = %s", [job_id]
        )
        return rows and rows[0][0] == "running" and int(rows[0][1].rsplit(":", 1)[1])

    return wait_until(claimed, timeout, f"job {job_id} to start rendering\n{site.worker.tail()}")


def _settled(site, job_ids, since: float, what: str) -> float:
    """Every job done or failed (retryable) within RECOVERY s of `since`; the seconds it took."""

    def all_settled():
        states = {job: _job(site, job)[0] for job in job_ids}
        return all(state in ("done", "failed") for state in states.values()) and states

    states = wait_until(
        all_settled,
        max(1.0, since + RECOVERY - time.monotonic()),
        f"every print job settled after {what} ({ {j: _job(site, j) for j in job_ids} })\n"
        f"{site.worker.tail()}",
    )
    took = time.monotonic() - since
    print(
        f"\n[faults] {what}: every job settled {took:.1f} s after the fault: {sorted(set(states.values()))}"
    )
    return took


def _check_the_journal(site, *writers: Writes) -> None:
    """No write acknowledged and lost, none doubled, no error answered for any write, and the
    journal folding again to its stored state (once every writer has stopped)."""
    for writer in writers:
        writer.stop()
    for writer in writers:
        _check_the_writes(site, writer)
    folds = site.folds()
    assert folds and all(entry["same"] for entry in folds.values()), folds


def _check_the_writes(site, writer: Writes) -> None:
    stored = site.events_by_key()
    assert writer.acknowledged, "no write was acknowledged at all"
    lost = [key for key in writer.acknowledged if stored.get(key) != 1]
    assert not lost, (
        f"acknowledged writes lost or doubled: {[(k, stored.get(k)) for k in lost][:10]}"
    )
    assert all(count == 1 for count in stored.values()), "a write stored twice"
    uids = dict(
        site.postgres.query(
            "SELECT idempotency_key, uid::text FROM campaigns_event "
            "WHERE idempotency_key IS NOT NULL"
        )
    )
    assert all(uids[key] == uid for key, uid in writer.acknowledged.items()), (
        "an answer named another event"
    )
    assert not writer.errors(), f"errors answered for writes: {writer.errors()[:10]}"
    assert not writer.gave_up, (
        f"writes never answered within {writer.patience} s: {writer.gave_up[:10]}"
    )
    print(
        f"[faults] {len(writer.acknowledged)} writes acknowledged, {len(writer.answers)} answers "
        f"({sum(1 for a in writer.answers if a[1] == 503)} × 503, {sum(1 for a in writer.answers if a[1] is None)} "
        f"× no answer), each stored once"
    )


def test_a_worker_killed_mid_render_its_process_then_the_whole_worker(site, api, writes):
    campaign = site.data["campaign"]
    # The pool process, killed (the OOM killer): the task comes back at once (late acknowledgement).
    first = request_sheet(api, campaign, "summary")
    victim = _running_pid(site, first)
    os.kill(victim, signal.SIGKILL)
    killed = time.monotonic()
    _settled(site, [first], killed, "the pool process killed mid-render")
    assert _job(site, first)[0] == "done"

    # The whole worker (its machine lost): nothing brings the task back but the heartbeat and the
    # sweep of the worker systemd starts again 5 s later.
    second = request_sheet(api, campaign, "summary", paper="Letter")
    _running_pid(site, second)
    site.worker.kill()
    killed = time.monotonic()
    time.sleep(5)  # RestartSec=5
    site.start_worker()
    _settled(site, [second], killed, "the whole worker killed mid-render (restarted after 5 s)")
    assert _job(site, second)[0] == "done"
    _check_the_journal(site, writes)


def test_redis_stopped_and_started_again_empty(site, api, writes):
    campaign = site.data["campaign"]
    redis = site.redis.client()
    # Renders queued behind a slow one, odds kept: all of it lives in Redis.
    jobs = [request_sheet(api, campaign, "summary", paper=paper) for paper in ("A4", "Letter")]
    jobs.append(request_sheet(api, campaign, "supply", side="red"))
    _running_pid(site, jobs[0])
    kept = set(wait_until(lambda: redis.keys("*muster:odds:*"), 20, "the odds to be computed"))

    site.redis.stop()
    stopped = time.monotonic()
    time.sleep(1)
    jobs.append(
        request_sheet(api, campaign, "summary")
    )  # asked while the broker is away: nothing sent
    time.sleep(2)
    writes.stop()  # from here on nobody writes or reads: what comes back comes back by itself
    site.redis.start()
    # empty: what it kept is gone (a worker reconnects within a second and declares its queues
    # again, so Redis is not bare for long)
    assert not kept & set(redis.keys("*"))

    _settled(site, jobs, stopped, "Redis stopped 3 s and started again empty")
    # The render that finished while Redis was away could not be acknowledged: said, not a crash.
    assert site.worker.alive(), f"the worker stopped\n{site.worker.tail()}"
    assert all(_job(site, job)[0] == "done" for job in jobs)
    found = wait_until(
        lambda: redis.keys("*muster:odds:*"),
        max(1.0, stopped + RECOVERY - time.monotonic()),
        "the odds lost with Redis to be computed again",
    )
    print(
        f"[faults] odds kept again {time.monotonic() - stopped:.1f} s after Redis stopped ({len(found)} keys)"
    )
    _check_the_journal(site, writes)


def test_postgresql_restarted_during_writes_and_a_render(site, api, writes):
    campaign = site.data["campaign"]
    more = Writes(api, campaign, "pg-second-writer").start()  # two clients writing at once
    try:
        job = request_sheet(api, campaign, "summary")
        _running_pid(site, job)
        site.postgres.restart()  # in the middle of the render
        restarted = time.monotonic()
        time.sleep(1.5)
        site.postgres.restart()
        jobs = [job, request_sheet(api, campaign, "summary", paper="Letter")]
        _settled(site, jobs, restarted, "PostgreSQL restarted twice during writes and a render")
        assert all(_job(site, j)[0] == "done" for j in jobs)
    finally:
        more.stop()
    _check_the_journal(site, writes, more)


def test_a_gunicorn_worker_killed_inside_a_write(site, api, writes):
    campaign = site.data["campaign"]
    answers = []
    held = threading.Thread(
        target=lambda: answers.append(
            api.call(
                "POST",
                f"/api/v1/campaigns/{campaign}/events/",
                {
                    "kind": "note.added",
                    "data": {
                        "scenario": 0,
                        "text": "slow: held inside its transaction",
                        "private": False,
                    },
                    "idempotency_key": "killed-inside",
                },
            )
        )
    )
    held.start()
    marks = wait_until(
        lambda: list(site.marks.iterdir()), 15, f"the write to be held\n{site.web.tail()}"
    )
    victim = int(marks[0].name)
    os.kill(victim, signal.SIGKILL)
    held.join(timeout=20)
    assert (
        answers and answers[0][0] is None
    )  # no answer: the client does not know whether it was stored
    assert site.events_by_key().get("killed-inside") is None  # rolled back with the killed worker

    # Resent with its key (not slow this time): stored once. Gunicorn has a new worker by then.
    resend = Writes(api, campaign, "resend")
    assert resend.send("killed-inside") is not None
    wait_until(
        lambda: len(site.web.children()) == 2 and victim not in site.web.children(),
        15,
        "gunicorn to replace its worker",
    )
    assert site.events_by_key()["killed-inside"] == 1
    _check_the_journal(site, writes)


OUTAGE = 60  # seconds: Redis away for a minute (a restart gone wrong, a machine rebooted)
RESUMED = 10  # seconds: the reconnection's ceiling (5 s, muster.worker_consumer) and its work


def _failed_connects(site) -> int:
    """How many times the worker has failed to reach its broker so far (its log says each)."""
    return site.worker.log.read_text(errors="replace").count("Cannot connect to redis")


def test_a_worker_takes_work_within_seconds_of_redis_back_after_a_long_outage(site):
    """A worker whose Redis went away tries again and again to reach it. Celery's own back-off
    (kombu's: 2, 4, 6 ... up to 30 s between tries) left a worker idle for most of that wait once
    Redis was back: here 19 s (Redis away 72 s, the worker's last try saying "Trying again in 18.00
    seconds"), and 30 s after 3.5 minutes away, too long to wait for in a test. Bounded (5 s at
    most between tries, muster.worker_consumer), a worker takes work within RESUMED seconds of
    Redis's return, however long it was away (here about 6 s).

    Redis comes back just after one of the worker's tries has failed: the worst moment, when the
    worker has its whole wait ahead of it."""
    from celery import Celery

    assert site.worker.alive(), site.worker.tail()
    site.redis.stop()
    stopped = time.monotonic()
    time.sleep(OUTAGE)
    tries = _failed_connects(site)
    assert tries, f"the worker never noticed Redis was away\n{site.worker.tail()}"
    wait_until(
        lambda: _failed_connects(site) > tries,
        35,
        f"the worker to try to reach Redis again\n{site.worker.tail()}",
        every=0.05,
    )
    site.redis.start()
    back = time.monotonic()
    assert site.worker.alive(), f"the worker gave up\n{site.worker.tail()}"

    client = Celery("faults-client", broker=site.redis.url(), backend=site.redis.url())
    try:
        answer = client.send_task("rosters.tasks.worker_health", queue="muster")
        try:
            facts = answer.get(timeout=RECOVERY)
        except Exception as error:  # noqa: BLE001 - said with the worker's log
            raise AssertionError(
                f"no worker took work within {RECOVERY} s of Redis's return ({error!r})\n"
                f"{site.worker.tail()}"
            ) from None
        took = time.monotonic() - back
    finally:
        client.close()
    print(
        f"\n[faults] Redis away {back - stopped:.0f} s ({_failed_connects(site)} tries by the "
        f"worker): work taken {took:.1f} s after Redis came back"
    )
    assert facts["queue"] == "muster"
    assert took <= RESUMED, f"work taken {took:.1f} s after Redis came back\n{site.worker.tail()}"


def _mails_to(site, address: str) -> int:
    """Mails the workers sent to `address` (the console mail backend: printed in their logs)."""
    return sum(
        log.read_text(errors="replace").count(f"To: {address}")
        for log in site.folder.glob("worker-*.log")
    )


def test_an_invitation_e_mailed_while_redis_is_away_is_sent_once_it_is_back(site):
    """The invitation is stored while Redis is away: its task cannot be sent. Its mail is owed all
    the same (the invitation's row says so), and the workers' sweep sends its task once Redis is
    back: one mail, within RECOVERY s, and no second one however many sweeps follow."""
    organizer = Api(site.web_port, site.data["tokens"]["olga"])
    address = f"dora-{time.monotonic_ns()}@example.org"
    site.redis.stop()
    stopped = time.monotonic()
    status, body, _ = organizer.call(
        "POST", "/api/v1/clubs/faults/invitations/", {"role": "player", "email": address}
    )
    assert status == 201, (status, body)
    time.sleep(2)
    site.redis.start()
    wait_until(
        lambda: _mails_to(site, address),
        max(1.0, stopped + RECOVERY - time.monotonic()),
        lambda: f"the invitation's e-mail to be sent\n{site.worker.tail()}",
    )
    took = time.monotonic() - stopped
    time.sleep(8)  # a few sweeps more
    assert _mails_to(site, address) == 1
    assert site.worker.alive(), f"the worker stopped\n{site.worker.tail()}"
    [(sent,)] = site.postgres.query(
        "SELECT mail_sent_at IS NOT NULL FROM campaigns_invitation WHERE id = %s", [body["id"]]
    )
    assert sent
    print(f"\n[faults] the invitation asked for while Redis was away e-mailed {took:.1f} s after")
