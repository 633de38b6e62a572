"""Archiving, from the pages: an organizer takes a campaign nobody plays out of the lists and
brings it back; a player cannot; an archived campaign stays readable and exportable and takes
no new events. (Starting a campaign like a past one: below.)"""

from __future__ import annotations

import json

import pytest

from campaigns.models import Campaign, ClubLogEntry
from campaigns.services import campaigns
from campaigns.services.journal import submit

pytestmark = pytest.mark.django_db


def finished(campaign, people):
    """Ended as the seat rules ask: the organizer (who plays red) proposes, the referee agrees."""
    made = campaigns.finish_campaign(campaign, people["olga"], reason="Called off")
    submit(campaign, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    campaign.refresh_from_db()
    assert campaign.status == Campaign.FINISHED
    return campaign


def url(campaign, tail=""):
    return f"/campaigns/{campaign.pk}/{tail}"


def test_an_organizer_archives_a_finished_campaign_and_restores_it(skirmish, people, client_for):
    finished(skirmish, people)
    olga = client_for("olga")
    page = olga.get(url(skirmish)).content.decode()
    assert "Archive this campaign" in page and url(skirmish, "archive/") in page
    answer = olga.post(url(skirmish, "archive/"))
    assert answer.status_code == 302 and answer["Location"] == url(skirmish)
    skirmish.refresh_from_db()
    assert skirmish.archived_at is not None and skirmish.archived_by == people["olga"]
    page = olga.get(url(skirmish)).content.decode()
    assert "was archived on" in page and "Restore it to the lists" in page
    assert olga.post(url(skirmish, "restore/")).status_code == 302
    skirmish.refresh_from_db()
    assert skirmish.archived_at is None and skirmish.archived_by is None
    logged = list(ClubLogEntry.objects.filter(club=skirmish.club).values_list("action", flat=True))
    assert logged[:2] == ["campaign.restored", "campaign.archived"]
    club = olga.get(f"/clubs/{skirmish.club.slug}/").content.decode()
    assert "restored the campaign" in club and "archived the campaign" in club


def test_an_abandoned_campaign_never_started_can_be_archived(club, people, client_for):
    campaign = campaigns.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="short", name="Never played"
    )
    assert client_for("olga").post(url(campaign, "archive/")).status_code == 302
    campaign.refresh_from_db()
    assert campaign.archived_at is not None


def test_a_campaign_in_play_is_not_archived_and_the_organizer_is_told_why(skirmish, client_for):
    answer = client_for("olga").post(url(skirmish, "archive/"))
    assert answer.status_code == 400
    assert "A campaign being played cannot be archived: end it first" in answer.content.decode()
    skirmish.refresh_from_db()
    assert skirmish.archived_at is None
    assert "Archive this campaign" not in client_for("olga").get(url(skirmish)).content.decode()


@pytest.mark.parametrize("who", ["alice", "bob", "rita", "carol"])
def test_a_player_or_a_member_who_is_no_organizer_cannot_archive_or_restore(
    skirmish, people, client_for, who
):
    finished(skirmish, people)
    client = client_for(who)
    assert "Archive this campaign" not in client.get(url(skirmish)).content.decode()
    assert client.post(url(skirmish, "archive/")).status_code == 403
    campaigns.archive_campaign(skirmish, people["olga"])
    assert "Restore it to the lists" not in client.get(url(skirmish)).content.decode()
    assert client.post(url(skirmish, "restore/")).status_code == 403
    skirmish.refresh_from_db()
    assert skirmish.archived_at is not None


def test_a_stranger_learns_nothing_of_an_archived_campaign(skirmish, people, client_for):
    finished(skirmish, people)
    campaigns.archive_campaign(skirmish, people["olga"])
    assert client_for("outsider").post(url(skirmish, "restore/")).status_code == 404
    assert client_for("outsider").get(url(skirmish)).status_code == 404


def test_an_archived_campaign_leaves_the_lists_but_stays_readable_and_exportable(
    skirmish, people, client_for
):
    finished(skirmish, people)
    campaigns.archive_campaign(skirmish, people["olga"])
    alice = client_for("alice")
    dashboard = alice.get("/").content.decode()
    assert url(skirmish) not in dashboard
    club = alice.get(f"/clubs/{skirmish.club.slug}/").content.decode()
    listed = club.split('id="camp-h"')[1].split("</section>")[0]
    assert url(skirmish) not in listed and "No campaigns yet." in listed
    archived_section = club.split('id="archived"')[1].split("</section>")[0]
    assert url(skirmish) in archived_section and "Restore" not in archived_section
    organizers = client_for("olga").get(f"/clubs/{skirmish.club.slug}/").content.decode()
    assert "Restore Test war" in organizers
    assert alice.get(url(skirmish)).status_code == 200
    assert alice.get(url(skirmish, "scenarios/")).status_code == 200
    assert alice.get(url(skirmish, "history/")).status_code == 200
    assert alice.get(url(skirmish, "sheets/summary/print/")).status_code == 200
    export = alice.get(url(skirmish, "export/"))
    assert export.status_code == 200 and json.loads(export.content)["events"]


