"""News a person gets once: an invitation to an address of their account (never its code), a
sheet they asked for ready or failed, a campaign they sit in started."""

from __future__ import annotations

from campaigns.models import Notice
from campaigns.notices import inbox, making
from campaigns.services import clubs
from rosters.models import PrintJob


def test_an_invitation_to_an_accounts_address_tells_that_person_without_its_code(
    club, people, django_user_model
):
    dora = django_user_model.objects.create_user("dora", email="dora@example.org", password="x")
    invitation = clubs.invite(club=club, user=people["olga"], email="Dora@example.org")
    notice = Notice.objects.get(recipient=dora)
    assert notice.campaign is None and club.name in notice.words
    assert invitation.code not in notice.link and invitation.code not in notice.words
    clubs.accept_invitation(code=invitation.code, user=dora)
    assert inbox.inbox(dora) == []


def test_an_invitation_without_an_account_makes_no_notice(club, people):
    clubs.invite(club=club, user=people["olga"], email="nobody@example.org")
    assert not Notice.objects.exists()


def _job(campaign, user, status):
    return PrintJob.objects.create(
        campaign=campaign,
        sheet="supply",
        audience="side:blue",
        content_hash=f"h-{status}",
        title="Supply record, Blue only",
        context={},
        status=status,
        requested_by=user,
    )


def test_a_sheet_ready_or_failed_tells_who_asked_for_it(skirmish, people):
    bob = people["bob"]
    making.sheet_news(str(_job(skirmish, bob, PrintJob.DONE).pk))
    making.sheet_news(str(_job(skirmish, bob, PrintJob.FAILED).pk))
    making.sheet_news(str(_job(skirmish, bob, PrintJob.QUEUED).pk))  # not yet: nothing
    words = sorted(n.words for n in inbox.inbox(bob))
    assert words == [
        "Supply record, Blue only could not be printed",
        "Supply record, Blue only is ready",
    ]
    assert not Notice.objects.exclude(recipient=bob).exists()


def test_reading_news_puts_it_away_and_a_waiting_notice_stays_until_done(
    notices_inline, skirmish, people
):
    bob = people["bob"]
    news = Notice.objects.get(recipient=bob, key="campaign/active")
    turn = Notice.objects.get(recipient=bob, key="turn/blue")
    assert inbox.unread_count(bob) == 2
    inbox.mark_read(bob, news.pk)
    inbox.mark_read(bob, turn.pk)
    assert inbox.unread_count(bob) == 0
    assert [n.key for n in inbox.inbox(bob)] == ["turn/blue"]
