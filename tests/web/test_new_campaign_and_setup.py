"""Creating a campaign (system, variant, options, dice mode) and the setup page."""

import pytest

from campaigns.models import Campaign, Event
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit
from campaigns.services.state import current_state

from .conftest import text_of


def test_the_organizer_chooses_a_system(club, people, client_for):
    page = text_of(client_for("olga").get("/clubs/tuesday/campaigns/new/"))
    assert "Skirmish (test system)" in page and "/clubs/tuesday/campaigns/new/skirmish/" in page
    assert client_for("olga").get("/clubs/tuesday/campaigns/new/nothing/").status_code == 404


def test_the_form_shows_variants_options_and_dice_mode(club, people, client_for):
    page = text_of(client_for("olga").get("/clubs/tuesday/campaigns/new/skirmish/"))
    assert 'name="variant"' in page and "Short campaign" in page and "One round" in page
    assert (
        'name="starting_supply"' in page
        and 'name="dice_mode"' in page
        and 'value="entered"' in page
    )


def test_creating_a_campaign(club, people, client_for):
    response = client_for("olga").post(
        "/clubs/tuesday/campaigns/new/skirmish/",
        {"name": "Spring war", "variant": "duel", "starting_supply": "4", "dice_mode": "entered"},
    )
    campaign = Campaign.objects.get(name="Spring war")
    assert (
        response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/setup/"
    )
    state = current_state(campaign)
    assert state["variant"] == "duel" and state["options"] == {
        "dice_mode": "entered",
        "starting_supply": 4,
    }


@pytest.mark.parametrize(
    "data,error",
    [
        (
            {"name": "War", "variant": "duel", "starting_supply": "11"},
            "Ensure this value is less than or equal to 10.",
        ),
        ({"name": "War", "variant": "long"}, "Select a valid choice."),
        ({"name": "", "variant": "duel"}, "This field is required."),
        ({"name": "War", "variant": "duel", "dice_mode": "psychic"}, "Select a valid choice."),
    ],
)
def test_bad_campaign_forms_write_nothing(club, people, client_for, data, error):
    response = client_for("olga").post("/clubs/tuesday/campaigns/new/skirmish/", data)
    assert response.status_code == 400 and error in text_of(response)
    assert not Campaign.objects.exists() and not Event.objects.exists()


def test_players_cannot_create_campaigns(club, people, client_for):
    response = client_for("alice").post(
        "/clubs/tuesday/campaigns/new/skirmish/", {"name": "W", "variant": "duel"}
    )
    assert response.status_code == 403 and not Campaign.objects.exists()


@pytest.fixture
def fresh(club, people):
    return svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Fresh"
    )


def setup_url(campaign, tail=""):
    return f"/campaigns/{campaign.pk}/setup/{tail}"


def test_setting_up_sides_referee_and_starting(fresh, client_for):
    olga = client_for("olga")
    empty_start = olga.post(setup_url(fresh, "start/"), {"confirm": "yes"})
    assert (
        empty_start.status_code == 400
        and "Every side needs a player first: Red, Blue." in text_of(empty_start)
    )
    assert (
        olga.post(setup_url(fresh, "players/"), {"side": "red", "username": "alice"}).status_code
        == 302
    )
    assert (
        olga.post(setup_url(fresh, "players/"), {"side": "blue", "username": "bob"}).status_code
        == 302
    )
    twice = olga.post(setup_url(fresh, "players/"), {"side": "blue", "username": "alice"})
    assert twice.status_code == 400 and "alice already plays Red." in text_of(twice)
    assert olga.post(setup_url(fresh, "referee/"), {"username": "rita"}).status_code == 302
    page = text_of(olga.get(setup_url(fresh)))
    assert "alice" in page and "Set referee" in page
    asked = olga.post(setup_url(fresh, "start/"))  # first the organizer sees what is about to start
    assert (
        asked.status_code == 200
        and "Start Fresh?" in text_of(asked)
        and "Referee: rita" in text_of(asked)
    )
    assert current_state(fresh)["status"] == "setup"
    started = olga.post(setup_url(fresh, "start/"), {"confirm": "yes"})
    assert started.status_code == 302 and started["Location"] == f"/campaigns/{fresh.pk}/"
    state = current_state(fresh)
    assert state["status"] == "active" and state["referee"] == "rita"
    assert state["sides"]["red"]["players"] == ["alice"]


