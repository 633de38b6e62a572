"""The notices' outbox: a row in the change's own transaction, none for a refused change or a
retried one; processing it twice, or by the task and the sweep both, makes nothing twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.errors import DomainError
from campaigns.models import Notice, NoticeOutbox
from campaigns.notices import making, outbox
from campaigns.services import campaigns
from campaigns.services.journal import submit
from campaigns.tasks import make_notices


def _notices(campaign):
    return list(
        Notice.objects.filter(campaign=campaign)
        .order_by("pk")
        .values_list("recipient__username", "key", "words", "resolved_at")
    )


def test_a_retried_write_makes_no_second_notice(skirmish, people):
    making.process(skirmish.pk)
    first = submit(skirmish, people["bob"], "skirmish.supply", side="blue", idempotency_key="k1")
    making.process(skirmish.pk)
    after_first = _notices(skirmish)
    again = submit(skirmish, people["bob"], "skirmish.supply", side="blue", idempotency_key="k1")
    assert again.replayed and again.events[0].pk == first.events[0].pk
    unprocessed = NoticeOutbox.objects.filter(campaign=skirmish, processed_at=None)
    assert not unprocessed.exists()  # nothing was appended: nothing new to make
    making.process(skirmish.pk)
    assert _notices(skirmish) == after_first


def test_an_outbox_row_processed_twice_makes_nothing_twice(skirmish, people):
    submit(skirmish, people["bob"], "skirmish.supply", side="blue")
    make_notices(skirmish.pk)  # the task, as a worker runs it
    made = _notices(skirmish)
    assert made
    NoticeOutbox.objects.filter(campaign=skirmish).update(processed_at=None)  # redelivered
    make_notices(skirmish.pk)
    assert making.process(skirmish.pk) == 0
    assert _notices(skirmish) == made
    assert NoticeOutbox.objects.filter(campaign=skirmish).count() == 1  # the last, kept


def test_a_refused_change_writes_no_outbox_row(skirmish, people):
    rows = NoticeOutbox.objects.filter(campaign=skirmish).count()
    with pytest.raises(DomainError):
        submit(skirmish, people["bob"], "skirmish.buy", {"count": 99}, side="blue")
    assert NoticeOutbox.objects.filter(campaign=skirmish).count() == rows


def test_a_hidden_step_writes_a_row_for_its_side_only_and_nothing_for_the_others(skirmish, people):
    making.process(skirmish.pk)
    bob_before = _notices(skirmish)
    submit(skirmish, people["alice"], "skirmish.supply", side="red")
    making.process(skirmish.pk)
    bob_after = [n for n in _notices(skirmish) if n[0] == "bob"]
    assert bob_after == [n for n in bob_before if n[0] == "bob"]


def test_the_sweep_sends_again_a_row_nobody_processed(skirmish, people, monkeypatch):
    sent = []
    monkeypatch.setattr(outbox, "_send", sent.append)
    NoticeOutbox.objects.filter(campaign=skirmish).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    outbox.sweep()
    assert sent == [skirmish.pk]
    outbox.sweep()  # sent a moment ago: left to its task
    assert sent == [skirmish.pk]
    making.process(skirmish.pk)
    assert not NoticeOutbox.objects.filter(campaign=skirmish, processed_at=None).exists()


def test_a_finished_campaign_waits_for_nobody(notices_inline, skirmish, people):
    # olga plays red: in play her ending is a proposal, which the referee agrees to
    made = campaigns.finish_campaign(skirmish, people["olga"], reason="Called off")
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert not Notice.objects.filter(campaign=skirmish, waiting=True, resolved_at=None).exists()
    finished = Notice.objects.filter(campaign=skirmish, key="campaign/finished")
    assert sorted(n.recipient.username for n in finished) == ["alice", "bob", "olga", "rita"]
