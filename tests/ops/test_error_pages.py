"""Errors as people see them with DEBUG off (make run, production): friendly pages that
claim nothing they cannot know and show no settings, paths or stack; and DEBUG=1 (a
developer) still gets Django's technical pages."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
# What a technical page shows and a visitor must never see.
LEAKS = [
    "Traceback",
    "SECRET_KEY",
    "DATABASES",
    "INSTALLED_APPS",
    "Request Method",
    "Using the URLconf",
    "site-packages",
    "raise RuntimeError",
    "a secret in its message",
]


def assert_friendly(response, *, status, says):
    html = response.content.decode()
    assert response.status_code == status
    assert says in html
    for leak in LEAKS + [str(ROOT)]:
        assert leak not in html, f"{leak!r} shown on a {status} page"
    return html


@pytest.fixture
def visitor(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.ops.urls_errors"
    return Client(raise_request_exception=False)


def test_the_500_page_claims_nothing_about_what_was_saved(visitor, db):
    html = assert_friendly(
        visitor.get("/test-errors/broken/"), status=500, says="Something went wrong"
    )
    assert "half-written" not in html and "Nothing you submitted" not in html
    assert "may or may not have been saved" in html  # the submission may well be stored
    assert 'name="viewport"' in html  # a phone


def test_the_404_page(visitor, db):
    assert_friendly(visitor.get("/no/such/page/"), status=404, says="Not found")


def test_the_403_page_says_why_and_that_nothing_changed(visitor, db):
    html = assert_friendly(
        visitor.get("/test-errors/forbidden/"), status=403, says="Only the referee can do this."
    )
    assert "Nothing was changed" in html and "javascript:" not in html


def test_a_wrong_host_gets_the_400_page(visitor, db):
    assert_friendly(visitor.get("/", HTTP_HOST="evil.example"), status=400, says="Bad request")


def test_an_expired_form_gets_a_page_that_says_what_to_do(db, settings):
    settings.DEBUG = False
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    response = browser.post("/accounts/login/", {"username": "x", "password": "y"})
    html = assert_friendly(response, status=403, says="This form has expired")
    assert "Nothing was saved" in html


@pytest.mark.parametrize(
    "body",
    [
        "{bad json",
        "[" * 5000 + "]" * 5000,
        '{"username": ["a"], "password": {"b": 1}}',
        "\udcff",
    ],
)
def test_an_anonymous_visitor_sending_bad_json_sees_no_settings_paths_or_stack(visitor, db, body):
    for url in ("/api/v1/auth/token/", "/api/v1/clubs/", "/accounts/login/"):
        response = visitor.post(
            url, data=body.encode("utf-8", "surrogatepass"), content_type="application/json"
        )
        assert response.status_code < 600
        html = response.content.decode(errors="replace")
        for leak in LEAKS + [str(ROOT)]:
            assert leak not in html, f"{leak!r} shown to an anonymous visitor at {url}"


def _request_in_a_fresh_process(env_overrides: dict, path: str) -> str:
    """The page a fresh process serves with this environment (settings read from it)."""
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        f"r = Client(raise_request_exception=False).get({path!r})\n"
        "print(r.status_code); print(r.content.decode())\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")}
    env.update(
        {"DJANGO_SETTINGS_MODULE": "muster.settings", "PYTHONPATH": str(ROOT), **env_overrides}
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_with_nothing_set_the_site_serves_friendly_pages():
    """make run sets no DEBUG: a club trying Muster gets the pages a public site gives."""
    page = _request_in_a_fresh_process({}, "/no/such/page/")
    assert (
        page.startswith("404")
        and "There is nothing here" in page
        and "Using the URLconf" not in page
    )


def test_debug_1_gives_a_developer_the_technical_pages():
    page = _request_in_a_fresh_process({"DEBUG": "1"}, "/no/such/page/")
    assert page.startswith("404") and "Using the URLconf defined in" in page


def test_the_error_templates_are_the_sites():
    # Django picks these by name; a renamed file would silently bring back its bare defaults.
    for name in ("400.html", "403.html", "403_csrf.html", "404.html", "500.html"):
        assert (ROOT / "templates" / name).is_file()
    # JSON under /api/; elsewhere Django's view, with 403_csrf.html.
    assert django_settings.CSRF_FAILURE_VIEW == "muster.error_pages.csrf_failure"
