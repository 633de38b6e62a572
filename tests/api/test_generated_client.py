"""A client generated from the API's own schema by openapi-python-client (pinned in
requirements-test.txt), as README, "API clients", says to make one: against a live server it
signs in, lists campaigns, reads the state, submits an event and gets the 400 with field
errors for a bad one. The API takes JSON only, so the generated calls send JSON."""

import importlib
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip(
    "openapi_python_client"
)  # requirements-test.txt (an older .venv: make install-test)
pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pass-word-123"  # tests/factories.py


@pytest.fixture
def generated(live_server, tmp_path, monkeypatch):
    """The client package generated from the live schema, imported."""
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json", timeout=30) as answer:
        (tmp_path / "schema.json").write_bytes(answer.read())
    tool = Path(sys.executable).parent / "openapi-python-client"
    env = {
        **os.environ,
        "PATH": f"{tool.parent}{os.pathsep}{os.environ['PATH']}",
    }  # its ruff formats the code
    done = subprocess.run(
        [str(tool), "generate", "--path", "schema.json", "--meta", "none"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "muster_api_client").is_dir()
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n.startswith("muster_api_client")]:
        del sys.modules[name]
    yield lambda name: importlib.import_module(f"muster_api_client.{name}")
    shutil.rmtree(tmp_path / "muster_api_client", ignore_errors=True)


def test_a_generated_client_signs_in_reads_and_writes(generated, live_server, skirmish, people):
    client_module, models = generated("client"), generated("models")
    token_api = generated("api.auth.auth_token_obtain")
    anonymous = client_module.Client(base_url=live_server.url)
    token = token_api.sync(
        client=anonymous, body=models.AuthTokenRequest(username="alice", password=PASSWORD)
    )
    assert isinstance(token, models.TokenOutput)
    refused = token_api.sync_detailed(
        client=anonymous, body=models.AuthTokenRequest(username="alice", password="no")
    )
    assert refused.status_code == 400

    alice = client_module.AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token"
    )
    listed = generated("api.campaigns.campaigns_list").sync(client=alice)
    assert [campaign.id for campaign in listed.results] == [skirmish.pk]
    state = generated("api.journal.campaigns_state").sync(skirmish.pk, client=alice)
    assert isinstance(state, models.StateOutput)

    submit = generated("api.journal.campaigns_events_submit")
    written = submit.sync_detailed(
        skirmish.pk, client=alice, body=models.SubmitInputRequest(kind="skirmish.supply")
    )
    assert written.status_code == 201, written.content
    assert [event.kind for event in written.parsed.events][0] == "skirmish.supply"

    bad = submit.sync_detailed(
        skirmish.pk,
        client=alice,
        body=models.SubmitInputRequest(
            kind="skirmish.buy",
            data=models.SubmitInputRequestData.from_dict({"count": "many"}),
            side="red",
        ),
    )
    assert bad.status_code == 400
    errors = json.loads(bad.content)
    assert errors and all(
        isinstance(messages, list) and messages for messages in errors.values()
    ), errors


def test_the_api_takes_json_only_and_says_so(skirmish, people):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(people["alice"])
    form = client.post(
        f"/api/v1/campaigns/{skirmish.pk}/events/", {"kind": "skirmish.supply"}, format="multipart"
    )
    assert form.status_code == 415 and "multipart/form-data" in form.json()["detail"]
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    bodies = [
        (path, method, operation["requestBody"])
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    ]
    assert bodies and all(list(body["content"]) == ["application/json"] for _, _, body in bodies)
    # Required wherever the view needs one; optional only where every field has a default.
    optional = {(path, method) for path, method, body in bodies if not body.get("required")}
    assert optional == {
        ("/api/v1/clubs/{slug}/invitations/", "post"),
        ("/api/v1/notices/{notice_id}/", "patch"),  # read defaults to true
        ("/api/v1/clubs/{slug}/webhooks/{webhook_id}/", "patch"),  # either field, or neither
    }
