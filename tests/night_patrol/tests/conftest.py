"""Night Patrol joins the registry for its own tests only (it never shows on a site, nor in the
rest of the suite's lists of games); the named people and clients are the suite's."""

import pytest

from tests.web.conftest import client_for, text_of  # noqa: F401

GAME = "tests.night_patrol"


@pytest.fixture(autouse=True)
def night_patrol_registered(settings):
    settings.MUSTER_EXTRA_SYSTEMS = [*settings.MUSTER_EXTRA_SYSTEMS, GAME]
