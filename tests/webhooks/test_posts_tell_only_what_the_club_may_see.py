"""A club's webhooks hear of its public events (a campaign started, a result confirmed, a campaign
finished, a new member), each once, drawn only from the club's cut: a campaign whose sides buy
reinforcements in secret posts exactly what the same campaign without them posts, and no post
names what a side bought or rolled."""

from __future__ import annotations

import json

from campaigns.models import Invitation, WebhookDelivery
from campaigns.services import campaigns, clubs
from campaigns.services.journal import submit
from campaigns.webhooks import delivery, events

from .conftest import play_round, start_war


def _posts(hook, campaign):
    """Every post owed to `hook` about `campaign`, both shapes, its id made neutral."""
    rows = WebhookDelivery.objects.filter(webhook=hook).order_by("pk")
    out = []
    for row in rows:
        for shape in ("json", "discord"):
            text = json.dumps(events.body(row.event, row.event_key, shape), sort_keys=True)
            for was, now in (
                (f"campaigns/{campaign.pk}/", "campaigns/ID/"),
                (f"campaign/{campaign.pk}/", "campaign/ID/"),
                (f'"id": {campaign.pk},', '"id": "ID",'),
            ):
                text = text.replace(was, now)
            out.append(text)
    return out


def _campaign_with(club, people, *, secret_buys):
    campaign = start_war(club, people)
    play_round(campaign, people, secret_buys=secret_buys)
    made = campaigns.finish_campaign(campaign, people["olga"], reason="Called off")
    submit(campaign, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    return campaign


def test_the_public_events_are_owed_once_each_in_order(hook, people, club):
    campaign = _campaign_with(club, people, secret_buys=False)
    rows = list(WebhookDelivery.objects.filter(webhook=hook).order_by("pk"))
    assert [r.event_key for r in rows] == [
        f"campaign/{campaign.pk}/started",
        f"campaign/{campaign.pk}/scenario/0/result",
        f"campaign/{campaign.pk}/finished",
    ]
    words = [r.event["words"] for r in rows]
    assert words[0] == "Test war has started: Red against Blue"
    assert words[1].startswith("Test war: the result of ")
    assert " is confirmed" in words[1]
    assert words[2].startswith("Test war is finished")
    assert rows[1].event["campaign"]["sides"] == ["Red", "Blue"]


def test_a_campaign_with_secret_purchases_posts_exactly_what_one_without_them_posts(
    hook, people, club
):
    plain = _campaign_with(club, people, secret_buys=False)
    plain_posts = _posts(hook, plain)
    WebhookDelivery.objects.all().delete()
    secret = _campaign_with(club, people, secret_buys=True)
    secret_posts = _posts(hook, secret)
    assert secret_posts == plain_posts
    every = " ".join(secret_posts).lower()
    for word in ("bought", "supply", "rolls", "reinforce"):
        assert word not in every


def test_the_posts_are_built_from_the_club_members_view_only(hook, people, club, monkeypatch):
    seen = []
    real = events.view_state
    monkeypatch.setattr(
        events, "view_state", lambda state, viewer: seen.append(viewer) or real(state, viewer)
    )
    _campaign_with(club, people, secret_buys=True)
    assert seen
    assert all(v.member and not v.referee and not v.sides and not v.playing for v in seen)


def test_a_new_member_is_told_once(hook, people, club, receiver):
    invitation = Invitation.objects.create(club=club, created_by=people["olga"])
    membership = clubs.accept_invitation(code=invitation.code, user=people["outsider"])
    again = Invitation.objects.create(club=club, created_by=people["olga"])
    clubs.accept_invitation(code=again.code, user=people["outsider"])  # a member already
    rows = WebhookDelivery.objects.filter(webhook=hook)
    assert [r.event["words"] for r in rows] == ["outsider joined Tuesday Night ASL"]
    assert rows[0].event_key == f"member/{club.pk}/{membership.user_id}"
    assert delivery.deliver_due(hook.pk) == 1
    assert receiver.json()["event"] == "club.member"
