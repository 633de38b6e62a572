"""Debian's nginx with deploy/nginx/muster.conf, a self-signed certificate, in front of gunicorn
with deploy/gunicorn.conf.py: https served, http redirected, HSTS sent, static files served by
nginx, a sign-in that works, and a lockout that counts the real client's address (the one
nginx appended), never an address the client wrote into X-Forwarded-For.

Only what cannot be the same on a test machine is changed in the shipped site: its ports, its
certificate, its static folder and gunicorn's port."""

import http.client
import re
import ssl
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from axes.models import AccessAttempt

from .conftest import BIN, ROOT, free_port, needs, site_env, stop, wait_for_port

pytestmark = pytest.mark.django_db(transaction=True)
HOST = "muster.test"
PASSWORD = "pass-word-123"  # tests/factories.py


def shipped_site(*, http_port, https_port, upstream_port, cert, key, static) -> str:
    """deploy/nginx/muster.conf with this machine's ports, certificate and folders."""
    text = (ROOT / "deploy" / "nginx" / "muster.conf").read_text()
    for old, new in [
        ("listen [::]:80;", ""),
        ("listen [::]:443 ssl http2;", ""),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        ("/etc/letsencrypt/live/muster.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/muster.example.org/privkey.pem", str(key)),
        ("alias /srv/muster/var/static/;", f"alias {static}/;"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};"),
        ("muster.example.org", HOST),
    ]:
        assert old in text, f"deploy/nginx/muster.conf no longer has {old!r}: adapt this test"
        text = text.replace(old, new)
    return text


@pytest.fixture
def site(tmp_path, collected_static, real_passwords):
    needs("nginx", "openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={HOST}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    gunicorn_port, http_port, https_port = free_port(), free_port(), free_port()
    gunicorn_log = tmp_path / "gunicorn.log"
    gunicorn = subprocess.Popen(
        [str(BIN / "gunicorn"), "--config", "deploy/gunicorn.conf.py", "muster.wsgi"],
        cwd=ROOT,
        stdout=gunicorn_log.open("w"),
        stderr=subprocess.STDOUT,
        env=site_env(
            MUSTER_BIND=f"127.0.0.1:{gunicorn_port}",
            WEB_CONCURRENCY="2",
            ALLOWED_HOSTS=HOST,
            CSRF_TRUSTED_ORIGINS=f"https://{HOST}",
            SITE_URL=f"https://{HOST}",
            TRUSTED_PROXY_COUNT="1",
            STATIC_ROOT=str(collected_static),
        ),
    )
    logs = Path(tempfile.mkdtemp(prefix="muster-nginx-"))
    (logs / "site.conf").write_text(
        shipped_site(
            http_port=http_port,
            https_port=https_port,
            upstream_port=gunicorn_port,
            cert=cert,
            key=key,
            static=collected_static,
        )
    )
    (logs / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
user www-data;
pid {logs}/nginx.pid;
error_log {logs}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {logs}/access.log;
    client_body_temp_path {logs}/body; proxy_temp_path {logs}/proxy; fastcgi_temp_path {logs}/fastcgi;
    uwsgi_temp_path {logs}/uwsgi; scgi_temp_path {logs}/scgi;
    include {logs}/site.conf;
}}
""")
    nginx = subprocess.Popen(
        ["nginx", "-c", str(logs / "nginx.conf"), "-e", str(logs / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=(logs / "stderr.log").open("w"),
    )
    try:
        wait_for_port("127.0.0.1", gunicorn_port, gunicorn, log=gunicorn_log)
        wait_for_port("127.0.0.1", https_port, nginx, log=logs / "stderr.log")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = (
            False  # the certificate is checked; the name is muster.test, not 127.0.0.1
        )
        yield Site(http_port, https_port, context)
    finally:
        stop(nginx)
        stop(gunicorn)
        subprocess.run(["rm", "-rf", str(logs)])


class Site:
    def __init__(self, http_port, https_port, context):
        self.http_port, self.https_port, self.context = http_port, https_port, context

    def get(self, path, *, https=True, source="127.0.0.1", headers=None, body=None, method="GET"):
        if https:
            connection = http.client.HTTPSConnection(
                "127.0.0.1",
                self.https_port,
                context=self.context,
                source_address=(source, 0),
                timeout=30,
            )
        else:
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.http_port, source_address=(source, 0), timeout=30
            )
        connection.request(method, path, body=body, headers={"Host": HOST, **(headers or {})})
        answer = connection.getresponse()
        answer.text = answer.read().decode(errors="replace")
        connection.close()
        return answer

    def sign_in(self, username, password, *, source="127.0.0.1", forwarded=None):
        page = self.get("/accounts/login/", source=source)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie")).group(1)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie}",
            "Referer": f"https://{HOST}/accounts/login/",
        }
        if forwarded:
            headers["X-Forwarded-For"] = forwarded
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": username, "password": password}
        )
        return self.get(
            "/accounts/login/", method="POST", body=form, headers=headers, source=source
        )


def test_https_http_hsts_static_and_sign_in_through_nginx(site):
    plain = site.get("/accounts/login/?next=/", https=False)
    assert (
        plain.status == 301
        and plain.getheader("Location") == f"https://{HOST}/accounts/login/?next=/"
    )

    login = site.get(
        "/accounts/login/", headers={"X-Forwarded-Proto": "http"}
    )  # nginx says https, whatever this says
    assert login.status == 200, login.text[:500]
    assert (
        login.getheader("Strict-Transport-Security")
        == "max-age=31536000; includeSubDomains; preload"
    )
    assert "Secure" in login.getheader("Set-Cookie")

    css = site.get("/static/css/muster.css", headers={"Accept-Encoding": "gzip"})
    assert css.status == 200 and css.getheader("Content-Encoding") == "gzip"  # nginx's gzip_static
    assert css.getheader("Cache-Control") == "max-age=604800"  # nginx's 7 days, not whitenoise's
    assert site.get("/media/sheets/anything.pdf").status == 404  # never files on the web

    signed_in = site.sign_in("alice", PASSWORD)
    assert signed_in.status == 302 and signed_in.getheader("Location") == "/"
    session = re.search(r"sessionid=([^;]+);.*", signed_in.getheader("Set-Cookie"))
    assert session and "Secure" in session.group(0)
    dashboard = site.get("/", headers={"Cookie": f"sessionid={session.group(1)}"})
    assert dashboard.status == 200 and "alice" in dashboard.text


def test_the_lockout_counts_the_address_nginx_saw_not_one_the_client_wrote(site, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):  # from 127.0.0.2, "from" a new address each time
        assert site.sign_in(
            "bob", f"guess-{n}", source="127.0.0.2", forwarded=f"203.0.113.{n}"
        ).status in (200, 429)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.2"}
    locked = site.sign_in("bob", PASSWORD, source="127.0.0.2", forwarded="198.51.100.1")
    assert locked.status == 429 and "Too many failed sign-ins" in locked.text
    assert site.sign_in("bob", PASSWORD, source="127.0.0.3").status == 302  # bob at another machine
