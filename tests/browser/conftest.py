"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium, never a
downloaded browser build) against pytest-django's live server.

Without /usr/bin/chromium the tests are skipped with the reason, except in CI
(MUSTER_REQUIRE_SERVICES=1), where they fail. Screenshots of the main pages go
to var/artifacts/screenshots/ (gitignored); the path is printed at the end.

Sheets are rendered by a real Celery worker over Redis when PostgreSQL and Redis
are there (CI), else inline right after the request commits (no broker): the
tests pass the same way in both.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "artifacts" / "screenshots"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


_session_started = time.time()


def pytest_terminal_summary(terminalreporter):
    # Counted on disk: under pytest-xdist the screenshots are taken in the test processes.
    taken = (
        [p for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= _session_started]
        if SCREENSHOTS.is_dir()
        else []
    )
    if taken:
        terminalreporter.write_line(f"browser screenshots ({len(taken)}): {SCREENSHOTS}")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        reason = f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium libatomic1)"
        if django_settings.MUSTER_REQUIRE_SERVICES:
            pytest.fail(f"{reason}; MUSTER_REQUIRE_SERVICES=1: required here", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do (Playwright's own default is 5 s): the suite runs in
    # one process per CPU, so a page can be slow to answer while another process is busy.
    expect.set_options(timeout=30_000)

    # Playwright's sync API runs an event loop in this thread; the test's own ORM
    # calls (fixtures, checks) are still plain synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url,
        accept_downloads=True,
        locale="en-GB",
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(30_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def screenshot():
    """screenshot(page, name): a full-page PNG in var/artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(tab, name: str, selector: str | None = None) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        if selector:
            tab.locator(selector).screenshot(path=str(path))
        else:
            tab.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 0
        return path

    return take


@pytest.fixture
def sheet_renderer(request, settings, tmp_path):
    """Where sheets are rendered: "worker" (a real Celery worker over Redis, on the
    test database) when PostgreSQL and Redis are there, else "inline"."""
    from muster.celery import app

    try:
        from tests.workers import need_worker_services
    except ImportError:  # a build without the real-worker harness
        need_worker_services = None
    worker_mode = False
    if need_worker_services is not None:
        try:
            need_worker_services()
            worker_mode = True
        except (pytest.skip.Exception, pytest.fail.Exception):
            if django_settings.MUSTER_REQUIRE_SERVICES:
                raise
    if worker_mode:
        request.getfixturevalue("celery_worker")()
        yield "worker"
        return
    settings.MEDIA_ROOT = tmp_path / "media"
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    yield "inline"
    app.conf.task_always_eager = eager


def _phone_tab(browser, live_server, javascript: bool = True):
    """A page in a 390×844 phone-sized context (touch), collecting JavaScript errors in `tab.errors`."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        locale="en-GB",
        has_touch=True,
        java_script_enabled=javascript,
    )
    context.set_default_timeout(30_000)
    tab = context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    return tab


@pytest.fixture
def phone(browser, live_server):
    """One phone (`_phone_tab`), signed in as nobody."""
    tab = _phone_tab(browser, live_server)
    yield tab
    tab.context.close()


@pytest.fixture
def phone_without_javascript(browser, live_server):
    """One phone (`_phone_tab`) whose browser runs no JavaScript, signed in as nobody."""
    tab = _phone_tab(browser, live_server, javascript=False)
    yield tab
    tab.context.close()


@pytest.fixture
def phones(browser, live_server):
    """phones(username) -> another phone (`_phone_tab`), each its own browser context, signed in."""
    from tests.browser.session import log_in

    opened = []

    def open_phone(username):
        tab = _phone_tab(browser, live_server)
        opened.append(tab.context)
        log_in(tab, username)
        return tab

    yield open_phone
    for context in opened:
        context.close()
