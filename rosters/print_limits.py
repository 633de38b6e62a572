"""How many new sheets may be printed: a render holds a worker for up to ~8 s
(a large A!P! roster), so asking for sheets faster than a club prints them would keep the queue
busy for everyone. In any `WINDOW`, at most settings.SHEET_RENDERS_PER_MEMBER new print jobs for
one member (every campaign together) and settings.SHEET_RENDERS_PER_SIDE for one side of a
campaign (its players together; the referee, organizers and members who play no side count as one
more group); beyond them the request is refused (TooMany: 429, the page says it) naming the limit
and the wait. The campaign's count is kept per side, never for the whole campaign: a side refused
because the other side printed would learn when the other side works (a side channel), and one
side could use up the other's allowance. A sheet whose content did not change is never rendered again
(rosters.services.request_sheet answers its job), so asking for it again costs nothing and is
never refused; but asking again for one that failed or lost its task (the Retry button, the API's
retry, the same request again) renders it again, and counts as a new job does (models.AskedAgain),
refused beyond the same limits with the same words. Numbers and reasons: docs/architecture.md,
"Sheets and print jobs"."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from campaigns.errors import TooMany
from campaigns.models import Campaign, SidePlayer

from .models import AskedAgain, PrintJob

WINDOW = timedelta(minutes=10)
REUSED = (
    "A sheet whose content has not changed is never printed again: asking for it gives the file "
    "already printed."
)


def check(user: User | AnonymousUser, campaign: Campaign | None, playing: str | None) -> None:
    """Refuse (TooMany) a new print job, or a job asked for again, beyond the limits; `playing` is
        the side the user plays (visibility's viewer), whose players' jobs count together. Call inside
        the transaction that creates (or queues again) the job: it locks the member's and the campaign's rows (in that order), so simultaneous
        requests are counted one after the other, not all against the same count. No campaign (a blank
    sheet): the member's limit only."""
    since = timezone.now() - WINDOW
    # FOR NO KEY UPDATE: it orders the requests all the same, and lets a write that commits meanwhile
    # check its foreign keys to these rows (FOR KEY SHARE); FOR UPDATE blocked that check, and a
    # member's sheet asked for while their submission committed deadlocked with it.
    if user.is_authenticated:
        list(
            get_user_model()
            .objects.select_for_update(no_key=True)
            .filter(pk=user.pk)
            .values_list("pk")
        )
    if campaign is not None:
        list(
            Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).values_list("pk")
        )
    if user.is_authenticated:
        _within(
            _asked(
                PrintJob.objects.filter(requested_by=user, created_at__gt=since),
                AskedAgain.objects.filter(requested_by=user, at__gt=since),
                settings.SHEET_RENDERS_PER_MEMBER,
            ),
            settings.SHEET_RENDERS_PER_MEMBER,
            lambda limit, wait: (
                f"You may ask for at most {_sheets(limit)} in {_minutes(WINDOW)}, and you "
                f"have asked for {limit}: you can ask for another in {wait}. {REUSED}"
            ),
        )
    if campaign is None:
        return
    seat = _same_seat(playing, campaign)
    _within(
        _asked(
            PrintJob.objects.filter(campaign=campaign, created_at__gt=since).filter(seat),
            AskedAgain.objects.filter(job__campaign=campaign, at__gt=since).filter(seat),
            settings.SHEET_RENDERS_PER_SIDE,
        ),
        settings.SHEET_RENDERS_PER_SIDE,
        lambda limit, wait: (
            f"At most {_sheets(limit)} of one campaign are printed for {'your side' if playing else 'those who play no side'} "
            f"in {_minutes(WINDOW)}, and {limit} have been asked for: another can be asked for "
            f"in {wait}. {REUSED}"
        ),
    )


def _same_seat(playing: str | None, campaign: Campaign) -> Q:
    """The jobs that count with this user's: asked for by the players of their side now, or,
    for someone who plays no side, by everyone who plays none."""
    players = SidePlayer.objects.filter(side__campaign=campaign)
    if playing is not None:
        return Q(requested_by__in=players.filter(side__slug=playing).values("user"))
    return ~Q(requested_by__in=players.values("user")) | Q(requested_by__isnull=True)


def _asked(jobs: QuerySet[PrintJob], again: QuerySet[AskedAgain], limit: int) -> list[datetime]:
    """When the renders of the window were asked for, newest first (the newest `limit`): new jobs
    and jobs asked for again."""
    first = jobs.order_by("-created_at").values_list("created_at", flat=True)[:limit]
    more = again.order_by("-at").values_list("at", flat=True)[:limit]
    return sorted([*first, *more], reverse=True)[:limit]


def _within(times: list[datetime], limit: int, message: Callable[[int, str], str]) -> None:
    if len(times) < limit:
        return
    free_at = times[-1] + WINDOW  # when the oldest of the window's jobs leaves it
    seconds = max(1, math.ceil((free_at - timezone.now()).total_seconds()))
    wait = (
        _minutes(timedelta(seconds=seconds))
        if seconds >= 60
        else f"{seconds} second{'s' if seconds != 1 else ''}"
    )
    raise TooMany(message(limit, wait), retry_after=seconds)


def _sheets(count: int) -> str:
    return f"{count} new sheet{'s' if count != 1 else ''}"


def _minutes(span: timedelta) -> str:
    minutes = max(1, math.ceil(span.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
