"""An archived campaign makes no notices: what it still owed is settled when it is archived, a
change written before the archiving but processed after makes nothing, and a sheet printed from
it tells nobody. Restored, it is quiet until something new happens in it."""

from __future__ import annotations

from campaigns.models import Notice, NoticeOutbox
from campaigns.notices import making, outbox
from campaigns.services import campaigns
from campaigns.services.journal import submit
from rosters.models import PrintJob


def _finish_with_the_task_late(skirmish, people, monkeypatch):
    """Notices made up to now; then the campaign ends while the notices' task has not run yet."""
    making.process(skirmish.pk)
    monkeypatch.setattr(outbox, "send", lambda campaign_id: None)
    made = campaigns.finish_campaign(skirmish, people["olga"], reason="Called off")
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert NoticeOutbox.objects.filter(campaign=skirmish, processed_at=None).exists()


def test_the_end_of_a_campaign_is_news_when_it_is_not_archived(skirmish, people, monkeypatch):
    _finish_with_the_task_late(skirmish, people, monkeypatch)
    making.process(skirmish.pk)
    assert Notice.objects.filter(campaign=skirmish, key="campaign/finished").count() == 4


def test_no_notice_for_an_archived_campaign(skirmish, people, monkeypatch):
    _finish_with_the_task_late(skirmish, people, monkeypatch)
    campaigns.archive_campaign(skirmish, people["olga"])
    before = set(Notice.objects.values_list("pk", flat=True))
    assert making.process(skirmish.pk) >= 1  # the rows are processed, and so never sent again
    assert not NoticeOutbox.objects.filter(campaign=skirmish, processed_at=None).exists()
    assert set(Notice.objects.values_list("pk", flat=True)) == before
    assert not Notice.objects.filter(campaign=skirmish, resolved_at=None).exists()


def test_archiving_settles_what_the_campaign_still_owed(notices_inline, skirmish, people):
    made = campaigns.finish_campaign(skirmish, people["olga"], reason="Called off")
    submit(skirmish, people["rita"], "proposal.approved", {"proposal": str(made.events[0].uid)})
    assert Notice.objects.filter(campaign=skirmish, resolved_at=None).exists()
    campaigns.archive_campaign(skirmish, people["olga"])
    assert not Notice.objects.filter(campaign=skirmish, resolved_at=None).exists()


def test_a_sheet_of_an_archived_campaign_tells_nobody(skirmish, people, monkeypatch):
    _finish_with_the_task_late(skirmish, people, monkeypatch)
    campaigns.archive_campaign(skirmish, people["olga"])
    job = PrintJob.objects.create(
        campaign=skirmish,
        sheet="summary",
        audience="public",
        content_hash="h-done",
        title="Campaign summary",
        context={},
        status=PrintJob.DONE,
        requested_by=people["bob"],
    )
    making.sheet_news(str(job.pk))
    assert not Notice.objects.filter(recipient=people["bob"], key__startswith="sheet/").exists()
