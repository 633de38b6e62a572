"""The club page's standings across campaigns: each campaign's standing per side in words (the
game's own: A!P!'s win:loss, objective points and CVP), its result so far, and the wins of each
side added up date by date as a chart, drawn from what any member may see."""

import pytest

from campaigns import charts
from campaigns.selectors.club_standings import club_standings
from campaigns.systems.achtung_panzer.tests.test_system_secrecy import _war
from campaigns.systems.fab_bulge.tests.test_fab_bulge import fab

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club, people):
    """An A!P! campaign with its first half-day's result confirmed, and an FAB game the German won
    by sudden death (its turns as tests of the game play them)."""
    war = _war(club, people, False, "Stonne")
    game = fab(club, people)
    for label, held, units in (
        ("Turn 1", {"23": "Gs"}, []),
        ("Turn 2", {}, [("US 106 ID", "eliminated")]),
        ("Turn 3", {"33": "Gs"}, [("62 VG", "eliminated")]),
        ("Turn 4", {"47": "G"}, []),
        ("Turn 5", {}, [("US 1 ID", "eliminated")]),
    ):
        game.turn(label, held, units)
    assert game.state["winner"] == "german"
    return war, game


def test_the_club_s_standings_hold_each_campaign_and_the_wins_over_time(club, played):
    war, game = played
    half_day = war.public["roster"][0]
    assert half_day["winner"] in ("allied", "german")
    found = club_standings(list(club.campaigns.all()))
    rows = {campaign.name: (sides, result) for campaign, sides, result in found.rows}
    sides, result = rows["Stonne"]
    assert result == "in play"
    assert [name for name, _ in sides] == ["Allied", "German"]
    assert all("Win:loss" in words and "CVP sustained" in words for _, words in sides)
    assert rows[game.campaign.name][1] == "won by German"
    chart = found.chart
    assert chart is not None and charts.has_data(chart)
    totals = {s["name"]: s["values"][-1] for s in chart["series"]}
    winner = {"allied": "Allied", "german": "German"}[half_day["winner"]]
    expected = {"Allied wins": 0, "German wins": 1}  # the FAB game; every side, none left out
    expected[f"{winner} wins"] = expected.get(f"{winner} wins", 0) + 1  # the half-day
    assert totals == expected
    # the table a screen reader reads holds the same numbers
    last = charts.table(chart)["rows"][-1]["cells"]
    assert last == [str(totals[s["name"]]) for s in chart["series"]]


def test_the_club_page_shows_the_standings_chart_and_its_numbers(club, people, played, client):
    client.force_login(people["carol"])
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    section = html[html.index('id="stand-h"') :]
    assert "Standings across the club&#x27;s campaigns" in html or "Standings across" in html
    assert "<svg" in section and "Wins across the club" in section
    assert "in numbers</summary>" in section and "won by German" in section


def test_the_chart_of_wins_reads_again_only_the_campaigns_that_moved(
    club, people, played, monkeypatch
):
    from campaigns.models import Campaign
    from campaigns.selectors import club_standings as standings
    from campaigns.services.journal import submit
    from tests.web.wars import skirmish_war

    north = skirmish_war(club, people, "North")
    every = club_standings(list(club.campaigns.all())).chart
    assert standings.wins_chart(list(club.campaigns.all())) == every  # drawn, each part kept
    read: list[set[str]] = []
    drawn = standings.current_states
    monkeypatch.setattr(
        standings,
        "current_states",
        lambda campaigns: read.append({c.name for c in campaigns}) or drawn(campaigns),
    )
    assert standings.wins_chart(list(club.campaigns.all())) == every and read == []
    submit(north, people["bob"], "skirmish.supply", {}, side="blue")  # a side's secret roll
    assert standings.wins_chart(list(Campaign.objects.filter(club=club))) == every
    assert read == []  # no club position moved: nothing read again
    submit(north, people["alice"], "skirmish.supply", {}, side="red")  # both: a public stance
    assert standings.wins_chart(list(Campaign.objects.filter(club=club))) == every
    assert read == [{"North"}]
