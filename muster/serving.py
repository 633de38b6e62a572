"""How this site is served: on this machine only (a trial with `make run`, a developer)
or for the public. Read by the settings (no Django import here) and by commands such
as load_demo that must not run on a public site.

A site is *public* when DEBUG is off and ALLOWED_HOSTS names anything beyond the
loopback: then it needs a real SECRET_KEY, HTTPS and collected static files. On the
loopback the same DEBUG-off settings serve plain HTTP with a key kept in var/.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from pathlib import Path

# Host names that only this machine can reach (and Django's test client's).
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]", "testserver"})

# Django's own bar for a production key (check --deploy, security.W009).
MIN_KEY_LENGTH = 50
MIN_KEY_CHARACTERS = 5

GENERATE_KEY_COMMAND = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def names_beyond_loopback(allowed_hosts: Iterable[object]) -> bool:
    return any(str(host).strip().lower() not in LOOPBACK_HOSTS for host in allowed_hosts)


def is_public(debug: bool, allowed_hosts: Iterable[object]) -> bool:
    """Served to other machines with DEBUG off: the production rules apply."""
    return not debug and names_beyond_loopback(allowed_hosts)


def weak_key_reason(key: str) -> str | None:
    """Why a SECRET_KEY must not be used with DEBUG off, or None when it is fine."""
    if not key.strip():
        return "SECRET_KEY is empty"
    if (
        len(key) < MIN_KEY_LENGTH
        or len(set(key)) < MIN_KEY_CHARACTERS
        or key.startswith("django-insecure-")
    ):
        return f"SECRET_KEY is a placeholder or too short ({len(key)} characters; at least {MIN_KEY_LENGTH} random ones)"
    return None


def secret_key(given: str, *, debug: bool, public: bool, var_dir: Path) -> str:
    """The SECRET_KEY to use, or ValueError saying what to do.

    A public site must be given a strong key; with DEBUG off a given key must be strong
    anywhere. Without one, a trial or a developer gets a random key kept in var/
    (sessions survive restarts), never a placeholder.
    """
    if given:
        reason = None if debug else weak_key_reason(given)
        if reason:
            raise ValueError(f"{reason}. Generate one with: {GENERATE_KEY_COMMAND}")
        return given
    if public:
        raise ValueError(
            "SECRET_KEY is not set, and this site serves other machines (ALLOWED_HOSTS names more "
            f"than the loopback) with DEBUG off. Generate one with: {GENERATE_KEY_COMMAND}"
        )
    return kept_key(var_dir)


def kept_key(var_dir: Path) -> str:
    """A random key generated once into var/secret_key, readable by its owner only."""
    var_dir.mkdir(parents=True, exist_ok=True)
    key_file = var_dir / "secret_key"
    if not key_file.exists() or weak_key_reason(key_file.read_text().strip()):
        key_file.touch(mode=0o600)
        key_file.write_text(secrets.token_urlsafe(MIN_KEY_LENGTH))
    return key_file.read_text().strip()
