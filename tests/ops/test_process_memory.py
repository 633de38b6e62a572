"""The process's own memory in front of Redis (muster.cache) and its bound (muster.memory)."""

import os

import pytest

from muster.memory import Recent


def test_recent_keeps_the_most_recently_used_within_its_bound():
    memory = Recent(10, weigh=len, largest=5)
    memory.put("a", b"1234")
    memory.put("b", b"1234")
    assert memory.get("a") == b"1234"  # a is now the more recent
    memory.put("c", b"1234")  # 12 > 10: the least recently used (b) goes
    assert memory.get("b") is None and memory.get("a") == b"1234" and memory.get("c") == b"1234"
    assert memory.size == 8
    memory.put("huge", b"123456")  # heavier than the largest: not kept
    assert memory.get("huge") is None
    memory.drop("a")
    assert memory.size == 4
    memory.clear()
    assert memory.get("c") is None and memory.size == 0


@pytest.fixture
def redis_cache():
    from django.conf import settings

    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis (REDIS_URL)")
    from muster.cache import RedisCache

    cache = RedisCache(
        settings.CACHES["default"]["LOCATION"], {"KEY_PREFIX": "process-memory-test"}
    )
    yield cache
    cache.delete_many(["muster:view:kept", "muster:view:object", "other"])


def test_kept_answers_are_served_from_the_process_after_the_first_read(redis_cache):
    redis_cache.set("muster:view:kept", b"{}")
    redis_cache._cache.delete(
        redis_cache.make_and_validate_key("muster:view:kept")
    )  # behind its back
    assert redis_cache.get("muster:view:kept") == b"{}"  # from the process's memory
    redis_cache.clear()
    assert redis_cache.get("muster:view:kept") is None


def test_objects_and_other_keys_always_come_from_redis(redis_cache):
    redis_cache.set("muster:view:object", {"n": 1})
    redis_cache.get("muster:view:object")["n"] = 2  # a caller changing what it was given
    assert redis_cache.get("muster:view:object") == {"n": 1}
    redis_cache.set("other", b"x")
    redis_cache._cache.delete(redis_cache.make_and_validate_key("other"))
    assert redis_cache.get("other") is None


def test_one_redis_client_per_pool(redis_cache):
    client = redis_cache._cache
    assert client.get_client("a") is client.get_client("b")
