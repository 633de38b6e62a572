"""Clubs, members and invitations."""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from campaigns.access import visibility
from campaigns.mails import addresses
from campaigns.notices import making as notices
from campaigns.schema.fields import clean_name
from campaigns.webhooks import outbox as webhook_outbox

from ..errors import DomainError, Forbidden, NotFound, TooMany
from ..models import Campaign, Club, ClubLogEntry, Invitation, Membership


def _log(club: Club, actor: User | None, action: str, **detail: object) -> None:
    ClubLogEntry.objects.create(club=club, actor=actor, action=action, detail=detail)


def create_club(*, user: User, name: str) -> Club:
    if not (name or "").strip():
        raise DomainError("name", "Give the club a name.")
    name = clean_name(name, "name", Club._meta.get_field("name").max_length)
    base = slugify(name)[:50] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug)
        Membership.objects.create(club=club, user=user, role=Membership.ORGANIZER)
        _log(club, user, "club.created", name=club.name)
    return club


def _require_organizer(user: User, club: Club) -> None:
    if not visibility.is_organizer(user, club):
        raise Forbidden("Only a club organizer can do this.")


def invite(*, club: Club, user: User, role: str = Membership.PLAYER, email: str = "") -> Invitation:
    """A new invitation; with an address it is e-mailed, by a task sent once it is stored."""
    from . import invitation_mail

    _require_organizer(user, club)
    if role not in dict(Membership.ROLES):
        raise DomainError("role", "Choose organizer or player.")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(
            pk=user.pk
        ).first()  # one count at a time
        _within_hourly_limit(user)
        invitation = Invitation.objects.create(  # its mail owed with it, in this transaction
            club=club,
            role=role,
            email=email or "",
            created_by=user,
            mail_queued_at=timezone.now() if email else None,
        )
        _log(
            club,
            user,
            "invitation.created",
            invitation=invitation.pk,
            role=role,
            email=invitation.email,
        )
        if invitation.email:
            transaction.on_commit(lambda: invitation_mail.enqueue(invitation.pk))
            notices.invited(invitation)  # an account with that address hears of it
    return invitation


