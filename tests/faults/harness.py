"""A production-like site the fault tests start for themselves and break on purpose.

Its own PostgreSQL cluster (Debian's server binaries, /usr/lib/postgresql/<version>/bin) and its
own Redis (redis-server), on free ports of the loopback, in a temporary folder; gunicorn with
Muster's deploy/gunicorn.conf.py; a Celery worker on both queues (tests.worker_app: a render may
be slowed down so that it can be killed in the middle). Never the machine's own services.

    with Site(folder) as site:          # cluster, Redis, migrate, data, gunicorn, worker
        site.postgres.restart()         # as `systemctl restart postgresql` does (fast: connections ended)
        site.redis.stop(); site.redis.start()   # restarted empty (no persistence)
        site.worker.kill()              # the whole worker (its process group), SIGKILL
        site.start_worker()             # as systemd's Restart=always does

Every wait is bounded; every process is ended when the block ends.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def postgres_bin() -> Path | None:
    """The folder of Debian's PostgreSQL server binaries (15 first, Debian 12's), or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: (not path.startswith("/usr/lib/postgresql/15/"), path),
    )
    return Path(found[0]).parent if found else None


def missing() -> str | None:
    """Why the fault tests cannot run here, or None."""
    if postgres_bin() is None:
        return (
            "needs PostgreSQL's server binaries (Debian: postgresql-15, /usr/lib/postgresql/15/bin)"
        )
    if shutil.which("redis-server") is None:
        return "needs redis-server (Debian: redis-server)"
    if os.geteuid() == 0:
        import pwd

        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return (
                "runs as root and needs the user postgres to run the cluster as "
                "(Debian's postgresql package makes it)"
            )
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(check, timeout: float, what: str, every: float = 0.1):
    """check()'s first true value within `timeout` seconds, or AssertionError naming `what` (a
    callable is asked at the deadline: a log's tail then, not before the wait)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"{said}: not within {timeout} s")
        time.sleep(every)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Postgres:
    """A cluster of its own, run as the user postgres when the tests run as root."""

    def __init__(self, folder: Path):
        self.bin = postgres_bin()
        self.data = folder / "pg"
        self.log = folder / "pg.log"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *command, check=True):
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        return subprocess.run(
            [*prefix, *command], check=check, capture_output=True, text=True, timeout=60
        )

    def init(self) -> None:
        self.data.mkdir(mode=0o700)
        self.log.touch()
        if self.as_root:
            shutil.chown(self.data, "postgres", "postgres")
            shutil.chown(self.log, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-instructions",
            "--no-sync",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='{self.data}' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "30",
            "start",
        )

    def restart(self) -> None:
        """What `systemctl restart postgresql` does: a fast shutdown (every connection is ended,
        "terminating connection due to administrator command"), then a start."""
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-m",
            "fast",
            "-w",
            "-t",
            "30",
            "restart",
        )

    def stop(self) -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-m",
            "immediate",
            "-w",
            "-t",
            "30",
            "stop",
            check=False,
        )

    def url(self, database: str = "muster") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def query(self, sql: str, params=(), database: str = "muster") -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []


class Redis:
    """A Redis of its own, without persistence: stopped and started again, it is empty."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--maxmemory-policy",
                "noeviction",
            ],
            stdout=open(self.folder / "redis.log", "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(lambda: _port_open(self.port), 15, "Redis to listen")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # as a crash or an OOM kill: nothing saved
            self.process.wait(timeout=10)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self):
        import redis

        return redis.Redis.from_url(self.url(), socket_timeout=5)


class Process:
    """A process of the site in its own process group (so that it can be killed whole)."""

    def __init__(self, name: str, command: list[str], env: dict, log: Path):
        self.name, self.log = name, log
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=open(log, "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group: the main process and every child, at once."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=15)

    def stop(self) -> None:
        if not self.alive():
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()

    def children(self) -> list[int]:
        """The pids of this process's children (gunicorn's workers, Celery's pool processes)."""
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as handle:
                return [int(pid) for pid in handle.read().split()]
        except OSError:
            return []

    def tail(self, size: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-size:] if self.log.exists() else ""


