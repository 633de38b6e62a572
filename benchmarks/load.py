"""(a) Requests per second and latency under concurrent load, served by gunicorn
on 127.0.0.1, each target measured right after the bare view in the same run
(the ratio target/bare is the figure: it does not depend on the machine much).

The client is plain Python: a few processes (so the client's GIL does not cap
the rate), each with a few threads keeping an http.client connection.
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import queue
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = "/bench/constant/"
BARE_WRITE = "/bench/write/"  # a token-authenticated one-row insert: the writes' ceiling


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def gunicorn(workers: int, env: dict[str, str] | None = None):
    """The product's WSGI app under gunicorn, as the Procfile runs it (sync workers); `env` adds to
    the environment (BENCH_WRITE_LIMIT=on: the write-rate limit on, benchmarks/settings.py)."""
    port = free_port()
    env = {**os.environ, **(env or {}), "DJANGO_SETTINGS_MODULE": "benchmarks.settings"}
    log = open(ROOT / "var" / "bench" / "gunicorn.log", "w")
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "muster.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--backlog",
            "2048",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_ready(port, process)
        yield port
    finally:
        stop(process, timeout=20)
        log.close()


def stop(process, timeout: float) -> None:
    """Terminate a server or worker process; kill it if it has not gone after `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _wait_ready(port, process, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"gunicorn exited ({process.returncode}); see var/bench/gunicorn.log"
            )
        try:
            status, _ = _get(port, BARE, {})
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within a minute; see var/bench/gunicorn.log")


def _get(port, path, headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _client_process(port, path, headers, threads, window, barrier, out):
    latencies, errors, first_error = [], 0, None
    lock = threading.Lock()
    go = threading.Event()
    stop_at = 0.0

    def loop():
        nonlocal errors, first_error
        mine, bad, conn = [], 0, http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        go.wait()
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                ok, body = False, repr(error).encode()
            elapsed = time.perf_counter() - began
            if ok:
                mine.append(elapsed)
            else:
                bad += 1
                with lock:
                    first_error = first_error or body[:300].decode(errors="replace")
        conn.close()
        with lock:
            latencies.extend(mine)
            errors += bad

    workers = [threading.Thread(target=loop) for _ in range(threads)]
    for w in workers:
        w.start()
    barrier.wait(timeout=120)  # every client process is up: all start together, for the same window
    stop_at = time.monotonic() + window
    go.set()
    for w in workers:
        w.join()
    out.put((latencies, errors, first_error))


def gather(processes, out, timeout: float) -> list:
    """Start the client processes and collect one report from each (terminated if one is missing)."""
    for p in processes:
        p.start()
    try:
        results = [out.get(timeout=timeout) for _ in processes]
    except queue.Empty:
        for p in processes:
            p.terminate()
        raise RuntimeError(
            "a client process did not report back (see its traceback above)"
        ) from None
    for p in processes:
        p.join()
    return results


def run(port, path, headers, *, duration, concurrency, processes, warmup=1.0) -> dict:
    """Hammer one path; return rps and latency percentiles (ms) of the measured window."""
    status, body = _get(port, path, headers)
    if status != 200:
        raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    threads = max(1, concurrency // processes)
    # Warm up (connections, worker caches), then measure a fresh window.
    for window in (warmup, duration):
        barrier = ctx.Barrier(processes)
        clients = [
            ctx.Process(
                target=_client_process, args=(port, path, headers, threads, window, barrier, out)
            )
            for _ in range(processes)
        ]
        results = gather(clients, out, timeout=window + 180)
    latencies = sorted(x for r in results for x in r[0])
    errors = sum(r[1] for r in results)
    first_error = next((r[2] for r in results if r[2]), None)
    return {
        "path": path,
        "requests": len(latencies),
        "errors": errors,
        **({"first_error": first_error} if first_error else {}),
        "rps": round(len(latencies) / duration, 1),
        "p50_ms": round(_percentile(latencies, 50) * 1000, 2) if latencies else None,
        "p99_ms": round(_percentile(latencies, 99) * 1000, 2) if latencies else None,
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else None,
        "concurrency": threads * processes,
        "seconds": duration,
    }


def _percentile(values, pct):
    index = min(len(values) - 1, max(0, round(pct / 100 * len(values) + 0.5) - 1))
    return values[index]