def test_an_archived_campaign_takes_no_new_event_until_it_is_restored(skirmish, people, client_for):
    campaign = campaigns.create_campaign(
        club=skirmish.club, user=people["olga"], system="skirmish", variant="short", name="Later"
    )
    campaigns.archive_campaign(campaign, people["olga"])
    answer = client_for("olga").post(
        url(campaign, "setup/players/"), {"side": "red", "username": "alice"}
    )
    assert answer.status_code == 400
    assert "archived: an organizer restores it first" in answer.content.decode()
    campaigns.restore_campaign(campaign, people["olga"])
    answer = client_for("olga").post(
        url(campaign, "setup/players/"), {"side": "red", "username": "alice"}
    )
    assert answer.status_code == 302


# --- a campaign like a past one ----------------------------------------------------------------


def _past(club, people):
    """A past campaign: house rule, two players, a referee; finished and archived."""
    olga = people["olga"]
    past = campaigns.create_campaign(
        club=club,
        user=olga,
        system="skirmish",
        variant="short",
        name="Old war",
        options={"starting_supply": 4},
    )
    submit(past, olga, "house_rule.set", {"key": "supply:5:points", "value": 3, "note": "Ours"})
    campaigns.assign_player(past, olga, side="red", username="alice")
    campaigns.assign_player(past, olga, side="blue", username="bob")
    campaigns.assign_referee(past, olga, username="rita")
    campaigns.finish_campaign(past, olga, reason="Never played")
    campaigns.archive_campaign(past, olga)
    return past


def test_the_template_prefills_and_creates_a_campaign_with_the_same_house_rules_and_seats(
    club, people, client_for
):
    past = _past(club, people)
    olga = client_for("olga")
    assert url(past, "again/") in olga.get(url(past)).content.decode()
    form = olga.get(url(past, "again/")).content.decode()
    assert 'value="Old war (again)"' in form and 'value="4"' in form
    assert 'value="supply:5:points" id="id_house_rules_0" checked' in form
    assert "alice plays Red" in form and "bob plays Blue" in form
    assert '<option value="rita" selected>' in form
    answer = olga.post(
        url(past, "again/"),
        {
            "name": "New war",
            "variant": "short",
            "starting_supply": "4",
            "dice_mode": "server",
            "house_rules": ["supply:5:points"],
            "seats": ["red:alice", "blue:bob"],
            "referee": "rita",
        },
    )
    assert answer.status_code == 302
    made = Campaign.objects.get(name="New war")
    assert answer["Location"] == url(made, "setup/")
    state = campaigns.current_state(made)
    assert state["house_rules"]["supply:5:points"]["value"] == 3
    assert state["options"]["starting_supply"] == 4
    assert {s: side["players"] for s, side in state["sides"].items()} == {
        "red": ["alice"],
        "blue": ["bob"],
    }
    assert state["referee"] == "rita" and made.status == Campaign.SETUP
    kinds = list(made.events.order_by("seq").values_list("kind", flat=True))
    assert kinds == [
        "campaign.created",
        "house_rule.set",
        "player.assigned",
        "player.assigned",
        "referee.assigned",
    ]  # the normal paths, each written to the journal


def test_the_template_is_editable_before_the_campaign_is_made(club, people, client_for):
    past = _past(club, people)
    answer = client_for("olga").post(
        url(past, "again/"),
        {"name": "Smaller war", "variant": "duel", "seats": ["blue:bob"], "referee": ""},
    )
    assert answer.status_code == 302
    state = campaigns.current_state(Campaign.objects.get(name="Smaller war"))
    assert state["variant"] == "duel" and state["house_rules"] == {}
    assert state["sides"]["red"]["players"] == [] and state["sides"]["blue"]["players"] == ["bob"]
    assert state["referee"] is None


def test_a_refused_seat_makes_nothing_and_says_why(club, people, client_for):
    past = _past(club, people)
    answer = client_for("olga").post(
        url(past, "again/"),
        {"name": "Odd war", "variant": "short", "seats": ["red:rita"], "referee": "rita"},
    )
    assert answer.status_code == 400
    assert not Campaign.objects.filter(name="Odd war").exists()


@pytest.mark.parametrize("who", ["alice", "carol"])
def test_only_an_organizer_starts_a_campaign_like_another(club, people, client_for, who):
    past = _past(club, people)
    assert client_for(who).get(url(past, "again/")).status_code == 403
    assert client_for(who).post(url(past, "again/"), {"name": "Mine"}).status_code == 403
    assert "Start a campaign like this one" not in client_for(who).get(url(past)).content.decode()
    assert client_for("outsider").get(url(past, "again/")).status_code == 404