class Site:
    def __init__(self, folder: Path, render_delay: float = 1.5):
        self.folder = folder
        self.postgres = Postgres(folder)
        self.redis = Redis(folder)
        self.web_port = free_port()
        self.render_delay = render_delay
        self.marks = folder / "writing"
        self.marks.mkdir()
        self.web: Process | None = None
        self.worker: Process | None = None
        self.workers_started = 0
        self.env = self._env()
        self.data: dict = {}

    def _env(self) -> dict:
        drop = {
            "DATABASE_URL",
            "REDIS_URL",
            "CELERY_BROKER_URL",
            "CACHE_REDIS_URL",
            "CELERY_RESULT_BACKEND",
            "PYTEST_XDIST_WORKER",
            "MUSTER_SWEEP_SECONDS",
            "SHEETS_STORAGE_URL",
        }
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in drop and not k.startswith(("PYTEST_", "COV_"))
        }
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "muster.settings",
                "DEBUG": "0",
                "SECRET_KEY": "fault-tests-" + "k" * 60,
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "DATABASE_URL": self.postgres.url(),
                "REDIS_URL": self.redis.url(),
                "MEDIA_ROOT": str(self.folder / "media"),
                "MUSTER_EXTRA_SYSTEMS": "tests.testsystem",
                "PYTHONPATH": str(ROOT),
                "MUSTER_TEST_RENDER_DELAY": str(self.render_delay),
                "MUSTER_TEST_WRITE_MARKS": str(self.marks),
                "MUSTER_TEST_WRITE_DELAY": "2",
                "WEB_CONCURRENCY": "2",
                "MUSTER_BIND": f"127.0.0.1:{self.web_port}",
                "CONN_MAX_AGE": "60",
                # One member asks for a dozen sheets here, faster than a club would (rosters.print_limits).
                "SHEET_RENDERS_PER_MEMBER": "100",
                "SHEET_RENDERS_PER_SIDE": "100",
                # The test's writer is a machine, not a player: its clients write at machine speed,
                # past a person's pace (muster.write_rate).
                "MEMBER_WRITES_PER_MINUTE": "100000",
            }
        )
        return env

    # --- life -------------------------------------------------------------------------------

    def __enter__(self) -> Site:
        try:
            self.postgres.init()
            self.postgres.start()
            self.postgres.query("CREATE DATABASE muster", database="postgres")
            self.redis.start()
            self.manage("migrate", "--noinput", "-v", "0")
            self.data = json.loads(self.python("-m", "tests.faults.site_setup"))
            self.start_web()
            self.start_worker()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        for process in (self.web, self.worker):
            if process is not None:
                process.stop()
        self.redis.stop()
        self.postgres.stop()

    def python(self, *args, timeout: float = 120) -> str:
        done = subprocess.run(
            [PYTHON, *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(
                f"{' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
            )
        return done.stdout

    def manage(self, *args) -> str:
        return self.python("manage.py", *args)

    def start_web(self) -> None:
        self.web = Process(
            "web",
            [
                PYTHON,
                "-m",
                "gunicorn",
                "--config",
                "deploy/gunicorn.conf.py",
                "tests.faults.slow_wsgi:application",
            ],
            self.env,
            self.folder / "web.log",
        )
        wait_until(
            lambda: _port_open(self.web_port) and len(self.web.children()) >= 2,
            60,
            f"gunicorn to serve\n{self.web.tail()}",
        )

    def start_worker(self) -> None:
        """A Celery worker on both queues, as the deploy units run it (late acknowledgement,
        prefetch 1), with the sweep of its own (MUSTER_SWEEP_SECONDS, default 5 s)."""
        self.workers_started += 1
        name = f"faults{self.workers_started}"
        self.worker = Process(
            name,
            [
                PYTHON,
                "-m",
                "celery",
                "-A",
                "tests.worker_app",
                "worker",
                "-Q",
                "muster,muster-odds",
                "-n",
                f"{name}@%h",
                "--pool",
                "prefork",
                "--concurrency",
                "2",
                "--prefetch-multiplier",
                "1",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
            ],
            self.env,
            self.folder / f"worker-{name}.log",
        )
        wait_until(
            lambda: "ready." in self.worker.tail(20000),
            60,
            f"the worker to be ready\n{self.worker.tail()}",
        )

    # --- reading the site's own database -----------------------------------------------------

    def jobs(self) -> dict[str, tuple[str, int]]:
        return {
            str(pk): (status, attempts)
            for pk, status, attempts in self.postgres.query(
                "SELECT id, status, attempts FROM rosters_printjob"
            )
        }

    def events_by_key(self) -> dict[str, int]:
        return dict(
            self.postgres.query(
                "SELECT idempotency_key, count(*) FROM campaigns_event WHERE idempotency_key IS NOT NULL "
                "GROUP BY idempotency_key"
            )
        )

    def folds(self) -> dict:
        return json.loads(self.python("-m", "tests.ops.site_check", "folds"))
