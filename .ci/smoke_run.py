"""CI: `make run` as a club would meet it, against the running server (stdlib only).

    python .ci/smoke_run.py BASE_URL MAKE_RUN_LOG PROJECT_DIR

Waits for the server, then checks: the dashboard sends a visitor to the login page;
the demo logs in over plain HTTP (no HTTPS-only cookie) and shows its club; static
files are served with DEBUG off; a missing page and bad JSON get friendly answers
with no settings, paths or stack; a sheet printed through the API is a PDF, made with
no WeasyPrint warning (a missing system package, such as HarfBuzz's subsetter, shows
there first); the log names the address, has no kombu warning and no line printed
twice. Exit 1 with the reason on the first failure.
"""

import http.cookiejar
import json
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


def fetch(
    path: str, data: bytes | None = None, headers: dict | None = None
) -> tuple[int, str, str]:
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
form = urllib.parse.urlencode(
    {"csrfmiddlewaretoken": token.group(1), "username": "demo-alice", "password": "muster-demo"}
).encode()
status, url, body = fetch("/accounts/login/", form, {"Referer": BASE + "/accounts/login/"})
if status != 200 or "Demo Club" not in body:
    fail(
        f"demo-alice could not log in over plain HTTP ({status} at {url}): the demo or the cookies are wrong"
    )

status, _, css = fetch("/static/css/muster.css")
if status != 200 or "{" not in css:
    fail(f"static files are not served with DEBUG off ({status})")

status, _, body = fetch("/no-such-page/")
if status != 404 or "There is nothing here" not in body:
    fail(
        f"a missing page should get the friendly 404 page, got {status}"
        + (" with Django's technical page (DEBUG on?)" if "Using the URLconf" in body else "")
    )
no_leaks("the 404 page", body)

for name, payload in [("broken JSON", b"{bad"), ("deep JSON", b"[" * 5000 + b"]" * 5000)]:
    anonymous = urllib.request.Request(
        BASE + "/api/v1/auth/token/", data=payload, headers={"Content-Type": "application/json"}
    )
    try:
        body = urllib.request.urlopen(anonymous, timeout=60).read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace")
    no_leaks(f"the answer to an anonymous visitor's {name}", body)


def api(path: str, body: dict | None = None, token: str = "") -> tuple[int, object]:
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


status, answer = api("/api/v1/auth/token/", {"username": "demo-alice", "password": "muster-demo"})
if status != 200:
    fail(f"demo-alice got no API token ({status}): {answer}")
token = answer["token"]
_, campaigns = api("/api/v1/campaigns/", token=token)
campaign = campaigns["results"][0]["id"]
_, choices = api(f"/api/v1/campaigns/{campaign}/sheets/", token=token)
choice = next((c for c in choices if c["audience"] == "public"), choices[0])
wanted = {
    "sheet": choice["slug"],
    **({"side": choice["sides"][0]} if choice["audience"] == "side" else {}),
}
status, job = api(f"/api/v1/campaigns/{campaign}/sheets/", wanted, token=token)
if status not in (200, 201):
    fail(f"asking for a sheet failed ({status}): {job}")
for _ in range(120):  # tasks run inline here: done at once, unless it failed
    if job["status"] in ("done", "failed"):
        break
    time.sleep(0.5)
    _, job = api(f"/api/v1/jobs/{job['id']}/", token=token)
if job["status"] != "done":
    fail(f"the sheet was not printed: {job}")
pdf = urllib.request.urlopen(
    urllib.request.Request(job["file_url"], headers={"Authorization": f"Token {token}"}), timeout=60
).read()
if not pdf.startswith(b"%PDF"):
    fail("the printed sheet is no PDF")

log = open(LOG).read()
for warning in ("HarfBuzz", "fontTools", "WARNING weasyprint", "Fontconfig"):
    if warning in log:
        line = next(line for line in log.splitlines() if warning in line)
        fail(f"printing a sheet logged a warning (a system package missing?): {line}")
port = urllib.parse.urlsplit(BASE).port
if f"http://127.0.0.1:{port}/" not in log:
    fail(f"make run did not say which address it serves (port {port})")
if "No hostname was supplied" in log:
    fail("kombu warned about a broker hostname although no broker is used")
if log.count("Not Found: /no-such-page/") != 1:
    fail(f"a log line was printed {log.count('Not Found: /no-such-page/')} times")
print(f"make run smoke test passed at {BASE}")
