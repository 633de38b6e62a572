"""Each at once, a daily digest (the default) or nothing, per person and campaign; and a
person's default for the campaigns they set nothing for."""

from __future__ import annotations

from datetime import timedelta

from campaigns.mails import choices, outbox
from campaigns.models import MailChoice, NoticeMail
from campaigns.services.journal import submit

from .conftest import choose


def test_each_at_once_mails_as_soon_as_the_notice_is_made(
    planned, confirmed, deliver, club, people
):
    from campaigns.services import campaigns as svc

    olga, bob = people["olga"], people["bob"]
    choices.set_default(user=bob, choice=MailChoice.AT_ONCE)
    campaign = svc.create_campaign(
        club=club, user=olga, system="skirmish", variant="short", name="W"
    )
    svc.assign_player(campaign, olga, side="red", username="alice")
    svc.assign_player(campaign, olga, side="blue", username="bob")
    submit(campaign, olga, "campaign.started")
    sent = deliver()
    assert [m.to for m in sent] == [["bob@example.org"]]  # alice's digest waits for its hour
    assert "W: " in sent[0].subject


def test_a_daily_digest_waits_for_its_hour_and_nothing_sends_nothing(
    planned, confirmed, deliver, skirmish, people
):
    choose(people["alice"], skirmish, MailChoice.NOTHING)
    submit(skirmish, people["bob"], "skirmish.supply", side="blue")
    assert deliver() == []  # bob's digest is due at the digest hour, not now
    due = NoticeMail.objects.get(recipient=people["bob"], campaign=skirmish).due_at
    assert due == outbox.next_digest(NoticeMail.objects.get(recipient=people["bob"]).created_at)
    sent = deliver(later=timedelta(minutes=1))
    assert sorted(m.to[0] for m in sent) == [
        "bob@example.org",
        "olga@example.org",
        "rita@example.org",
    ]
    # Planned before she chose nothing: left unsent when its time came.
    assert all(m.skipped for m in NoticeMail.objects.filter(recipient=people["alice"]))


def test_a_campaign_set_for_nothing_and_a_default_of_nothing_send_nothing(
    planned, confirmed, deliver, skirmish, people
):
    for user in people.values():
        choices.set_default(user=user, choice=MailChoice.NOTHING)
    choose(people["bob"], skirmish, MailChoice.AT_ONCE)
    submit(skirmish, people["alice"], "skirmish.supply", side="red")
    submit(skirmish, people["bob"], "skirmish.supply", side="blue")
    sent = deliver(later=timedelta(minutes=1))
    assert {m.to[0] for m in sent} <= {"bob@example.org"}
    assert choices.choice_for(people["alice"].pk, skirmish.pk) == MailChoice.NOTHING
