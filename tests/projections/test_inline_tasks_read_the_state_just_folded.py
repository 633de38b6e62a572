"""Where tasks run inline (no broker), the odds and notices tasks sent by an append read the state
the append just folded, not the snapshot parsed again (services.folded_state): the same odds and
the same state as a fresh read gives, the append's answer left as folded, and nothing held once
the tasks have run, nor for another seq, nor where tasks go to a worker."""

import pytest
from django.core.cache import cache

from campaigns.kept_answers import viewcache
from campaigns.models import Campaign
from campaigns.services import folded_state, odds, snapshots
from campaigns.services.journal import submit
from campaigns.services.snapshots import encoded_parts
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer.tests import campaign_harness
from campaigns.systems.achtung_panzer.tests.campaign_harness import in_the_first_refit_phase

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _note(war, text="Hold the ridge"):
    return {"scenario": current_state(war.campaign)["current"], "text": text}


def _held():
    return getattr(folded_state._held, "folded", None)


def test_the_inline_tasks_after_an_append_read_no_snapshot(
    club, people, monkeypatch, django_capture_on_commit_callbacks
):
    war = in_the_first_refit_phase(club, people)
    note = _note(war)
    reads, computed = [], []
    real_stored, real_compute = snapshots.stored, odds.compute
    monkeypatch.setattr(snapshots, "stored", lambda ids: reads.append(ids) or real_stored(ids))
    monkeypatch.setattr(
        odds, "compute", lambda c, side: computed.append(side) or real_compute(c, side)
    )
    with django_capture_on_commit_callbacks(execute=True):
        submit(war.campaign, people["alice"], "note.added", note)
    assert sorted(computed) == ["allied", "german"]  # both sides' odds computed inline
    assert len(reads) == 1  # the append's own read; the tasks read what it folded
    assert _held() is None


def test_at_every_append_the_inline_odds_and_the_answer_equal_a_fresh_read(
    club, people, monkeypatch, django_capture_on_commit_callbacks
):
    compared = {"odds": 0, "states": 0}

    def submitting(campaign, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            done = submit(campaign, *args, **kwargs)
        assert _held() is None
        fresh = Campaign.objects.get(pk=campaign.pk)
        if done.state is not None:  # the answer, left as folded by the tasks that read it
            assert done.state == current_state(fresh)
            compared["states"] += 1
        for side in ("allied", "german"):
            at = (fresh.positions or {}).get(f"side:{side}")
            kept = viewcache.get(odds.cache_key(fresh.pk, side, at)) if at else viewcache.MISSING
            if kept is not viewcache.MISSING:
                assert kept == odds.compute(fresh, side)
                compared["odds"] += bool(kept["rolls"])
        return done

    monkeypatch.setattr(campaign_harness, "submit", submitting)
    war = in_the_first_refit_phase(club, people)
    war.act("alice", "note.added", _note(war))
    assert compared["states"] > 15 and compared["odds"] > 0


def test_a_state_held_for_another_seq_is_not_read(club, people, django_capture_on_commit_callbacks):
    war = in_the_first_refit_phase(club, people)
    campaign = Campaign.objects.get(pk=war.campaign.pk)
    folded = current_state(campaign)
    stale = {**folded, "seq": folded["seq"] - 1, "notes": ["not what was stored"]}
    with django_capture_on_commit_callbacks(execute=True):
        folded_state.hold(campaign, stale, encoded_parts(stale))
    assert _held() is not None
    assert folded_state.current_state(campaign) == folded
    campaign.last_seq -= 1  # at the seq held: what was held is read
    assert folded_state.current_state(campaign)["notes"] == ["not what was stored"]
    folded_state._held.folded = None


def test_nothing_is_held_where_tasks_go_to_a_worker(
    club, people, django_capture_on_commit_callbacks
):
    from muster.celery import app

    war = in_the_first_refit_phase(club, people)
    campaign = Campaign.objects.get(pk=war.campaign.pk)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            state = current_state(campaign)
            folded_state.hold(campaign, state, encoded_parts(state))
            folded_state.release()
    finally:
        app.conf.task_always_eager = eager
    assert callbacks == []


def test_a_rolled_back_append_holds_nothing(club, people, django_capture_on_commit_callbacks):
    from django.db import transaction

    war = in_the_first_refit_phase(club, people)
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            submit(war.campaign, people["alice"], "note.added", _note(war))
            raise RuntimeError("the append's transaction rolled back")
    assert _held() is None
