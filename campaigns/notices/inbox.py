"""A person's notices as the inbox page, the header's count and the API read them, and marking
them read. Only one's own: another person's notice is not found, exactly like a missing one.

Opening a notice marks it read; news (a campaign started, a sheet ready) then goes away, while a
notice of something waiting stays, read, until it is done (campaigns.notices.making resolves it)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.utils import timezone

from campaigns.access import visibility
from campaigns.errors import NotFound
from campaigns.models import Notice

Person = AbstractBaseUser | AnonymousUser
INBOX_SIZE = 100  # the newest open notices shown; a person rarely has more than a few


def open_notices(user: Person) -> QuerySet[Notice]:
    """`user`'s notices not yet gone (waiting, or news not yet read), newest first."""
    if not user.is_authenticated:
        return Notice.objects.none()
    return Notice.objects.filter(recipient=user.pk, resolved_at=None).select_related("campaign")


def inbox(user: Person) -> list[Notice]:
    return list(open_notices(user).order_by("-created_at", "-pk")[:INBOX_SIZE])


def unread_count(user: Person) -> int:
    """The header's count: one count over an index of open notices per recipient."""
    if not user.is_authenticated:
        return 0
    known = visibility.read_with_sign_in(user, "unread")  # read with the page's sign-in
    if known is not visibility.MISSING:
        return int(known)
    return Notice.objects.filter(recipient=user.pk, resolved_at=None, read_at=None).count()


def own_notice(user: Person, pk: object) -> Notice:
    """`user`'s notice `pk` (open or not); anyone else's, or none, is NotFound."""
    try:
        number = int(str(pk))
    except ValueError:
        raise NotFound("notice") from None
    found = (
        Notice.objects.filter(recipient=user.pk, pk=number).select_related("campaign").first()
        if user.is_authenticated and 0 < number < 2**63
        else None
    )
    if found is None:
        raise NotFound("notice")
    return found


def mark_read(user: Person, pk: object) -> Notice:
    """Mark `user`'s notice read (news goes away with it); the notice."""
    notice = own_notice(user, pk)
    now = timezone.now()
    changes = _read(notice, now)
    if changes:
        Notice.objects.filter(pk=notice.pk).update(**changes)
        for name, value in changes.items():
            setattr(notice, name, value)
    return notice


def _read(notice: Notice, now: datetime) -> dict[str, datetime]:
    changes = {}
    if notice.read_at is None:
        changes["read_at"] = now
    if not notice.waiting and notice.resolved_at is None:
        changes["resolved_at"] = now
    return changes


def mark_unread(user: Person, pk: object) -> Notice:
    """Mark `user`'s notice unread again, while it still waits (news read is gone: NotFound)."""
    notice = own_notice(user, pk)
    if notice.resolved_at is not None:
        raise NotFound("notice")
    if notice.read_at is not None:
        Notice.objects.filter(pk=notice.pk).update(read_at=None)
        notice.read_at = None
    return notice


def mark_all_read(user: Person, *, up_to: int | None = None) -> int:
    """Every open notice of `user` read (news goes away), those up to id `up_to` when given (the
    newest a client has seen: one made since stays unread); how many were unread."""
    if not user.is_authenticated:
        return 0
    now = timezone.now()
    mine = Notice.objects.filter(recipient=user.pk, resolved_at=None)
    if up_to is not None:
        mine = mine.filter(pk__lte=up_to)
    unread = mine.filter(read_at=None).update(read_at=now)
    mine.filter(waiting=False).update(resolved_at=now)
    return unread
