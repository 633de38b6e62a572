"""CI: `make run` as a club would meet it, against the running server (stdlib only).

    python .ci/smoke_run.py BASE_URL MAKE_RUN_LOG PROJECT_DIR

Waits for the server, then checks: the dashboard sends a visitor to the login page;
the demo logs in over plain HTTP (no HTTPS-only cookie) and shows its club; static
files are served with DEBUG off; a missing page and bad JSON get friendly answers
with no settings, paths or stack; the log names the address, has no kombu warning
and no line printed twice. Exit 1 with the reason on the first failure.
"""

import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

BASE, LOG, PROJECT = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
LEAKS = ["Traceback", "SECRET_KEY", "DATABASES", "Using the URLconf", "site-packages", PROJECT]
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def fail(message: str) -> None:
    print(f"make run smoke test failed: {message}", file=sys.stderr)
    sys.exit(1)


def fetch(path: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, str, str]:
    request = urllib.request.Request(BASE + path, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, response.geturl(), response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.geturl(), error.read().decode(errors="replace")


def no_leaks(what: str, body: str) -> None:
    for leak in LEAKS:
        if leak in body:
            fail(f"{what} shows {leak!r}")


deadline = time.monotonic() + 600  # the first run installs everything
while True:
    try:
        urllib.request.urlopen(BASE + "/accounts/login/", timeout=5)
        break
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        if time.monotonic() > deadline:
            fail(f"nothing answers at {BASE} after 10 minutes; log:\n" + open(LOG).read()[-3000:])
        time.sleep(1)

status, url, body = fetch("/")
if status != 200 or "/accounts/login/" not in url:
    fail(f"/ should lead a visitor to the login page, got {status} at {url}")
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
if not token:
    fail("the login page has no form")
form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": "demo-alice",
                               "password": "muster-demo"}).encode()
status, url, body = fetch("/accounts/login/", form, {"Referer": BASE + "/accounts/login/"})
if status != 200 or "Demo Club" not in body:
    fail(f"demo-alice could not log in over plain HTTP ({status} at {url}): the demo or the cookies are wrong")

status, _, css = fetch("/static/css/muster.css")
if status != 200 or "{" not in css:
    fail(f"static files are not served with DEBUG off ({status})")

status, _, body = fetch("/no-such-page/")
if status != 404 or "There is nothing here" not in body:
    fail(f"a missing page should get the friendly 404 page, got {status}"
         + (" with Django's technical page (DEBUG on?)" if "Using the URLconf" in body else ""))
no_leaks("the 404 page", body)

for name, payload in [("broken JSON", b"{bad"), ("deep JSON", b"[" * 5000 + b"]" * 5000)]:
    anonymous = urllib.request.Request(BASE + "/api/v1/auth/token/", data=payload,
                                       headers={"Content-Type": "application/json"})
    try:
        body = urllib.request.urlopen(anonymous, timeout=60).read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace")
    no_leaks(f"the answer to an anonymous visitor's {name}", body)

log = open(LOG).read()
port = urllib.parse.urlsplit(BASE).port
if f"http://127.0.0.1:{port}/" not in log:
    fail(f"make run did not say which address it serves (port {port})")
if "No hostname was supplied" in log:
    fail("kombu warned about a broker hostname although no broker is used")
if log.count("Not Found: /no-such-page/") != 1:
    fail(f"a log line was printed {log.count('Not Found: /no-such-page/')} times")
print(f"make run smoke test passed at {BASE}")
