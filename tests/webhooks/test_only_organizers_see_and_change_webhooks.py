"""The webhooks page is an organizer's: a player of the club gets 403 on every page and action, a
stranger 404, nobody signed in the sign-in page; nothing changes for them. An organizer adds a
webhook and sees its secret once, makes a new one, sends a test, changes and removes it."""

from __future__ import annotations

import pytest

from campaigns.models import Webhook, WebhookDelivery


def _urls(club, hook):
    base = f"/clubs/{club.slug}/webhooks/"
    return [
        ("get", base, {}),
        ("post", base, {"new-url": "https://example.org/x", "new-format": "json"}),
        (
            "post",
            f"{base}{hook.pk}/",
            {f"w{hook.pk}-url": "https://example.org/y", f"w{hook.pk}-format": "discord"},
        ),
        ("post", f"{base}{hook.pk}/remove/", {}),
        ("post", f"{base}{hook.pk}/secret/", {}),
        ("post", f"{base}{hook.pk}/test/", {}),
        ("post", f"{base}{hook.pk}/deliveries/1/again/", {}),
    ]


@pytest.mark.parametrize(("who", "status"), [("carol", 403), ("alice", 403), ("outsider", 404)])
def test_a_non_organizer_can_neither_see_nor_change_webhooks(hook, client_for, club, who, status):
    client = client_for(who)
    before = list(Webhook.objects.values())
    for method, url, data in _urls(club, hook):
        answer = getattr(client, method)(url, data)
        assert answer.status_code == status, (method, url)
        assert hook.secret not in answer.content.decode()
        assert hook.url not in answer.content.decode()
    assert list(Webhook.objects.values()) == before
    assert not WebhookDelivery.objects.exists()


def test_nobody_signed_in_is_sent_to_sign_in(hook, client_for, club):
    answer = client_for("anonymous").get(f"/clubs/{club.slug}/webhooks/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_the_club_page_links_the_webhooks_for_organizers_only(client_for, club):
    assert (
        f"/clubs/{club.slug}/webhooks/"
        in client_for("olga").get(f"/clubs/{club.slug}/").content.decode()
    )
    assert "webhooks/" not in client_for("carol").get(f"/clubs/{club.slug}/").content.decode()


def test_an_organizer_adds_a_webhook_and_sees_its_secret_once(client_for, club, receiver):
    olga = client_for("olga")
    answer = olga.post(
        f"/clubs/{club.slug}/webhooks/", {"new-url": receiver.url, "new-format": "discord"}
    )
    assert answer.status_code == 200
    hook = Webhook.objects.get(club=club)
    assert (hook.url, hook.format) == (receiver.url, Webhook.DISCORD)
    assert hook.secret in answer.content.decode()
    assert "it is not shown again" in answer.content.decode()
    later = olga.get(f"/clubs/{club.slug}/webhooks/").content.decode()
    assert hook.secret not in later
    assert receiver.url.replace("&", "&amp;") in later
    assert "Discord" in later and "Nothing posted yet" in later


def test_an_organizer_makes_a_new_secret_sends_a_test_changes_and_removes(
    hook, client_for, club, receiver, settings
):
    olga, base = client_for("olga"), f"/clubs/{club.slug}/webhooks/{hook.pk}/"
    old = hook.secret
    answer = olga.post(base + "secret/")
    hook.refresh_from_db()
    assert hook.secret != old and hook.secret in answer.content.decode()
    assert olga.post(base + "test/").status_code == 302
    assert WebhookDelivery.objects.filter(webhook=hook, event__kind="test").count() == 1
    page = olga.get(f"/clubs/{club.slug}/webhooks/").content.decode()
    assert "A test from Muster" in page and "Waiting to be sent" in page
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = False
    answer = olga.post(base, {f"w{hook.pk}-url": "https://10.0.0.1/", f"w{hook.pk}-format": "json"})
    assert answer.status_code == 400
    assert "private network" in answer.content.decode()
    settings.MUSTER_WEBHOOKS_ALLOW_PRIVATE = True
    answer = olga.post(
        base, {f"w{hook.pk}-url": receiver.url + "&y=2", f"w{hook.pk}-format": "discord"}
    )
    assert answer.status_code == 302
    hook.refresh_from_db()
    assert hook.format == Webhook.DISCORD and hook.url.endswith("&y=2")
    assert olga.post(base + "remove/").status_code == 302
    assert not Webhook.objects.exists()
    assert not WebhookDelivery.objects.exists()


def test_the_club_log_says_in_words_who_changed_a_webhook_naming_its_host_only(
    client_for, club, people
):
    from campaigns.webhooks.organizer import add, new_secret, remove

    hook = add(
        user=people["olga"],
        club=club,
        url="https://93.184.215.14/api/webhooks/123/TOKEN",
        format_="discord",
    )
    new_secret(user=people["olga"], webhook=hook)
    remove(user=people["olga"], webhook=hook)
    page = client_for("olga").get(f"/clubs/{club.slug}/").content.decode()
    assert "added a webhook posting to 93.184.215.14" in page
    assert "made a new secret for the webhook posting to 93.184.215.14" in page
    assert "removed the webhook posting to 93.184.215.14" in page
    assert "TOKEN" not in page and "webhook.added" not in page
