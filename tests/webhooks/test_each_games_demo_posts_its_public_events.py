"""Each game's demo, walked with a webhook on its club: the campaign's start, each confirmed result
and its end are owed once each, in words the game gives its timeline (never a failure to word a
result), and nothing else."""

from __future__ import annotations

import logging

import pytest

from campaigns.models import Webhook, WebhookDelivery
from campaigns.services import demo
from campaigns.systems import all_systems

# the games that ship (the test suite's own Skirmish system has no demo to walk)
GAMES = sorted(
    slug for slug, game in all_systems().items() if type(game).__module__.startswith("campaigns.")
)


@pytest.mark.parametrize("slug", GAMES)
def test_the_demo_owes_its_public_events_once_each_in_words(slug, db, caplog):
    users = {key: demo._demo_user(name) for key, (name, _) in demo.PEOPLE.items()}
    club = demo._demo_club(users)
    hook = Webhook.objects.create(club=club, url="https://93.184.215.14/hook")
    system = all_systems()[slug]
    table = demo.DemoTable(club, users, system)
    with caplog.at_level(logging.ERROR, logger="campaigns.webhooks.events"):
        system.demo(table)
    assert table.campaign is not None, f"{system.name} made no demo campaign"
    assert not caplog.records
    rows = list(WebhookDelivery.objects.filter(webhook=hook).order_by("pk"))
    keys = [row.event_key for row in rows]
    assert len(keys) == len(set(keys))
    played = table.campaign.scenarios.filter(status="played").count()
    results = [row for row in rows if row.event["kind"] == "scenario.result"]
    assert len(results) == played
    assert all(row.event["words"] and "{" not in row.event["words"] for row in rows)
    if table.campaign.status != "setup":
        assert rows[0].event["kind"] == "campaign.started"
