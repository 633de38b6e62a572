"""The site as an app on a phone: its web app manifest, its service worker, and the key that
tells the worker whose pages it keeps.

The worker (templates/installable/sw.js, served at /sw.js so that its scope is the whole site)
keeps the static files, and for the person signed in on the phone each campaign page they open
(`/campaigns/<id>/`, exactly as the server sent it to them), refreshed whenever the network is
there and shown, marked "as of" its time, when it is not. It keeps them under an opaque key of
the person (`person_key`, never their id), written in every page's <meta name="muster-person">:
a page with another person's key (someone else signed in) or none (signed out) makes it forget
every kept page. Signing in or out also sends Clear-Site-Data (accounts.py), which empties the
browser's storage for the site, the worker's caches included.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.crypto import salted_hmac
from django.views.decorators.http import require_GET

from muster.release import __version__

# What the worker keeps before any page asks: the files every page needs, and the icons.
PRECACHED = (
    "css/muster.css",
    "vendor/htmx.min.js",
    "js/offline.js",
    "js/queue.js",
    "icons/muster-192.png",
)
THEME = "#2f5d3a"  # the header's colour (--accent in muster.css)


def person_key(user: User | AnonymousUser) -> str:
    """An opaque key of a signed-in person ('' for nobody): the same on every page, another for
    another person, saying nothing about who they are."""
    if not user.is_authenticated:
        return ""
    return salted_hmac("muster.installable.person", str(user.pk)).hexdigest()[:24]


def person(request: HttpRequest) -> dict[str, str]:
    """`offline_person` for base.html (a context processor)."""
    user = getattr(request, "user", None)
    return {"offline_person": person_key(user) if user is not None else ""}


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Muster",
        "short_name": "Muster",
        "description": "Your club's wargame campaigns: what waits for you, and your side's pages.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f7f5",
        "theme_color": THEME,
        "icons": [
            {
                "src": static(f"icons/muster-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    precache = [static(path) for path in PRECACHED]
    version = hashlib.sha256(json.dumps([__version__, *precache]).encode()).hexdigest()[:12]
    script = render_to_string(
        "installable/sw.js",
        {"version": version, "precache": json.dumps(precache), "theme": THEME},
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    # Always asked again (browsers check a worker at most a day old anyway): a new release's
    # worker takes over at the next page.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