def _within_hourly_limit(user: User) -> None:
    """settings.INVITATIONS_PER_HOUR per organizer, in every club together (docs/architecture.md)."""
    limit = settings.INVITATIONS_PER_HOUR
    since = timezone.now() - timedelta(hours=1)
    recent = list(
        Invitation.objects.filter(created_by=user, created_at__gt=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    free_at = recent[-1] + timedelta(hours=1)  # when the oldest of the hour's invitations leaves it
    minutes = max(1, math.ceil((free_at - timezone.now()).total_seconds() / 60))
    raise TooMany(
        f"An organizer may create at most {limit} invitations an hour, and you have created {limit} "
        f"in the last hour. You can invite again in {minutes} minute{'s' if minutes != 1 else ''}; "
        "the links already created still work.",
        retry_after=minutes * 60,
    )


def revoke_invitation(*, invitation: Invitation, user: User) -> None:
    _require_organizer(user, invitation.club)
    with transaction.atomic():
        invitation.revoked = True
        invitation.save(update_fields=["revoked"])
        notices.invitation_closed(invitation)
        if invitation.email and invitation.mail_sent_at is not None:
            # Whoever accepts a mailed invitation read the mail: that address is theirs.
            addresses.confirm(user, invitation.email)
        _log(invitation.club, user, "invitation.revoked", invitation=invitation.pk)


def find_invitation(code: str) -> Invitation:
    invitation = Invitation.objects.select_related("club").filter(code=code).first()
    if invitation is None or not invitation.usable:
        raise NotFound("invitation")
    return invitation


def accept_invitation(*, code: str, user: User) -> Membership:
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(code=code).first()
        if invitation is None or not invitation.usable:
            raise NotFound("invitation")
        membership, created = Membership.objects.get_or_create(
            club=invitation.club, user=user, defaults={"role": invitation.role}
        )
        if not created:  # already a member: the code is left for the person it was meant for
            return membership
        invitation.accepted_by, invitation.accepted_at = user, timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
        notices.invitation_closed(invitation)
        webhook_outbox.note_member(membership)  # in this transaction: never lost
        if invitation.email and invitation.mail_sent_at is not None:
            # Whoever accepts a mailed invitation read the mail: that address is theirs.
            addresses.confirm(user, invitation.email)
        _log(
            invitation.club,
            user,
            "invitation.accepted",
            invitation=invitation.pk,
            role=membership.role,
            joined=True,
        )
    return membership


def signup_with_invitation(*, code: str, username: str, password: str, email: str = "") -> User:
    """Create an account through an invitation and join its club."""
    find_invitation(code)
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise DomainError("username", "This username is taken.")
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password, email=email)
        accept_invitation(code=code, user=user)
        if email and not addresses.confirmed_address(user):
            addresses.ask_to_confirm(user.pk)
    return user


def set_role(*, club: Club, user: User, member_username: str, role: str) -> Membership:
    _require_organizer(user, club)
    if role not in dict(Membership.ROLES):
        raise DomainError("role", "Choose organizer or player.")
    membership = club.memberships.filter(user__username=member_username).first()
    if membership is None:
        raise DomainError("username", f"{member_username} is not a member.")
    if role == Membership.PLAYER and membership.role == Membership.ORGANIZER:
        if club.memberships.filter(role=Membership.ORGANIZER).count() == 1:
            raise DomainError(
                "role", "A club needs at least one organizer: hand the role to someone first."
            )
    if membership.role != role:
        with transaction.atomic():
            _log(club, user, "member.role", username=member_username, old=membership.role, new=role)
            membership.role = role
            membership.save(update_fields=["role"])
    return membership


def hand_over_organizer(*, club: Club, user: User, to_username: str) -> Membership:
    """Make another member organizer and step down to player."""
    with transaction.atomic():
        membership = set_role(
            club=club, user=user, member_username=to_username, role=Membership.ORGANIZER
        )
        if to_username != user.username:
            club.memberships.filter(user=user).update(role=Membership.PLAYER)
            _log(
                club,
                user,
                "member.role",
                username=user.username,
                old=Membership.ORGANIZER,
                new=Membership.PLAYER,
            )
    return membership


# --- a site operator's changes (replaying a journal file: campaigns.services.journal_files) ----------------
# The operator is no member: these entries have no actor and say "by": "operator".


def operator_create_club(*, slug: str, name: str, organizer: User) -> Club:
    slug = (slug or "").strip()
    if not slug or slug != slugify(slug) or len(slug) > 60:
        raise DomainError(
            "club", "A club's slug is lowercase letters, digits and hyphens (at most 60)."
        )
    name = clean_name(name, "campaign.club.name")
    if Club.objects.filter(slug=slug).exists():
        raise DomainError("club", f"A club {slug!r} already exists.")
    club = Club.objects.create(name=name, slug=slug)
    Membership.objects.create(club=club, user=organizer, role=Membership.ORGANIZER)
    _log(club, None, "club.created", name=club.name, by="operator", organizer=organizer.username)
    return club


def operator_make_organizer(*, club: Club, user: User) -> bool:
    """Make someone an organizer of an existing club (the operator's first account for a club
    that exists). False when they already were one."""
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is not None and membership.role == Membership.ORGANIZER:
        return False
    if membership is None:
        Membership.objects.create(club=club, user=user, role=Membership.ORGANIZER)
        _log(club, None, "member.organizer", by="operator", username=user.username)
    else:
        Membership.objects.filter(pk=membership.pk).update(role=Membership.ORGANIZER)
        _log(
            club,
            None,
            "member.role",
            by="operator",
            username=user.username,
            old=membership.role,
            new=Membership.ORGANIZER,
        )
    return True


def operator_add_member(
    *, club: Club, user: User, new_person: bool, journal_name: str
) -> Membership:
    """Make someone a player of the club because a replayed journal names them (the operator
    mapped them with --map, or let replay create them)."""
    membership = Membership.objects.create(club=club, user=user, role=Membership.PLAYER)
    _log(
        club,
        None,
        "member.added",
        by="operator",
        username=user.username,
        role=membership.role,
        new_person=new_person,
        journal_name=journal_name,
    )
    return membership


def log_campaign_replayed(*, club: Club, campaign: Campaign, events: int) -> None:
    _log(
        club,
        None,
        "campaign.replayed",
        by="operator",
        campaign=campaign.pk,
        name=campaign.name,
        events=events,
    )
