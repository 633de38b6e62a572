"""What the fault tests send to the site while they break it: writes and sheet requests through the
API, as a client that resends with the same idempotency key until it has an answer."""

from __future__ import annotations

import http.client
import json
import threading
import time


class Api:
    def __init__(self, port: int, token: str):
        self.port, self.token = port, token

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 15):
        """(status, JSON body, content type); (None, None, "") when no answer came (a worker killed,
        a connection refused)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, payload, headers)
            response = conn.getresponse()
            raw = response.read()
            kind = response.getheader("Content-Type", "")
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = None
            return response.status, data, kind
        except (OSError, http.client.HTTPException):
            return None, None, ""
        finally:
            conn.close()


class Writes:
    """After-action notes written one after another (a thread), each with its own idempotency key,
    resent with that key after no answer or a 503 until acknowledged (at most `patience` s)."""

    def __init__(
        self, api: Api, campaign: int, prefix: str, pause: float = 0.05, patience: float = 40
    ):
        self.api, self.campaign, self.prefix, self.pause, self.patience = (
            api,
            campaign,
            prefix,
            pause,
            patience,
        )
        self.acknowledged: dict[str, str] = {}  # key -> the uid the answer named
        self.answers: list[
            tuple[str, int | None, str]
        ] = []  # (key, status, content type), every try
        self.replayed: dict[str, bool] = {}
        self.gave_up: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._count = 0

    def send(self, key: str, text: str | None = None) -> str | None:
        deadline = time.monotonic() + self.patience
        body = {
            "kind": "note.added",
            "data": {"scenario": 0, "text": text or f"note {key}", "private": False},
            "idempotency_key": key,
        }
        while time.monotonic() < deadline:
            status, data, kind = self.api.call(
                "POST", f"/api/v1/campaigns/{self.campaign}/events/", body
            )
            self.answers.append((key, status, kind))
            if status in (200, 201):
                uid = data.get("uid") or data["events"][0]["uid"]
                self.acknowledged[key] = uid
                self.replayed[key] = bool(data.get("replayed"))  # stored by an earlier try
                return uid
            time.sleep(0.3)  # no answer, a 503 (or anything else, counted): the same key again
        self.gave_up.append(key)
        return None

    def _loop(self):
        while not self._stop.is_set():
            self._count += 1
            self.send(f"{self.prefix}-{self._count}")
            self._stop.wait(self.pause)

    def start(self) -> Writes:
        self._thread = threading.Thread(
            target=self._loop, name=f"writes-{self.prefix}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.patience + 10)

    def errors(self) -> list[tuple[str, int | None, str, str]]:
        """Answers that are neither success, 503 (the database away: nothing stored) nor no answer,
        each saying whether that write was stored all the same (its resend was answered "replayed")."""
        return [
            (key, status, kind, "stored" if self.replayed.get(key) else "not stored")
            for key, status, kind in self.answers
            if status not in (200, 201, 503, None)
        ]


def request_sheet(
    api: Api,
    campaign: int,
    sheet: str = "summary",
    paper: str = "A4",
    side: str | None = None,
    patience: float = 30,
) -> str:
    """A sheet asked for through the API (resent after no answer or a 503); the job's id."""
    body = {"sheet": sheet, "paper": paper, **({"side": side} if side else {})}
    deadline = time.monotonic() + patience
    while True:
        status, data, _ = api.call("POST", f"/api/v1/campaigns/{campaign}/sheets/", body)
        if status in (200, 201, 202):
            return data["id"]
        if time.monotonic() > deadline:
            raise AssertionError(f"no sheet job within {patience} s (last answer {status}: {data})")
        time.sleep(0.3)
