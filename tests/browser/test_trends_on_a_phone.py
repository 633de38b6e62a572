"""Trends on a 390 px phone: an A!P! player's campaign page draws its charts with every label
inside the picture and nothing scrolling sideways, the numbers open in a table, its own CPP and
never the other side's; the club page draws the standings across campaigns the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.pagechecks import problems
from tests.browser.session import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

CORPUS = (
    Path(__file__).parents[2]
    / "campaigns/systems/achtung_panzer/journals/c548a25-achtung-panzer-v5/ap-cg2-table.json"
)


def _check(page):
    found = problems(page)
    assert not found, f"{page.url}: " + "; ".join(found[:12])


def test_a_player_reads_the_trends_and_the_club_standings_on_a_phone(phone, screenshot):
    from campaigns.services import journal_files

    document = json.loads(CORPUS.read_text())
    campaign = journal_files.replay_journal(document, create_club=True, create_people=True).campaign
    from django.contrib.auth import get_user_model

    bob = get_user_model().objects.get(username="bob")
    bob.set_password(PASSWORD)  # people made by the replay have no password
    bob.save()
    log_in(phone, "bob")
    phone.goto(f"/campaigns/{campaign.pk}/")
    trends = phone.locator("section", has=phone.locator("#trends-h"))
    expect(trends.locator("figure.trend-chart")).to_have_count(3)
    for summary in trends.locator("details > summary").all():
        summary.click()
    expect(trends.locator("table.trend-numbers").first).to_be_visible()
    _check(phone)  # labels inside each picture, nothing sideways, tables whole
    text = trends.inner_text()
    assert "German CPP left" in text and "Allied CPP" not in text
    screenshot(phone, "trends-ap", "section:has(#trends-h)")
    phone.goto(f"/clubs/{campaign.club.slug}/")
    standings = phone.locator("section", has=phone.locator("#stand-h"))
    expect(standings.locator("figure.trend-chart svg")).to_be_visible()
    _check(phone)
    screenshot(phone, "club-standings", "section:has(#stand-h)")
