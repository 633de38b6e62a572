"""Page weight at every seat of the demo club (`manage.py load_demo`: a campaign of every shipped
game, each stopped where its players take over): each side's players, the referee, the demo
organizer (who plays in some of them), an organizer who plays no side and a member playing
nothing. Every page each of them can open is weighed: the dashboard, the notices, the club page,
and for every campaign its page, the page of every form it links to (``?do=``), its history,
records, scenarios, procedure, mails and setup. Budget: ≤ 100 KB of HTML and ≤ 2,000 elements (a
long form drawn on a page of its own, Action.own_page: ≤ 200 KB, as the A!P! guard's).

The A!P! campaign played to its 13th half-day is weighed by
campaigns/systems/achtung_panzer/tests/test_page_weight.py. MUSTER_PAGE_WEIGHT=<file> writes
the figures there."""

from __future__ import annotations

import os
import re
from html import unescape
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from campaigns.systems.achtung_panzer.tests.test_page_weight import BYTES, ELEMENTS, weigh

pytestmark = pytest.mark.django_db

LONG_FORM_BYTES = 200_000
PAGES = ("", "history/", "records/", "scenarios/", "procedure/", "mails/", "setup/")


def _seats():
    """The demo's people, and the two seats it has not: an organizer and a member who play nothing."""
    from campaigns.models import Club, Membership
    from tests.factories import MembershipFactory, UserFactory

    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    club = Club.objects.get(name="Demo Club")
    MembershipFactory(club=club, user=UserFactory(username="watching-organizer"), role="organizer")
    MembershipFactory(club=club, user=UserFactory(username="watching-member"), role="player")
    return club, {m.user.username: m.user for m in Membership.objects.filter(club=club)}


def _weigh_all(club, user) -> dict[str, tuple[int, int, bool]]:
    """url -> (bytes, elements, a long form on its own page) for every page `user` can open."""
    from campaigns.models import Campaign

    client = Client(raise_request_exception=True)
    client.force_login(user)
    urls = ["/", "/notices/", f"/clubs/{club.slug}/"]
    for campaign in Campaign.objects.filter(club=club).order_by("pk"):
        urls += [f"/campaigns/{campaign.pk}/{tail}" for tail in PAGES]
    found = {}
    while urls:
        url = urls.pop(0)
        response = client.get(url)
        if response.status_code in (403, 404):  # not theirs (setup), or not this game's (records)
            continue
        assert response.status_code == 200, (user.username, url, response.status_code)
        page = response.content.decode()
        size, elements = weigh(response.content)
        # A long form on a page of its own (campaigns/form_page.html) names its section.
        found[url] = (size, elements, '<section id="now" class="card" aria-label=' in page)
        if re.fullmatch(r"/campaigns/\d+/", url):  # every form the page links to
            urls += [
                url + unescape(query)
                for query in dict.fromkeys(re.findall(r'href="[^"?]*(\?do=[^"#]+)', page))
            ]
    return found


def test_every_demo_page_stays_within_its_budget_at_every_seat():
    club, seats = _seats()
    weights = {}
    for name, user in sorted(seats.items()):
        for url, weight in _weigh_all(club, user).items():
            weights[(name, url)] = weight
    if os.environ.get("MUSTER_PAGE_WEIGHT"):
        with open(os.environ["MUSTER_PAGE_WEIGHT"], "w") as out:
            for (name, url), (size, elements, _) in sorted(weights.items()):
                out.write(f"{size / 1000:7.1f} KB {elements:6} elements  {name:20} {url}\n")
    over = [
        f"{name} {url}: {size / 1000:.1f} KB, {elements} elements"
        for (name, url), (size, elements, own) in sorted(weights.items())
        if size > (LONG_FORM_BYTES if own else BYTES) or (elements > ELEMENTS and not own)
    ]
    assert not over, "\n".join(over)
    forms = {url for _, url in weights if "?do=" in url}
    assert len(forms) > 10, "the demo's campaigns link to fewer forms than they did"
    assert {name for name, _ in weights} >= {
        "demo-referee",
        "watching-organizer",
        "watching-member",
    }
