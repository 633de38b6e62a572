"""Each pytest-xdist process takes its own Redis database (REDIS_URL's, then the next ones);
one past the last database Redis has is a clear usage error, not a failure deep in a test."""

from types import SimpleNamespace

import pytest

import conftest  # the root conftest.py


def _settings(url):
    return SimpleNamespace(
        REDIS_URL=url,
        CACHES={"default": {"LOCATION": url}},
        CELERY_BROKER_URL=url,
        CELERY_RESULT_BACKEND=url,
    )


@pytest.fixture
def sixteen(monkeypatch):
    monkeypatch.setattr(conftest, "redis_databases", lambda url: 16)
    from muster.celery import app

    monkeypatch.setattr(app.conf, "broker_url", app.conf.broker_url)
    monkeypatch.setattr(app.conf, "result_backend", app.conf.result_backend)


def test_each_test_process_takes_the_next_database(monkeypatch, sixteen):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    settings = _settings("redis://127.0.0.1:6379/9")
    conftest._own_redis_database_per_test_process(settings)
    assert (
        settings.REDIS_URL == settings.CACHES["default"]["LOCATION"] == "redis://127.0.0.1:6379/12"
    )


def test_a_database_past_the_last_one_is_a_clear_usage_error(monkeypatch, sixteen):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    settings = _settings("redis://127.0.0.1:6379/13")
    with pytest.raises(
        pytest.UsageError,
        match=r"would use database 16, but this Redis has only 16 \(0-15\).*at most 12",
    ):
        conftest._own_redis_database_per_test_process(settings)
    assert settings.REDIS_URL == "redis://127.0.0.1:6379/13"  # nothing changed


def test_the_count_is_read_from_redis_when_it_answers():
    import redis

    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379 (CI has one)")
    assert conftest.redis_databases(url) >= 16
