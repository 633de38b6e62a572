"""Django's Redis cache, with one redis client per connection pool and a small memory of the
process for answers that never change under their key.

Django's client builds a new ``redis.Redis`` for every cache call, and building one fills its
table of response callbacks (hundreds of entries): about 0.15 ms, as long as a GET on a local
Redis takes. A client holds only the pool (connections are taken from it per command, and the
pool reopens them in a forked child), so one per pool is safe to share.

Kept answers (``campaigns.kept_answers.viewcache``: keys starting ``muster:view:``) are named by what they
show, so an entry never changes under its key: the bytes and text among them are also kept in
the memory of this process (least recently used first out, ``MUSTER_LOCAL_CACHE_BYTES`` in all),
and a request served from there makes no round trip for them. Objects are not: a caller may
change what it was given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache, RedisCacheClient
from redis import ConnectionPool, Redis

from .memory import Recent

IMMUTABLE = "muster:view:"


class _Client(RedisCacheClient):
    # Django's own members, which the stubs leave out: the redis client class and the pool.
    _client: type[Redis]
    _get_connection_pool: Callable[[bool], ConnectionPool]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Redis] = {}

    def get_client(self, key: object = None, *, write: bool = False) -> Redis:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client
        self._memory: Recent[str, bytes | str] = Recent(
            getattr(settings, "MUSTER_LOCAL_CACHE_BYTES", 32 * 1024 * 1024), weigh=len
        )

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        if not key.startswith(IMMUTABLE):
            return super().get(key, default, version)
        name = self.make_and_validate_key(key, version=version)
        found = self._memory.get(name)
        if found is not None:
            return found
        found = self._cache.get(name, None)
        if found is None:
            return default
        self._keep(name, found)
        return found

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        super().set(key, value, timeout, version)
        if key.startswith(IMMUTABLE):
            self._keep(self.make_and_validate_key(key, version=version), value)

    def delete(self, key: str, version: int | None = None) -> bool:
        if key.startswith(IMMUTABLE):
            self._memory.drop(self.make_and_validate_key(key, version=version))
        return super().delete(key, version)

    def _keep(self, name: str, value: object) -> None:
        if isinstance(value, (bytes, str)):
            self._memory.put(name, value)

    def clear(self) -> None:
        self._memory.clear()
        return super().clear()
