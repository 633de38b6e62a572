"""Tests that start real parts as an operator runs them (nginx in front of gunicorn, a site
on three machines). They need root, nginx, openssl and iproute2, and run when
MUSTER_DEPLOY_TESTS=1 (CI sets it in its bare Debian root, .ci/run); without it they skip,
saying so, and with it a missing part fails them."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEPLOY_TESTS = os.environ.get("MUSTER_DEPLOY_TESTS") == "1"
SECRET = "deploy-tests-" + "k3y-Zq9" * 8


def needs(*tools: str):
    """Skip (or, under MUSTER_DEPLOY_TESTS=1, fail) unless these run here."""
    if not DEPLOY_TESTS:
        pytest.skip(
            "starts nginx, gunicorn and network namespaces as root: set MUSTER_DEPLOY_TESTS=1 (CI does)"
        )
    missing = [
        tool
        for tool in tools
        if shutil.which(tool, path=os.environ["PATH"] + ":/usr/sbin:/sbin") is None
    ]
    if missing or os.geteuid() != 0:
        pytest.fail(
            f"MUSTER_DEPLOY_TESTS=1 but {'not root' if os.geteuid() else 'missing: ' + ', '.join(missing)}"
        )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_port(
    host: str, port: int, process=None, seconds: float = 60, log: Path | None = None
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(
                f"exited with {process.returncode} before listening on {host}:{port}"
                + (f":\n{log.read_text()[-3000:]}" if log else "")
            )
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(
        f"nothing listens on {host}:{port} after {seconds} s"
        + (f":\n{log.read_text()[-3000:]}" if log else "")
    )


def site_env(**extra) -> dict:
    """A public site's environment (DEBUG off, a real key) for processes started here."""
    from django.db import connection

    db = connection.settings_dict
    keep = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "MUSTER_"))
    }
    keep.pop("REDIS_URL", None)
    keep.pop("DATABASE_URL", None)
    return {
        **keep,
        "DEBUG": "0",
        "SECRET_KEY": SECRET,
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "MUSTER_EXTRA_SYSTEMS": "tests.testsystem",
        "PYTHONPATH": str(ROOT),
        **extra,
    }


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def collected_static():
    """collectstatic of a public site into a folder nginx's user can read. It compresses every
    file (gzip and brotli: about 40 s of CPU), so it is made once for these static files and
    requirements and shared by the test processes (a lock), and kept for the next run."""
    if not DEPLOY_TESTS:
        pytest.skip("MUSTER_DEPLOY_TESTS is not set")
    import fcntl
    import hashlib

    digest = hashlib.sha256((ROOT / "requirements.txt").read_bytes())
    for path in sorted((ROOT / "static").rglob("*")):
        digest.update(
            f"{path.relative_to(ROOT)} {path.stat().st_size} {path.stat().st_mtime_ns}".encode()
        )
    folder = Path(tempfile.gettempdir()) / f"muster-static-{digest.hexdigest()[:16]}"
    with open(f"{folder}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "staticfiles.json").exists():
            shutil.rmtree(folder, ignore_errors=True)
            env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
            env.update(
                DEBUG="0",
                SECRET_KEY=SECRET,
                ALLOWED_HOSTS="muster.test",
                STATIC_ROOT=f"{folder}.new",
                DATABASE_URL="sqlite:///:memory:",
            )
            done = subprocess.run(
                [str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, done.stderr
            Path(f"{folder}.new").chmod(0o755)
            Path(f"{folder}.new").rename(folder)
    return folder


@pytest.fixture
def real_passwords(people):
    """The people's passwords hashed as the site's own processes check them (the tests' settings
    hash with MD5 for speed; a gunicorn started here has only the production hashers)."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    for user in people.values():
        user.password = hasher.encode("pass-word-123", hasher.salt())
        user.save(update_fields=["password"])
    return people