def test_house_rules_are_picked_table_row_column_and_show_the_book_value(fresh, client_for):
    olga = client_for("olga")
    page = text_of(olga.get(setup_url(fresh)))
    assert '<option value="constants">' in page and '<option value="supply">' in page
    assert "supply:5:points" not in page  # no list of every cell, no key to type
    constants = text_of(olga.get(setup_url(fresh) + "?rule_table=constants"))
    assert '<option value="buy.max_per_round">' in constants
    table = text_of(olga.get(setup_url(fresh) + "?rule_table=supply"))
    assert '<option value="5">5</option>' in table and '<option value="points">' in table
    response = olga.post(
        setup_url(fresh, "house-rules/"),
        {"rule_table": "supply", "row": "5", "column": "points", "value": "3", "note": "generous"},
    )
    assert response.status_code == 302
    assert current_state(fresh)["house_rules"]["supply:5:points"] == {
        "value": 3,
        "book": 2,
        "note": "generous",
        "seq": 2,
    }
    page = text_of(olga.get(setup_url(fresh)))
    assert "<strong>3</strong>" in page and "(book: 2)" in page
    campaign_page = text_of(client_for("carol").get(f"/campaigns/{fresh.pk}/"))
    assert "supply:5:points" not in campaign_page and "<strong>3</strong>" in campaign_page
    assert "(book: 2)" in campaign_page


@pytest.mark.parametrize(
    "data,error",
    [
        ({"key": "supply:9:points", "value": "3"}, "names no table cell"),
        (
            {"key": "supply:5:points", "value": "lots"},
            "Must be a whole number like the book value (2).",
        ),
        ({"key": "", "value": "3"}, "Choose the value to change."),
    ],
)
def test_bad_house_rules_write_nothing(fresh, client_for, data, error):
    before = Event.objects.count()
    response = client_for("olga").post(setup_url(fresh, "house-rules/"), data)
    assert response.status_code == 400 and error in text_of(response)
    assert Event.objects.count() == before


def test_replacing_a_player_in_a_running_campaign_and_ending_it(skirmish, client_for, people):
    olga = client_for("olga")
    assert "Replace a player in the running campaign" in text_of(olga.get(setup_url(skirmish)))
    response = olga.post(
        setup_url(skirmish, "players/replace/"), {"side": "blue", "old": "bob", "new": "carol"}
    )
    assert response.status_code == 302
    # olga plays red: blue's agreement, here the referee's.
    assert current_state(skirmish)["sides"]["blue"]["players"] == ["bob"]
    (proposal,) = current_state(skirmish)["proposals"].values()
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": proposal["uid"]})
    assert current_state(skirmish)["sides"]["blue"]["players"] == ["carol"]
    wrong = olga.post(
        setup_url(skirmish, "players/replace/"), {"side": "blue", "old": "bob", "new": "alice"}
    )
    assert wrong.status_code == 400
    no_reason = olga.post(setup_url(skirmish, "finish/"), {"reason": ""})
    assert no_reason.status_code == 400 and current_state(skirmish)["status"] == "active"
    # olga plays red: ending it is her proposal, which blue (now carol) agrees to.
    assert olga.post(setup_url(skirmish, "finish/"), {"reason": "Club closed"}).status_code == 302
    assert current_state(skirmish)["status"] == "active"
    (ending,) = [
        p for p in current_state(skirmish)["proposals"].values() if p["status"] == "pending"
    ]
    submit(skirmish, people["carol"], "proposal.approved", {"proposal": ending["uid"]})
    page = text_of(client_for("carol").get(f"/campaigns/{skirmish.pk}/"))
    assert "The campaign has ended" in page and "Club closed" in page


def test_a_late_house_rule_must_be_proposed(skirmish, client_for):
    response = client_for("olga").post(
        setup_url(skirmish, "house-rules/"), {"key": "buy.max_per_round", "value": "3"}
    )
    assert response.status_code == 400 and "needs every side" in text_of(response)
    assert (
        "buy.max_per_round" not in current_state(skirmish)["house_rules"]
    )  # proposing: test_campaign_play
