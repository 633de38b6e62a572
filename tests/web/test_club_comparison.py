"""The club page shows each game system's comparison of the club's campaigns (GameSystem.comparison_row),
for every member, with no private part of any side."""

from campaigns.services.journal import submit

from .conftest import text_of


def test_every_member_sees_the_comparison_table(skirmish, people, client_for):
    submit(skirmish, people["alice"], "skirmish.supply")
    for name in ("carol", "bob", "olga"):
        page = text_of(client_for(name).get(f"/clubs/{skirmish.club.slug}/"))
        assert "Skirmish (test system): the club's campaigns compared" in page
        assert "<th scope=\"col\">Red wins</th><th scope=\"col\">Blue wins</th>" in page
        assert "alice, bob, olga" in page and "none rolled yet" in page


def test_no_comparison_without_a_compared_campaign(club, people, client_for):
    page = text_of(client_for("carol").get(f"/clubs/{club.slug}/"))
    assert "campaigns compared" not in page
