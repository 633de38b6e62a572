"""/api/schema/ is valid OpenAPI 3 and documents every operation; the docs pages
load their assets from this site's /static/ only (they work with no network)."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from openapi_spec_validator import validate

ABSOLUTE_URL = re.compile(r"https?://", re.I)
ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)


@pytest.fixture
def schema(db, client_for):
    response = client_for("anonymous").get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_schema_is_valid_openapi_3(schema):
    assert schema["openapi"].startswith("3.")
    validate(schema)  # raises on any violation of the OpenAPI 3 specification


def test_schema_generation_has_no_warnings(tmp_path):
    # The management command validates too, and fails on any drf-spectacular warning.
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )


def test_every_operation_documents_its_request_and_answers(schema):
    operations = [
        (path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()
    ]
    assert len(operations) >= 27
    for path, method, op in operations:
        ok = [code for code in op["responses"] if code.startswith("2")]
        assert ok, (method, path)
        assert all("content" in op["responses"][code] for code in ok), (method, path)
        bodyless = ("/revoke/", "/retry/", "/archive/", "/restore/")  # actions without a body
        if method == "post" and not path.endswith(bodyless):
            assert "requestBody" in op, (method, path)
        if "{" in path:
            assert "404" in op["responses"], (method, path)


def test_the_submit_operation_documents_idempotency_and_conflicts(schema):
    submit = schema["paths"]["/api/v1/campaigns/{campaign_id}/events/"]["post"]
    assert {"200", "201", "400", "403", "404", "409"} <= set(submit["responses"])
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in submit["parameters"])


def test_what_one_may_do_now_is_a_list_of_actions(schema):
    answer = schema["paths"]["/api/v1/campaigns/{campaign_id}/actions/"]["get"]["responses"]["200"]
    listed = answer["content"]["application/json"]["schema"]
    assert listed["type"] == "array"
    assert listed["items"]["$ref"] == "#/components/schemas/Action"
    assert {"kind", "label", "side", "rule", "initial", "help", "optional"} == set(
        schema["components"]["schemas"]["Action"]["properties"]
    )


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_use_only_local_assets(url, db, client_for):
    response = client_for("anonymous").get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert not ABSOLUTE_URL.search(html), ABSOLUTE_URL.findall(html)
    assets = [a for a in ASSET.findall(html) if not a.startswith("#")]
    assert assets and all(a.startswith("/static/") for a in assets), assets
    for asset in assets:
        assert finders.find(asset.removeprefix("/static/")), f"{asset} is not a local static file"
    assert "/api/schema/" in html


def test_swagger_ui_does_not_ask_the_online_validator(db, client_for):
    html = client_for("anonymous").get("/api/docs/").content.decode()
    assert '"validatorUrl": null' in html
