"""The dashboard and the club page show the first few of each list, read as such in SQL: what
waits for the person comes first however long ago its campaign last moved (their waiting notices
order it), the counts are of every campaign, and another side's hidden step changes nothing."""

from __future__ import annotations

import re

from campaigns.services.journal import submit
from tests.web.wars import skirmish_war


def _dashboard(client, url="/") -> str:
    # Every render has its own CSRF token: the rest is compared.
    return re.sub(r"[A-Za-z0-9]{64}", "", client.get(url).content.decode())


def _section(page: str, heading: str) -> str:
    return page.split(f'id="{heading}"', 1)[1].split("</section>", 1)[0]


def test_what_waits_longest_comes_first_with_honest_counts(
    notices_inline, club, people, client_for
):
    for i in range(20):  # each waits for alice (red's supply roll), the oldest longest
        skirmish_war(club, people, f"War {i:02d}")
    skirmish_war(club, people, "Next spring", start=False)  # the latest change, waits for nobody
    alice = client_for("alice")
    page = _dashboard(alice)
    waiting = _section(page, "waiting-h")
    assert re.findall(r"<strong>War (\d\d)</strong>", waiting) == [f"{i:02d}" for i in range(15)]
    assert "20 campaigns wait for you; the 15 waiting longest shown" in waiting
    assert 'href="/campaigns/"' in waiting
    mine = _section(page, "campaigns-h")
    assert re.findall(r">War (\d\d)</a>", mine) == [f"{i:02d}" for i in range(15)]
    assert "Next spring" not in mine and "All 21 campaigns" in mine

    # Another side's hidden step (blue's supply roll) changes nothing on her dashboard.
    submit(club.campaigns.get(name="War 05"), people["bob"], "skirmish.supply", {}, side="blue")
    assert _dashboard(alice) == page
    # Her own step: still her turn there (one wait), still first, with its next step.
    submit(club.campaigns.get(name="War 00"), people["alice"], "skirmish.supply", {}, side="red")
    waiting = _section(_dashboard(alice), "waiting-h")
    assert waiting.index("War 00") < waiting.index("War 01")
    assert waiting.count("Buy reinforcements") == 1


def test_the_club_page_shows_what_waits_for_the_person_first(
    notices_inline, club, people, client_for
):
    for i in range(20):  # each waits for alice, the oldest longest
        skirmish_war(club, people, f"War {i:02d}")
    url = f"/clubs/{club.slug}/"
    pages = {name: _dashboard(client_for(name), url) for name in ("alice", "carol")}
    listed = {
        name: re.findall(r">War (\d\d)</a>", _section(page, "camp-h"))
        for name, page in pages.items()
    }
    assert listed["alice"] == [f"{i:02d}" for i in range(15)]  # what waits longest for her
    assert listed["carol"] == [f"{i:02d}" for i in range(19, 4, -1)]  # nothing: the latest
    assert all("All 20 campaigns" in page for page in pages.values())

    submit(club.campaigns.get(name="War 05"), people["bob"], "skirmish.supply", {}, side="blue")
    for name, page in pages.items():
        assert _dashboard(client_for(name), url) == page, name
