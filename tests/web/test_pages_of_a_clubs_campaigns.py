"""The pages of all a club's campaigns are read a page at a time: out of the archive first (in
play, being set up, finished; the latest public change first), then the archived ones (the latest
archived first), with the count of them all, Previous/Next links, the last page for a number past
it, and the standings across campaigns of the page's campaigns only."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.services import campaigns as svc
from tests.web.wars import skirmish_war

PAGE = 3


@pytest.fixture
def wars(club, people, monkeypatch):
    """Eight campaigns, three a page: in play, being set up, finished, archived; their last public
    changes and archiving times in another order than their creation."""
    monkeypatch.setattr("campaigns.views.clubs.CLUB_PAGE", PAGE)
    olga = people["olga"]
    made = [skirmish_war(club, people, f"War {i}") for i in range(3)]
    made.append(skirmish_war(club, people, "Spring", start=False))
    for name in ("Ended", "Shelved 0", "Shelved 1", "Shelved 2"):
        ended = skirmish_war(club, people, name)
        svc.finish_campaign(ended, olga, reason="The club called it a draw.")
        made.append(ended)
    now = timezone.now()
    for n, campaign in enumerate(made):  # the first made: the latest change
        Campaign.objects.filter(pk=campaign.pk).update(updated_at=now - timedelta(minutes=n))
    for n, name in enumerate(("Shelved 1", "Shelved 0", "Shelved 2")):  # archived in this order
        Campaign.objects.filter(name=name).update(
            archived_at=now + timedelta(minutes=n), archived_by=olga
        )
    return made


def _listed(html: str) -> list[str]:
    section = html.split('id="camp-h"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'href="/campaigns/\d+/">([^<]+)</a>', section)


def _standings(html: str) -> list[str]:
    if 'id="stand-h"' not in html:
        return []
    section = html.split('id="stand-h"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<th scope="row"><a href="/campaigns/\d+/">([^<]+)</a>', section)


def test_each_page_holds_the_next_campaigns_in_the_club_s_order(wars, club, client_for):
    client = client_for("carol")
    url = f"/clubs/{club.slug}/campaigns/"
    pages = [client.get(f"{url}?page={n}").content.decode() for n in (1, 2, 3)]
    assert [_listed(page) for page in pages] == [
        ["War 0", "War 1", "War 2"],  # in play, the latest change first
        ["Spring", "Ended", "Shelved 2"],  # being set up, finished, then archived: latest first
        ["Shelved 0", "Shelved 1"],
    ]
    for n, page in enumerate(pages, start=1):
        assert f"8 campaigns, in play first, archived last; page {n} of 3." in page
        assert ('rel="prev"' in page) == (n > 1) and ('rel="next"' in page) == (n < 3)
    assert 'href="?page=2" rel="next"' in pages[0] and 'href="?page=1" rel="prev"' in pages[1]
    # The tables hold the page's campaigns only (standings: finished and archived ones too).
    assert _standings(pages[0]) == ["War 0", "War 1", "War 2"]
    assert _standings(pages[1]) == ["Ended", "Shelved 2"]
    assert _standings(pages[2]) == ["Shelved 0", "Shelved 1"]


def test_a_page_past_the_last_or_not_a_number_is_the_last_or_the_first(wars, club, client_for):
    client = client_for("carol")
    url = f"/clubs/{club.slug}/campaigns/"
    last = client.get(f"{url}?page=99").content.decode()
    assert "page 3 of 3" in last and _listed(last) == ["Shelved 0", "Shelved 1"]
    for asked in ("x", "0", "-1", ""):
        first = client.get(f"{url}?page={asked}").content.decode()
        assert "page 1 of 3" in first and _listed(first) == ["War 0", "War 1", "War 2"], asked


def test_a_club_without_campaigns_has_one_empty_page(club, people, client_for):
    page = client_for("carol").get(f"/clubs/{club.slug}/campaigns/?page=4")
    assert page.status_code == 200
    assert "0 campaigns, in play first, archived last." in page.content.decode()


def test_an_outsider_gets_no_page(wars, club, client_for):
    assert client_for("outsider").get(f"/clubs/{club.slug}/campaigns/").status_code == 404
