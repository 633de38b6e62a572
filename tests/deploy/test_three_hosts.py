"""A site on three machines: two web nodes and a worker, each in a network namespace of its
own (its own addresses, its own MEDIA_ROOT), joined by a bridge to this machine, which gives
them PostgreSQL and Redis (forwarded from its loopback) and an S3 server (moto's, run as its
own process) as the sheets' store. A player signs in on node A and asks for a sheet, the
worker renders it, node B serves the download, and the other side's player gets 404 for it
on both nodes.

The addresses are private ones of this test's own bridge (10.231.N.0/24), used only between
the namespaces it made; everything is removed at the end."""

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from .conftest import BIN, ROOT, needs, site_env, stop, wait_for_port

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pass-word-123"  # tests/factories.py
BUCKET = "club-sheets"


def ip(*args, check=True):
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=30)


class Network:
    """A bridge on this machine (HOST.1) and one namespace per node (HOST.11, .12, ...)."""

    def __init__(self, nodes):
        tag = os.getpid() % 100000
        self.bridge = f"mstbr{tag}"
        used = ip("-4", "-o", "addr").stdout
        self.subnet = next(f"10.231.{n}" for n in range(10, 250) if f"10.231.{n}." not in used)
        self.host = f"{self.subnet}.1"
        self.nodes = {
            name: (f"mst{tag}{name}", f"{self.subnet}.{11 + i}") for i, name in enumerate(nodes)
        }

    def __enter__(self):
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"{self.host}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        for namespace, address in self.nodes.values():
            outside, inside = f"{namespace}o", f"{namespace}i"
            ip("netns", "add", namespace)
            ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            ip("link", "set", outside, "master", self.bridge, "up")
            ip("link", "set", inside, "netns", namespace)
            ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inside)
            ip("-n", namespace, "link", "set", inside, "up")
            ip("-n", namespace, "link", "set", "lo", "up")
        return self

    def __exit__(self, *exc):
        for namespace, _ in self.nodes.values():
            ip("netns", "del", namespace, check=False)
        ip("link", "del", self.bridge, check=False)

    def run(self, node, command, env, log: Path):
        namespace = self.nodes[node][0]
        return subprocess.Popen(
            ["ip", "netns", "exec", namespace, *command],
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Forward(threading.Thread):
    """host:port on the bridge -> 127.0.0.1:target: the machine's PostgreSQL and Redis listen on
    the loopback only, which a namespace cannot reach."""

    def __init__(self, host, target):
        super().__init__(daemon=True)
        self.listener = socket.create_server((host, 0))
        self.port, self.target, self.open = self.listener.getsockname()[1], target, True

    def run(self):
        while self.open:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.open = False
        self.listener.close()


class Browser:
    """A player's cookies, sent to whichever node answers (behind one proxy, one site's name)."""

    def __init__(self):
        self.cookies = {}

    def csrf(self):
        return self.cookies["csrftoken"]

    def call(self, url, data=None, headers=None, method=None):
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        request = urllib.request.Request(
            url, data=data, headers={**(headers or {}), "Cookie": cookie}, method=method
        )
        opener = urllib.request.build_opener(NoRedirect)
        try:
            answer = opener.open(request, timeout=60)
        except urllib.error.HTTPError as error:
            answer = error
        with answer:
            for header in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return (
                answer.status if hasattr(answer, "status") else answer.code,
                answer.read(),
                answer.headers,
            )

    def sign_in(self, node, username):
        status, page, _ = self.call(f"{node}/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD}
        )
        status, _, headers = self.call(
            f"{node}/accounts/login/", form.encode(), {"Referer": f"{node}/accounts/login/"}
        )
        assert status == 302 and "sessionid" in self.cookies, status

    def api(self, url, body=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {
            "Accept": "application/json",
            "Content-Type": "application/json",
            "X-CSRFToken": self.csrf(),
            "Referer": url,
        }
        status, text, _ = self.call(url, data, headers)
        return status, (json.loads(text) if text and status != 204 else None)


@pytest.fixture
def three_hosts(tmp_path, collected_static, settings, real_passwords):
    needs("ip")
    import boto3

    redis_db = (
        int(settings.REDIS_URL.rsplit("/", 1)[1] or 0)
        if getattr(settings, "REDIS_URL", "")
        else None
    )
    if redis_db is None:
        pytest.fail("needs REDIS_URL (the broker between the machines)")
    network = Network(["a", "b", "worker"])
    processes, forwards = [], []
    with network:
        postgres, redis = Forward(network.host, 5432), Forward(network.host, 6379)
        forwards += [postgres, redis]
        for forward in forwards:
            forward.start()
        store_port = 15000 + os.getpid() % 1000
        store_log = tmp_path / "s3.log"
        store = subprocess.Popen(
            [str(BIN / "python"), "-m", "moto.server", "-H", network.host, "-p", str(store_port)],
            stdout=store_log.open("w"),
            stderr=subprocess.STDOUT,
        )
        processes.append(store)
        try:
            wait_for_port(network.host, store_port, store, log=store_log)
            endpoint = f"http://{network.host}:{store_port}"
            credentials = {
                "AWS_ACCESS_KEY_ID": "muster-test",
                "AWS_SECRET_ACCESS_KEY": "muster-test-secret",
            }
            s3 = boto3.client(
                "s3",
                endpoint_url=endpoint,
                region_name="us-east-1",
                aws_access_key_id=credentials["AWS_ACCESS_KEY_ID"],
                aws_secret_access_key=credentials["AWS_SECRET_ACCESS_KEY"],
            )
            s3.create_bucket(Bucket=BUCKET)
            queue = f"muster-3h-{os.getpid()}"
            env = site_env(
                **credentials,
                DATABASE_URL=site_env()["DATABASE_URL"]
                .replace("127.0.0.1:5432", f"{network.host}:{postgres.port}")
                .replace("localhost:5432", f"{network.host}:{postgres.port}"),
                REDIS_URL=f"redis://{network.host}:{redis.port}/{redis_db}",
                SHEETS_STORAGE_URL=f"s3://{BUCKET}/site?endpoint_url={endpoint}&region_name=us-east-1",
                ALLOWED_HOSTS=",".join(address for _, address in network.nodes.values()),
                SECURE_SSL_REDIRECT="0",
                SESSION_COOKIE_SECURE="0",
                CSRF_COOKIE_SECURE="0",
                STATIC_ROOT=str(collected_static),
                CELERY_QUEUE=queue,
                CELERY_ODDS_QUEUE=f"{queue}-odds",
            )
            nodes = {}
            for name, (_, address) in network.nodes.items():
                media = tmp_path / name / "media"
                media.mkdir(parents=True)
                log = tmp_path / f"{name}.log"
                if name == "worker":
                    command = [
                        str(BIN / "celery"),
                        "-A",
                        "muster",
                        "worker",
                        "-n",
                        f"{queue}@worker",
                        "-Q",
                        queue,
                        "--concurrency",
                        "1",
                        "--pool",
                        "solo",
                        "--loglevel",
                        "info",
                    ]
                else:
                    command = [
                        str(BIN / "gunicorn"),
                        "--config",
                        "deploy/gunicorn.conf.py",
                        "muster.wsgi",
                    ]
                process = network.run(
                    name,
                    command,
                    {
                        **env,
                        "MEDIA_ROOT": str(media),
                        "WEB_CONCURRENCY": "1",
                        "MUSTER_BIND": f"{address}:8000",
                    },
                    log,
                )
                processes.append(process)
                nodes[name] = {
                    "url": f"http://{address}:8000",
                    "media": media,
                    "log": log,
                    "process": process,
                }
            for name in ("a", "b"):
                wait_for_port(
                    network.nodes[name][1], 8000, nodes[name]["process"], log=nodes[name]["log"]
                )
            yield nodes, s3
        finally:
            for process in reversed(processes):
                stop(process)
            for forward in forwards:
                forward.close()


def test_a_sheet_asked_on_one_node_rendered_by_the_worker_is_served_by_the_other(
    three_hosts, skirmish, people
):
    nodes, s3 = three_hosts
    node_a, node_b = nodes["a"]["url"], nodes["b"]["url"]
    alice = Browser()
    alice.sign_in(node_a, "alice")
    status, job = alice.api(
        f"{node_a}/api/v1/campaigns/{skirmish.pk}/sheets/", {"sheet": "supply", "side": "red"}
    )
    assert status in (200, 201, 202), job
    deadline = time.monotonic() + 90
    while job["status"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.5)
        status, job = alice.api(f"{node_a}/api/v1/jobs/{job['id']}/")
    assert job["status"] == "done", (
        f"{job}\n--- worker:\n{nodes['worker']['log'].read_text()[-3000:]}"
    )
    # The third host rendered it: the job is marked done inside the task, and the worker
    # logs "succeeded" a moment later, so give its log a few seconds.
    logged = time.monotonic() + 15
    while "succeeded" not in nodes["worker"]["log"].read_text() and time.monotonic() < logged:
        time.sleep(0.2)
    assert "succeeded" in nodes["worker"]["log"].read_text()

    status, pdf, headers = alice.call(f"{node_b}/api/v1/jobs/{job['id']}/file/")  # the other node
    assert (
        status == 200 and pdf.startswith(b"%PDF") and headers["Content-Type"] == "application/pdf"
    )
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])]
    assert len(keys) == 1 and keys[0].startswith("site/sheets/")
    assert s3.get_object(Bucket=BUCKET, Key=keys[0])["Body"].read() == pdf
    for name in ("a", "b", "worker"):  # no machine kept it on its own disk
        assert list(nodes[name]["media"].rglob("*.pdf")) == []

    bob = Browser()
    bob.sign_in(node_b, "bob")  # the other side
    for node in (node_a, node_b):
        for path in (
            f"/api/v1/jobs/{job['id']}/file/",
            f"/sheets/jobs/{job['id']}/file/",
            f"/api/v1/jobs/{job['id']}/",
        ):
            assert bob.call(f"{node}{path}", headers={"Accept": "application/json"})[0] == 404, (
                node,
                path,
            )
