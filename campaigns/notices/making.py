"""Making notices: from the outbox (campaigns.notices.outbox), for each audience whose position
moved, each person of that audience gets their waiting points (campaigns.notices.waiting) as open
notices, and those no longer waiting are resolved; and the news a person gets once (a campaign
started or finished, a sheet they asked for ready or failed, an invitation).

Why a notice cannot leak: a person's waiting points are drawn from their own to-dos, which are a
function of their audience's position (the digest of everything that audience can see), and they
are recomputed only when that position moved. Another side's hidden step moves no other
audience's position, so it makes, resolves, words and orders nothing for them.

Idempotent: under the campaign's lock, the positions the notices were last made for are kept on
the processed outbox row; a re-run finds nothing moved, and one open notice per (recipient,
campaign, key) is a unique constraint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import plain
from campaigns.kept_answers.audiences import audience
from campaigns.models import Campaign, Invitation, Membership, Notice, NoticeOutbox
from campaigns.services.folded_state import current_state
from rosters.models import PrintJob

from .outbox import audience_positions
from .waiting import WaitingPoint, waiting_points


@dataclass(frozen=True)
class Person:
    user: User
    viewer: Viewer


def process(campaign_id: int) -> int:
    """Make the notices of a campaign's unprocessed outbox rows (all at once: each person's
    notices follow their audience's position now); how many rows were processed.

    Its reads and writes are few and do not grow with the rows or the people: the campaign's
    outbox in one read (the processed row kept last, and the pending ones), every open waiting
    notice of the campaign in one, and the rows settled in two statements."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        if campaign is None:
            return 0
        # At most one processed row is kept (the last, with what its notices were made for):
        # every row of the campaign in one read, oldest first.
        rows = list(campaign.notice_outbox.order_by("pk"))
        pending = [row for row in rows if row.processed_at is None]
        if not pending:
            return 0
        done = [row for row in rows if row.processed_at is not None]
        before: dict[str, Any] = (done[-1].made_for if done else None) or {}
        now = {**audience_positions(campaign.positions or {}), "status": campaign.status}
        if campaign.archived_at is None:  # an archived campaign makes no notices
            _make(campaign, before, now)
        last = pending[-1]
        # The last row kept, processed and with what it was made for; every other row gone.
        others = [row.pk for row in rows if row.pk != last.pk]
        if others:
            NoticeOutbox.objects.filter(pk__in=others).delete()
        NoticeOutbox.objects.filter(pk=last.pk).update(processed_at=timezone.now(), made_for=now)
        return len(pending)


def _make(campaign: Campaign, before: dict[str, Any], now: dict[str, Any]) -> None:
    moved = {name for name, at in now.items() if name != "status" and before.get(name) != at}
    if not moved:
        return
    state = plain(current_state(campaign))
    if before.get("status") not in (None, now["status"]):
        _status_news(campaign, state, now["status"])
    people = seated(campaign, state)
    # Every open waiting notice of the campaign, by recipient, in one read.
    open_: dict[int, dict[str, Notice]] = {}
    for notice in Notice.objects.filter(campaign=campaign, waiting=True, resolved_at=None):
        open_.setdefault(notice.recipient_id, {})[notice.key] = notice
    for person in people:
        if audience(person.viewer) in moved:
            points = waiting_points(campaign, state, person.viewer)
            sync(campaign, person.user, points, open_.get(person.user.pk, {}))
    # Someone no longer seated (taken off, stepped down) waits for nothing here: seats are public.
    seated_ids = {p.user.pk for p in people}
    unseated = [
        n.pk for user_id, kept in open_.items() if user_id not in seated_ids for n in kept.values()
    ]
    if unseated:
        Notice.objects.filter(pk__in=unseated, resolved_at=None).update(resolved_at=timezone.now())


def seated(campaign: Campaign, state: dict[str, Any]) -> list[Person]:
    """Everyone who may have something to do in the campaign, as the pages see them: each side's
    players, the referee, the club's organizers (who may settle a dispute) and a side's departed
    last player (who answers seat proposals for it). Members of the club only, in one read."""
    playing = {name: slug for slug, side in state["sides"].items() for name in side["players"]}
    names = {*playing, *state.get("departed", {}).values()}
    if state["referee"]:
        names.add(state["referee"])
    members = (
        Membership.objects.filter(club_id=campaign.club_id, user__is_active=True)
        .filter(Q(user__username__in=names) | Q(role=Membership.ORGANIZER))
        .select_related("user")
        .order_by("user__username")
    )
    people = []
    for membership in members:
        user = membership.user
        name, organizer = user.username, membership.role == Membership.ORGANIZER
        referee = name == state["referee"]
        side = None if referee else playing.get(name)
        sides = frozenset(state["sides"]) if referee else frozenset([side] if side else [])
        viewer = Viewer(
            name, sides, referee=referee, playing=side, organizer=organizer, member=True
        )
        people.append(Person(user, viewer))
    return people


