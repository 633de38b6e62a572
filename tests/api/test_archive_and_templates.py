"""Archiving through the API: an organizer archives a campaign nobody plays and restores it; the
list leaves it out unless asked (?archived=true); the campaign stays readable and exportable."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from campaigns.services import campaigns
from campaigns.services.journal import submit

from .conftest import post

pytestmark = pytest.mark.django_db


def finished(campaign, people):
    made = campaigns.finish_campaign(campaign, people["olga"], reason="Called off")
    submit(campaign, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    return campaign


def test_an_organizer_archives_and_restores_a_finished_campaign(
    skirmish, people, client_for, campaign_url
):
    finished(skirmish, people)
    olga = client_for("olga")
    assert olga.get(campaign_url()).json()["archived_at"] is None  # kept before archiving
    answer = post(olga, campaign_url("archive/"))
    assert answer.status_code == 200 and answer.json()["archived_at"]
    assert olga.get(campaign_url()).json()["archived_at"]  # the kept answer is not stale
    answer = post(olga, campaign_url("restore/"))
    assert answer.status_code == 200 and answer.json()["archived_at"] is None


def test_a_campaign_in_play_is_refused_with_the_reason(skirmish, client_for, campaign_url):
    answer = post(client_for("olga"), campaign_url("archive/"))
    assert answer.status_code == 400
    assert "end it first" in answer.json()["campaign"][0]


@pytest.mark.parametrize("who", ["alice", "bob", "rita", "carol"])
def test_a_player_or_a_non_organizer_cannot_archive_or_restore(
    skirmish, people, client_for, campaign_url, who
):
    finished(skirmish, people)
    assert post(client_for(who), campaign_url("archive/")).status_code == 403
    campaigns.archive_campaign(skirmish, people["olga"])
    assert post(client_for(who), campaign_url("restore/")).status_code == 403
    assert post(client_for("outsider"), campaign_url("restore/")).status_code == 404


def test_an_archived_campaign_is_listed_only_when_asked_and_stays_readable(
    skirmish, people, client_for, campaign_url
):
    finished(skirmish, people)
    campaigns.archive_campaign(skirmish, people["olga"])
    alice = client_for("alice")
    ids = [c["id"] for c in alice.get("/api/v1/campaigns/").json()["results"]]
    assert skirmish.pk not in ids
    archived = alice.get("/api/v1/campaigns/", {"archived": "true"}).json()["results"]
    assert [c["id"] for c in archived] == [skirmish.pk] and archived[0]["archived_at"]
    others = alice.get("/api/v1/campaigns/", {"archived": "false"}).json()["results"]
    assert skirmish.pk not in [c["id"] for c in others]
    for tail in ("", "state/", "events/", "scenarios/", "roster/", "export/"):
        assert alice.get(campaign_url(tail)).status_code == 200, tail
    assert alice.get(campaign_url("export/")).json()["events"]


# --- a campaign like a past one ----------------------------------------------------------------


def _past(club, people):
    olga = people["olga"]
    past = campaigns.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="Old war"
    )
    submit(past, olga, "house_rule.set", {"key": "supply:5:points", "value": 3, "note": "Ours"})
    campaigns.assign_player(past, olga, side="red", username="alice")
    campaigns.assign_player(past, olga, side="blue", username="bob")
    campaigns.assign_referee(past, olga, username="rita")
    return past


def test_the_template_prefills_and_creates_a_campaign_with_the_same_house_rules_and_seats(
    club, people, client_for
):
    past = _past(club, people)
    olga = client_for("olga")
    template = olga.get(f"/api/v1/campaigns/{past.pk}/again/").json()
    assert template["house_rules"] == [{"key": "supply:5:points", "value": 3, "note": "Ours"}]
    assert template["seats"] == [
        {"side": "red", "username": "alice"},
        {"side": "blue", "username": "bob"},
    ]
    assert template["referee"] == "rita" and template["variant"] == "short"
    answer = post(olga, f"/api/v1/campaigns/{past.pk}/again/", {"name": "New war"})
    assert answer.status_code == 201, answer.json()
    made = answer.json()
    assert made["status"] == "setup" and made["referee"] == "rita"
    assert {s["slug"]: s["players"] for s in made["sides"]} == {"red": ["alice"], "blue": ["bob"]}
    state = campaigns.current_state(Campaign.objects.get(pk=made["id"]))
    assert state["house_rules"]["supply:5:points"]["value"] == 3


def test_bad_input_is_a_400_with_field_errors_and_makes_nothing(club, people, client_for):
    past = _past(club, people)
    olga = client_for("olga")
    where = f"/api/v1/campaigns/{past.pk}/again/"
    assert "name" in post(olga, where, {}).json()
    answer = post(olga, where, {"name": "X", "house_rules": ["elr.max"]})
    assert answer.status_code == 400 and "house_rules" in answer.json()
    answer = post(olga, where, {"name": "X", "variant": "nope"})
    assert answer.status_code == 400 and "variant" in answer.json()
    answer = post(olga, where, {"name": "X", "seats": [{"side": "red", "username": "outsider"}]})
    assert answer.status_code == 400 and "username" in answer.json()
    assert not Campaign.objects.filter(name="X").exists()


@pytest.mark.parametrize("who", ["alice", "carol"])
def test_only_an_organizer_starts_a_campaign_like_another(club, people, client_for, who):
    past = _past(club, people)
    where = f"/api/v1/campaigns/{past.pk}/again/"
    assert client_for(who).get(where).status_code == 403
    assert post(client_for(who), where, {"name": "Mine"}).status_code == 403
    assert client_for("outsider").get(where).status_code == 404
