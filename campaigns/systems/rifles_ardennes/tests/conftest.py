"""Fixtures shared with the web tests (a client signed in as one of the named people) and the
browser tests (Debian's Chromium through Playwright, screenshots)."""

from tests.browser.conftest import browser, phone, screenshot  # noqa: F401
from tests.web.conftest import client_for, text_of  # noqa: F401
