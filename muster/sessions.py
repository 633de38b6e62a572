"""Sessions read through the cache, written through to the database (Django's cached_db), with
two differences:

- keys are only ever what Django makes, letters and digits: a cookie holding anything else (a
  NUL byte, which PostgreSQL refuses in a text value) is no session, not a 500;
- the cache is a help, never a need: with Redis down, sessions are read from and written to the
  database alone (Django's cached_db catches a failed read but not a failed write, so every
  signed-in request would fail while Redis is away).
"""

import logging
import re
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.core.cache import BaseCache, caches

KEY = re.compile(r"[a-z0-9]{8,64}")
log = logging.getLogger(__name__)


class SessionStore(CachedDbStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        # The cache Django's cached_db reads and writes (its own __init__ sets it so), wrapped.
        self._cache = _Tolerant(caches[settings.SESSION_CACHE_ALIAS])

    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and KEY.fullmatch(key or "") is not None


class _Tolerant:
    """The session cache, whose failures read as a miss and writes as done."""

    def __init__(self, cache: BaseCache) -> None:
        self._inner = cache

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self._inner.get(key, default)
        except Exception:
            log.warning("session cache read failed", exc_info=True)
            return default

    def set(self, *args: Any, **kwargs: Any) -> None:
        try:
            self._inner.set(*args, **kwargs)
        except Exception:
            log.warning("session cache write failed", exc_info=True)

    def delete(self, *args: Any, **kwargs: Any) -> None:
        try:
            self._inner.delete(*args, **kwargs)
        except Exception:
            log.warning("session cache delete failed", exc_info=True)

    def __contains__(self, key: str) -> bool:
        try:
            return key in self._inner
        except Exception:
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
