"""Shared fixtures: named people of one club, as in the permission matrix."""

import os

import pytest

# The test-only game system (tests/testsystem) joins the registry for the tests.
os.environ.setdefault("MUSTER_EXTRA_SYSTEMS", "tests.testsystem")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")


def pytest_configure(config):
    from django.conf import settings

    if "tests.testsystem" not in settings.MUSTER_EXTRA_SYSTEMS:
        # The environment named other extra games: Skirmish's app joins them for the whole run.
        from django.apps import apps

        settings.MUSTER_EXTRA_SYSTEMS = [*settings.MUSTER_EXTRA_SYSTEMS, "tests.testsystem"]
        settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "tests.testsystem"]
        if apps.ready:
            apps.set_installed_apps(settings.INSTALLED_APPS)
    # Fast hashing: the tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The suite drives pages and the API at machine speed, far past a person's pace: the limit on how
    # fast a member writes (muster.write_rate) is tested on its own (tests/web/test_write_rate.py).
    settings.MEMBER_WRITES_PER_MINUTE = 100_000
    _own_redis_database_per_test_process(settings)


def _own_redis_database_per_test_process(settings):
    """Under pytest-xdist each test process (gw0, gw1, ...) uses its own Redis database: a test's
    cache.clear() is a FLUSHDB, which must not empty another process's cache or its workers' queues.
    gw0 keeps the database REDIS_URL names, gw1 takes the next one, and so on."""
    from urllib.parse import urlsplit, urlunsplit

    process = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not settings.REDIS_URL or not process.startswith("gw"):
        return
    parts = urlsplit(settings.REDIS_URL)
    base = int(parts.path.strip("/") or 0)
    database = base + int(process[2:])
    available = redis_databases(settings.REDIS_URL)
    if database >= available:
        raise pytest.UsageError(
            f"REDIS_URL names Redis database {base}; test process {process} would use database {database}, "
            f"but this Redis has only {available} (0-{available - 1}). Name a lower database in REDIS_URL "
            f"(at most {available - 1 - int(process[2:])}), or run fewer test processes (PYTEST_ARGS=\"-n 0\")."
        )
    url = urlunsplit(parts._replace(path=f"/{database}"))
    settings.REDIS_URL = url
    settings.CACHES = {
        **settings.CACHES,
        "default": {**settings.CACHES["default"], "LOCATION": url},
    }
    settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = url
    from muster.celery import app

    app.conf.broker_url = app.conf.result_backend = url


def redis_databases(url: str) -> int:
    """How many databases this Redis has (its `databases` setting; 16 unless configured)."""
    import redis

    try:
        return int(redis.Redis.from_url(url, socket_timeout=5).config_get("databases")["databases"])
    except Exception:  # CONFIG refused (a managed Redis): the default
        return 16


@pytest.fixture
def club(db):
    from tests.factories import ClubFactory

    return ClubFactory(name="Tuesday Night ASL", slug="tuesday")


@pytest.fixture
def people(club):
    """organizer (plays red), alice (red), bob (blue), rita (referee), carol (member
    playing nothing), outsider (no member)."""
    from campaigns.models import Membership
    from tests.factories import MembershipFactory, UserFactory

    named = {}
    for name, role in [
        ("olga", "organizer"),
        ("alice", "player"),
        ("bob", "player"),
        ("rita", "player"),
        ("carol", "player"),
    ]:
        user = UserFactory(username=name)
        MembershipFactory(club=club, user=user, role=role)
        named[name] = user
    named["outsider"] = UserFactory(username="outsider")
    assert Membership.objects.filter(club=club).count() == 5
    return named


@pytest.fixture
def skirmish(club, people):
    """A Skirmish campaign in play: red = olga + alice, blue = bob, referee rita."""
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Test war"
    )
    svc.assign_player(campaign, olga, side="red", username="olga")
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    svc.assign_referee(campaign, olga, username="rita")
    submit(campaign, olga, "campaign.started")
    campaign.refresh_from_db()
    return campaign


@pytest.fixture(autouse=True)
def _cache_starts_empty():
    """Every test starts with an empty cache (answers kept per audience position, odds): a test
    that wants a warm cache warms it (the `view_cache` fixture)."""
    from django.core.cache import cache

    cache.clear()
    yield


class ViewCache:
    """The per-audience answer cache (campaigns.kept_answers.viewcache) as a leak test's reads find it.

    ``settle(*campaigns)`` before the reads being compared: "cold" gives the view cache a new
    key space (nothing kept is found; the odds, kept elsewhere, stay); "warm" keeps what the
    earlier reads left and has every person of the club (each side, the referee, the organizer,
    a member playing nothing) read every page and API answer of the campaigns first, so that
    entries of every audience exist at the current positions."""

    PEOPLE = ("olga", "alice", "bob", "rita", "carol")

    def __init__(self, mode: str, people, monkeypatch):
        self.mode, self.people, self.monkeypatch = mode, people, monkeypatch

    def settle(self, *campaigns) -> None:
        import uuid

        from django.test import Client

        from campaigns.kept_answers import audiences

        if self.mode == "cold":
            self.monkeypatch.setattr(audiences, "BUILD", f"cold-{uuid.uuid4().hex[:8]}")
            return
        for name in self.PEOPLE:
            client = Client()
            client.force_login(self.people[name])
            for campaign in campaigns:
                page, api = f"/campaigns/{campaign.pk}/", f"/api/v1/campaigns/{campaign.pk}/"
                for url in (
                    "/",
                    f"/clubs/{campaign.club.slug}/",
                    page,
                    page + "history/",
                    api,
                    api + "state/",
                    api + "actions/",
                    api + "events/",
                    api + "roster/",
                    api + "odds/",
                    api + "trends/",
                ):
                    client.get(url)


@pytest.fixture(params=["cold", "warm"])
def view_cache(request, people, monkeypatch):
    """Run a leak test with the answer cache cold and warm (ViewCache)."""
    return ViewCache(request.param, people, monkeypatch)


# --- real services (tests/workers.py) ----------------------------------------------------------


@pytest.fixture(autouse=True)
def _tasks_inline_by_default():
    """Background tasks run inline in tests, as with no REDIS_URL, even when REDIS_URL
    is set (CI): nobody consumes the test queue. A test that wants them to go through
    Redis to a real worker process asks for `celery_worker`."""
    from muster.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def celery_worker(transactional_db, settings, tmp_path_factory):
    """start(**env) -> a running CeleryWorker on the test database and its own queue.

    Needs PostgreSQL and Redis (skips without them, fails in CI). The test process
    sends real messages (not eager); MEDIA_ROOT is shared with the worker.
    """
    from muster.celery import app
    from tests.workers import CeleryWorker, need_worker_services

    need_worker_services()
    media = tmp_path_factory.mktemp("media")
    settings.MEDIA_ROOT = media
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    started = []

    def start(**env):
        worker = CeleryWorker(media, tmp_path_factory.mktemp("worker-logs"), **env)
        started.append(worker)
        settings.CELERY_TASK_DEFAULT_QUEUE = worker.queue  # rosters.services.enqueue sends there
        settings.CELERY_ODDS_QUEUE = worker.odds_queue  # and campaigns.services.odds there
        return worker.start()

    yield start
    for worker in started:
        worker.stop()
    app.conf.task_always_eager = eager
