"""Page weight of a ledger late in a long game: Ardennes '44's Campaign Game (S1, 32 turns) with
the book's set-up, every turn but the last recorded (each side in turn, confirmed by the other),
and every seat's pages weighed: each side's player, the referee, the organizer (who plays no
side) and a member playing nothing; the campaign page, the page again with each form it links
to opened (``?do=``), the history and the scenarios. Budget: ≤ 100 KB of HTML and ≤ 2,000
elements, as A!P!'s (campaigns/systems/achtung_panzer/tests/test_page_weight.py): the charts
and the turn table grow with the turns recorded."""

from __future__ import annotations

import os
import re

import pytest
from django.test import Client

from campaigns.systems.achtung_panzer.tests.test_page_weight import BYTES, ELEMENTS, weigh
from campaigns.systems.victory_ledger.tests.harness import Game

pytestmark = pytest.mark.django_db
SEATS = ("alice", "bob", "rita", "olga", "carol")


def test_a_long_ledger_stays_within_the_page_budget_at_every_seat(club, people):
    game = Game(club, people, "ardennes44", "s1")
    game.setup()
    labels = [turn["label"] for turn in game.pub["turns"]]
    for index, label in enumerate(labels[:-1]):
        # Bastogne changes hands now and then, so that the charts have lines that move.
        holder = "Gs" if index % 4 < 2 else "As"
        game.turn(label, {"Bastogne-1": holder}, side=(game.first, game.second)[index % 2])
        assert game.state["status"] == "active", f"the game ended at {label}"
    base = f"/campaigns/{game.campaign.pk}/"
    weights = {}
    for name in SEATS:
        client = Client(raise_request_exception=True)
        client.force_login(people[name])
        page = client.get(base).content.decode()
        urls = [base, base + "history/", base + "scenarios/"]
        urls += [base + "?do=" + do for do in dict.fromkeys(re.findall(r'\?do=(\w+)', page))]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (name, url)
            weights[(name, url)] = weigh(response.content)
            if os.environ.get("MUSTER_PAGE_WEIGHT_DUMP"):
                where = os.environ["MUSTER_PAGE_WEIGHT_DUMP"]
                with open(f"{where}/{name}{url.replace('/', '_')}.html", "wb") as dump:
                    dump.write(response.content)
    if os.environ.get("MUSTER_PAGE_WEIGHT"):
        with open(os.environ["MUSTER_PAGE_WEIGHT"], "w") as out:
            for (name, url), (size, elements) in sorted(weights.items()):
                out.write(f"{size / 1000:7.1f} KB {elements:6} elements  {name:6} {url}\n")
    over = [
        f"{name} {url}: {size / 1000:.1f} KB, {elements} elements"
        for (name, url), (size, elements) in sorted(weights.items())
        if size > BYTES or elements > ELEMENTS
    ]
    assert not over, "\n".join(over)
    assert len(labels) >= 30 and any("?do=" in url for _, url in weights)
