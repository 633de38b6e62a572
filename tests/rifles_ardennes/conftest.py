"""Page fixtures shared with the web tests (a client signed in as one of the named people)."""

from tests.web.conftest import client_for, text_of  # noqa: F401
