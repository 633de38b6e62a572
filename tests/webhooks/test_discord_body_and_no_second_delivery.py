"""The Discord shape is a message Discord accepts (`content`: one line, the sentence and the link,
nobody mentioned); a write retried, a projection refreshed again, a task run twice, post nothing
twice (one row per webhook and event)."""

from __future__ import annotations

from campaigns.models import Webhook, WebhookDelivery
from campaigns.services.journal import submit
from campaigns.services.state import current_state
from campaigns.webhooks import delivery, outbox
from campaigns.webhooks.organizer import send_test

from .conftest import start_war


def test_a_discord_webhook_gets_a_one_line_content_and_nothing_it_would_refuse(
    hook, receiver, people, club
):
    Webhook.objects.filter(pk=hook.pk).update(format=Webhook.DISCORD)
    campaign = start_war(club, people, name="@everyone Kursk")
    delivery.deliver_due(hook.pk)
    body = receiver.json()
    assert set(body) == {"content", "allowed_mentions"}
    assert body["allowed_mentions"] == {"parse": []}  # a name saying @everyone pings nobody
    content = body["content"]
    assert "\n" not in content and 0 < len(content) <= 2000
    assert content == (
        f"@everyone Kursk has started: Red against Blue <http://127.0.0.1:8000/campaigns/{campaign.pk}/>"
    )


def test_a_plain_json_webhook_gets_the_event_and_its_fields(hook, receiver, people, club):
    campaign = start_war(club, people)
    delivery.deliver_due(hook.pk)
    body = receiver.json()
    assert body["event"] == "campaign.started"
    assert body["id"] == f"campaign/{campaign.pk}/started"
    assert body["text"] == "Test war has started: Red against Blue"
    assert body["campaign"]["name"] == "Test war"
    assert body["club"] == {"name": "Tuesday Night ASL", "slug": "tuesday"}
    assert receiver.posts[0]["headers"]["Content-Type"] == "application/json"


def test_a_retried_write_makes_no_second_delivery(hook, receiver, people, club):
    campaign = start_war(club, people)
    submit(campaign, people["alice"], "skirmish.supply", idempotency_key="s1")
    again = submit(campaign, people["alice"], "skirmish.supply", idempotency_key="s1")
    assert again.replayed
    # The same change's rows written again (a projection refreshed twice): nothing more owed.
    outbox.note_campaign(campaign, current_state(campaign), was="setup", played=[])
    assert WebhookDelivery.objects.filter(webhook=hook).count() == 1
    delivery.deliver_due(hook.pk)
    delivery.deliver_due(hook.pk)  # the task run twice
    assert len(receiver.posts) == 1


def test_a_campaign_of_another_club_tells_this_club_nothing(hook, people, club):
    from tests.factories import ClubFactory, MembershipFactory

    other = ClubFactory(name="Elsewhere", slug="elsewhere")
    for name in ("olga", "alice", "bob", "rita"):
        MembershipFactory(
            club=other, user=people[name], role="organizer" if name == "olga" else "player"
        )
    start_war(other, people)
    assert not WebhookDelivery.objects.exists()


def test_a_test_post_is_delivered_and_logged(hook, receiver, people):
    send_test(user=people["olga"], webhook=hook)
    assert delivery.deliver_due(hook.pk) == 1
    assert receiver.json()["text"] == "A test from Muster: Tuesday Night ASL's webhook works"
