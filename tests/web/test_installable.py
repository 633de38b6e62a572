"""The site installable on a phone: its manifest, its service worker (scope, headers, what it
keeps first), the opaque key that tells the worker whose pages it keeps, and signing out
emptying the browser's storage for the site."""

import json
import re

from django.contrib.staticfiles import finders

from campaigns.views.installable import person_key

from .conftest import text_of


def test_the_manifest_makes_the_site_installable_with_icons_that_exist(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["scope"] == "/" and manifest["theme_color"] == "#2f5d3a"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert sizes == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_the_service_worker_is_served_for_the_whole_site_and_never_kept_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    script = text_of(response)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))
    assert "/static/css/muster.css" in precache and "/static/js/offline.js" in precache
    assert "{%" not in script and "{{" not in script  # the template's own syntax never leaks


def test_every_page_names_its_person_by_an_opaque_key_and_nobody_when_signed_out(
    people, client_for
):
    alice, bob = people["alice"], people["bob"]
    page = text_of(client_for("alice").get("/"))
    assert f'<meta name="muster-person" content="{person_key(alice)}">' in page
    assert person_key(alice) != person_key(bob) and person_key(alice) == person_key(alice)
    assert re.fullmatch(r"[0-9a-f]{24}", person_key(alice)) and str(alice.pk) != person_key(alice)
    login = text_of(client_for("anonymous").get("/accounts/login/"))
    assert '<meta name="muster-person" content="">' in login
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_signing_out_empties_what_the_browser_keeps_for_the_site(people, client_for):
    client = client_for("alice")
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert out["Clear-Site-Data"] == '"cache", "storage"'
