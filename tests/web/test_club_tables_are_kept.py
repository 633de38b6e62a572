"""The club page's tables across campaigns (standings, comparisons, whom each waits for) are kept
per club position: drawn once, read again without reading the campaigns' states, drawn anew the
moment a campaign's public cut moves, and never moved by a side's hidden step."""

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign
from campaigns.selectors import club_tables
from campaigns.services.journal import submit
from tests.web.wars import skirmish_war


def _page(client, club):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(f"/clubs/{club.slug}/")
    assert answer.status_code == 200
    # Every render has its own CSRF token: the rest is compared.
    return re.sub(r"[A-Za-z0-9]{64}", "", answer.content.decode()), len(queries)


def _key(club):
    return club_tables.key(club.pk, list(Campaign.objects.filter(club=club)))


def test_the_tables_are_drawn_once_and_read_again_without_the_states(
    club, people, client_for, monkeypatch
):
    for name in ("North", "South", "East"):
        skirmish_war(club, people, name)
    client = client_for("carol")
    first, _ = _page(client, club)
    states_read = []
    for module in ("club_standings", "clubs", "waiting"):
        monkeypatch.setattr(
            f"campaigns.selectors.{module}.current_states",
            lambda campaigns: states_read.append(campaigns) or {},
        )
    again, _ = _page(client, club)
    assert again == first and states_read == []


def test_a_public_move_draws_them_anew_and_a_hidden_step_moves_nothing(club, people, client_for):
    north = skirmish_war(club, people, "North")
    client = client_for("carol")
    _page(client, club)
    before = _key(club)
    assert before is not None

    submit(north, people["bob"], "skirmish.supply", {}, side="blue")  # blue's secret roll
    assert _key(club) == before
    submit(north, people["alice"], "skirmish.supply", {}, side="red")
    # Both rolled: the stance is now chosen by both sides, which any member may read.
    assert _key(club) != before
    page, _ = _page(client, club)
    assert "Stance" in page
