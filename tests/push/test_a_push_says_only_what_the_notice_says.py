"""A device gets, decrypted with its own keys, exactly its notice's words and link, and nothing of
what the other side did in secret; the push service's 410 removes the device; a campaign whose
mail choice is "nothing" pushes nothing; a task run twice pushes once."""

from __future__ import annotations

from campaigns.mails import choices
from campaigns.models import MailChoice, Notice, NoticePush, PushSubscription
from campaigns.push import keys, sending, subscriptions
from campaigns.services import campaigns as svc
from campaigns.services.journal import submit

from .conftest import new_device

SUPPLY_RED, SUPPLY_BLUE = ("alice", "skirmish.supply", {}), ("bob", "skirmish.supply", {})
BUY_RED = ("alice", "skirmish.buy", {"count": 2})
SEALED_BLUE = ("bob", "sealed.submitted", {"key": "stance:0", "choice": "hold"})
SEALED_RED = ("alice", "sealed.submitted", {"key": "stance:0", "choice": "attack"})


def _campaign(club, people):
    olga = people["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="The war"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    return campaign


def _play(campaign, people, steps):
    for actor, kind, data in steps:
        side = "red" if actor == "alice" else "blue"
        submit(campaign, people[actor], kind, dict(data), side=side)


def test_blue_reads_its_notices_words_and_link_and_nothing_of_reds_secrets(
    push_on, endpoint, planned, push_all, club, people
):
    bob = people["bob"]
    device = new_device(endpoint.base + "/push/bob-phone")
    subscriptions.subscribe(bob, device.fields)
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_RED, BUY_RED, SUPPLY_BLUE, SEALED_RED])
    push_all()
    notices = list(Notice.objects.filter(recipient=bob, campaign=campaign).order_by("pk"))
    pushed = NoticePush.objects.filter(notice__in=notices, wanted=True)
    assert endpoint.received and len(endpoint.received) == pushed.count()
    expected = [{"words": n.words, "link": n.link} for n in notices if n.push_entry.wanted]
    read = []
    for path, headers, body in endpoint.received:
        assert path == "/push/bob-phone"
        assert headers["Content-Encoding"] == "aes128gcm"
        assert headers["Authorization"].startswith("vapid t=")
        assert keys.public_key() in headers["Authorization"]
        assert b"attack" not in body
        read.append(device.read(body))
    assert read == expected  # exactly the notices' own words and links, nothing more
    for payload in read:
        assert set(payload) == {"words", "link"}
        assert "attack" not in payload["words"] and "2" not in payload["words"]
        assert payload["link"].startswith("/")
    assert PushSubscription.objects.get(user=bob).last_success_at is not None


def test_blues_pushes_are_the_same_whether_red_bought_in_secret_or_not(
    push_on, endpoint, planned, push_all, club, people
):
    seen = []
    for steps in (
        [SUPPLY_RED, BUY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED],
        [SUPPLY_RED, SUPPLY_BLUE, SEALED_BLUE, SEALED_RED],
    ):
        PushSubscription.objects.all().delete()
        device = new_device(endpoint.base + "/push/bob")
        subscriptions.subscribe(people["bob"], device.fields)
        start = len(endpoint.received)
        campaign = _campaign(club, people)
        _play(campaign, people, steps)
        push_all()
        words = [device.read(body) for _, _, body in endpoint.received[start:]]
        seen.append([{**w, "link": w["link"].replace(f"/{campaign.pk}/", "/N/")} for w in words])
    assert seen[0] and seen[0] == seen[1]


def test_a_gone_device_is_removed(push_on, endpoint, planned, push_all, club, people):
    alice = people["alice"]
    subscriptions.subscribe(alice, new_device(endpoint.base + "/push/gone").fields)
    endpoint.status = 410
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_BLUE])
    assert push_all() == 0
    assert endpoint.received
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_the_nothing_choice_pushes_nothing(push_on, endpoint, planned, push_all, club, people):
    bob = people["bob"]
    subscriptions.subscribe(bob, new_device(endpoint.base + "/push/bob").fields)
    choices.set_default(user=bob, choice=MailChoice.NOTHING)
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_RED, SUPPLY_BLUE, SEALED_RED])
    assert Notice.objects.filter(recipient=bob, campaign=campaign).exists()
    push_all()
    assert endpoint.received == []
    assert not NoticePush.objects.filter(notice__recipient=bob, wanted=True).exists()


def test_a_choice_turned_to_nothing_before_the_push_goes_stops_it(
    push_on, endpoint, planned, club, people
):
    bob = people["bob"]
    subscriptions.subscribe(bob, new_device(endpoint.base + "/push/bob").fields)
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_RED, SUPPLY_BLUE, SEALED_RED])
    owed = list(NoticePush.objects.filter(notice__recipient=bob, sent_at=None, wanted=True))
    assert owed
    choices.set_choice(user=bob, campaign=campaign, choice=MailChoice.NOTHING)
    assert sum(sending.send(row.pk) for row in owed) == 0
    assert endpoint.received == []


def test_a_task_run_twice_pushes_once(push_on, endpoint, planned, club, people):
    bob = people["bob"]
    subscriptions.subscribe(bob, new_device(endpoint.base + "/push/bob").fields)
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_RED])
    row = NoticePush.objects.filter(notice__recipient=bob, wanted=True).first()
    assert row is not None
    assert sending.send(row.pk) == 1
    assert sending.send(row.pk) == 0
    assert len(endpoint.received) == 1


def test_without_keys_nothing_is_planned_or_pushed(settings, endpoint, planned, club, people):
    settings.MUSTER_VAPID_PRIVATE_KEY = settings.MUSTER_VAPID_PUBLIC_KEY = ""
    settings.MUSTER_PUSH_ALLOW_HTTP = settings.MUSTER_PUSH_ALLOW_PRIVATE = True
    subscriptions.subscribe(people["bob"], new_device(endpoint.base + "/push/bob").fields)
    campaign = _campaign(club, people)
    _play(campaign, people, [SUPPLY_RED, SUPPLY_BLUE])
    assert not NoticePush.objects.exists()
    assert endpoint.received == []
