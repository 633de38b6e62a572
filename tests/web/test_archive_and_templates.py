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