def sync(
    campaign: Campaign,
    user: User,
    points: list[WaitingPoint],
    open_: dict[str, Notice] | None = None,
) -> None:
    """`user`'s open waiting notices of the campaign made to be `points`: new ones opened, gone
    ones resolved, the words and link of one still waiting brought up to date (read or not).
    `open_`: those notices by key, when the caller has read them (under the campaign's lock)."""
    if open_ is None:
        open_ = {
            n.key: n
            for n in Notice.objects.filter(
                recipient=user, campaign=campaign, waiting=True, resolved_at=None
            )
        }
    wanted = {point.key: point for point in points}
    gone = [n.pk for key, n in open_.items() if key not in wanted]
    if gone:
        Notice.objects.filter(pk__in=gone).update(resolved_at=timezone.now())
    for key, point in wanted.items():
        notice = open_.get(key)
        if notice is None:
            Notice.objects.create(
                recipient=user, campaign=campaign, key=key, words=point.words, link=point.link
            )
        elif (notice.words, notice.link) != (point.words, point.link):
            Notice.objects.filter(pk=notice.pk).update(words=point.words, link=point.link)


def _status_news(campaign: Campaign, state: dict[str, Any], status: str) -> None:
    """A campaign started or finished: news for everyone seated in it (its players, referee)."""
    words = {
        Campaign.ACTIVE: f"{campaign.name} has started",
        Campaign.FINISHED: f"{campaign.name} is finished",
    }.get(status)
    if words is None:
        return
    names = {n for side in state["sides"].values() for n in side["players"]}
    if state["referee"]:
        names.add(state["referee"])
    link = reverse("campaign", args=[campaign.pk])
    for user in User.objects.filter(username__in=names, is_active=True):
        news(user, f"campaign/{status}", words, link, campaign=campaign)


def news(
    user: User, key: str, words: str, link: str, *, campaign: Campaign | None = None
) -> Notice:
    """A notice that waits for nothing (resolved when read); once per open key."""
    with transaction.atomic():
        found = Notice.objects.filter(
            recipient=user, campaign=campaign, key=key, resolved_at=None
        ).first()
        if found is not None:
            return found
        return Notice.objects.create(
            recipient=user,
            campaign=campaign,
            key=key,
            words=words[:300],
            link=link,
            waiting=False,
        )


def invited(invitation: Invitation) -> None:
    """An invitation e-mailed to an address of an existing account: that person hears of it. The
    link goes to their dashboard, never the invitation's code: an address is not confirmed, so
    the code stays in the mail to that address."""
    if not invitation.email:
        return
    users = User.objects.filter(email__iexact=invitation.email, is_active=True)
    for user in users.exclude(memberships__club=invitation.club)[:5]:
        words = (
            f"You are invited to join {invitation.club.name}: the link is in the e-mail sent to you"
        )
        news(user, f"invitation/{invitation.pk}", words, reverse("dashboard"))


def invitation_closed(invitation: Invitation) -> None:
    """Accepted, or revoked: the notices of it are settled."""
    Notice.objects.filter(key=f"invitation/{invitation.pk}", resolved_at=None).update(
        resolved_at=timezone.now()
    )


def sheet_news(job_id: str) -> None:
    """A sheet someone asked for is ready, or failed: they hear of it (the sheet's title names
    only what they asked for, as the sheets panel shows it)."""
    job = PrintJob.objects.select_related("campaign", "requested_by").filter(pk=job_id).first()
    if job is None or job.requested_by is None or job.status not in (job.DONE, job.FAILED):
        return
    if job.campaign is not None and job.campaign.archived_at is not None:  # archived: no notices
        return
    title = job.title or "Your sheet"
    words = f"{title} is ready" if job.status == job.DONE else f"{title} could not be printed"
    link = (  # a blank sheet has no campaign: its page is the blank sheets'
        reverse("campaign", args=[job.campaign_id]) + "#sheets"
        if job.campaign_id is not None
        else reverse("blank-sheets")
    )
    news(job.requested_by, f"sheet/{job.pk}/{job.status}", words, link, campaign=job.campaign)
