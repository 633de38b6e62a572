"""A whole club as one archive, to move it to another site (docs/operations.md, "Moving a club").

`manage.py export_club SLUG` writes a zip archive: ``club.json`` (the club, its members and their
roles) and one full journal per campaign (``campaigns/001.json`` …, each a file `replay_campaign`
reads too). Never a password hash, never an invitation (an open one's code would let anyone in):
people moved to another site set a password there with "forgot password". The archive of a club
is the same bytes whenever nothing changed (fixed entry times, sorted keys), so export → replay →
export is identical.

`manage.py replay_club ARCHIVE` restores the club on another site, all or nothing: every journal is
checked (and upgraded, campaigns.versions) before anything is written; people are found or made as
replay_campaign does (--map, --create-people).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from campaigns import versions
from campaigns.errors import DomainError
from campaigns.models import Campaign, Club, Membership
from campaigns.schema.fields import text_problem
from campaigns.services import journal_files

FORMAT = "muster.club"
VERSION = 1
_EPOCH = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same archive for the same club
MAX_CAMPAIGNS = 1000
_MEMBER_KEYS = {"username", "email", "first_name", "last_name", "role", "joined_at"}


def export_club(club: Club) -> bytes:
    campaigns = list(
        Campaign.objects.filter(club=club)
        .select_related("club", "created_by")
        .order_by("created_at", "pk")
    )
    names = [f"campaigns/{index:03d}.json" for index in range(1, len(campaigns) + 1)]
    members = [
        {
            "username": m.user.username,
            "email": m.user.email,
            "first_name": m.user.first_name,
            "last_name": m.user.last_name,
            "role": m.role,
            "joined_at": m.joined_at.isoformat(),
        }
        for m in club.memberships.select_related("user").order_by("user__username")
    ]
    head = {
        "format": FORMAT,
        "version": VERSION,
        "muster": versions.release(),
        "club": {"slug": club.slug, "name": club.name, "created_at": club.created_at.isoformat()},
        "members": members,
        "campaigns": names,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        _write(archive, "club.json", head)
        for name, campaign in zip(names, campaigns):
            _write(archive, name, journal_files.export_journal(campaign))
    return buffer.getvalue()


def _write(archive: zipfile.ZipFile, name: str, document: Mapping[str, Any]) -> None:
    entry = zipfile.ZipInfo(name, date_time=_EPOCH)
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(
        entry, json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
    )


# --- reading an archive: checked, never trusted -------------------------------------------------------


def read_archive(raw: bytes) -> tuple[dict[str, Any], list[object]]:
    """(club.json, the journals) from an archive's bytes; DomainError naming what is wrong.
    Each journal is as read_journal reads it: replaying it checks the rest."""
    limit = settings.MUSTER_JOURNAL_MAX_BYTES
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        entries = {info.filename: info for info in archive.infolist()}
    except (zipfile.BadZipFile, ValueError):
        raise DomainError("file", "Not a Muster club archive (not a zip file).") from None
    if "club.json" not in entries:
        raise DomainError("file", "Not a Muster club archive (no club.json).")
    if len(entries) > MAX_CAMPAIGNS + 1 or sum(i.file_size for i in entries.values()) > limit * (
        MAX_CAMPAIGNS + 1
    ):
        raise DomainError("file", "Too large for a club archive.")

    def document(name: str) -> object:
        info = entries[name]
        if info.file_size > limit:
            raise DomainError(
                name, f"Larger than {limit // (1024 * 1024)} MB (MUSTER_JOURNAL_MAX_BYTES)."
            )
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
        if len(data) > limit:
            raise DomainError(name, "Larger than it says.")
        try:
            return journal_files.read_journal(data)
        except DomainError as error:
            raise DomainError(name, error.message) from None

    head = document("club.json")
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise DomainError("club.json", f"Not a Muster club archive (expected format {FORMAT!r}).")
    if head.get("version") != VERSION:
        raise DomainError(
            "club.json.version",
            f"A club archive of format version {head.get('version')!r}: this "
            f"Muster ({versions.release()}) reads version {VERSION}.",
        )
    club = head.get("club")
    if not isinstance(club, dict):
        raise DomainError("club.json.club", "Missing the club (slug, name).")
    for key in ("slug", "name"):
        _line(club.get(key), f"club.json.club.{key}")
    members = head.get("members")
    if not isinstance(members, list) or not members:
        raise DomainError("club.json.members", "A club has at least its organizer.")
    for index, member in enumerate(members):
        where = f"club.json.members[{index}]"
        if not isinstance(member, dict) or set(member) - _MEMBER_KEYS:
            raise DomainError(
                where, f"A member is {', '.join(sorted(_MEMBER_KEYS))} (and nothing else)."
            )
        _line(member.get("username"), f"{where}.username")
        if member.get("role") not in (Membership.ORGANIZER, Membership.PLAYER):
            raise DomainError(f"{where}.role", "organizer or player.")
        for key in ("email", "first_name", "last_name"):
            if not isinstance(member.get(key, ""), str) or len(member.get(key, "")) > 254:
                raise DomainError(f"{where}.{key}", "Text of at most 254 characters.")
    if not any(m["role"] == Membership.ORGANIZER for m in members):
        raise DomainError("club.json.members", "A club needs an organizer.")
    names = head.get("campaigns")
    if (
        not isinstance(names, list)
        or len(names) > MAX_CAMPAIGNS
        or any(n not in entries for n in names)
    ):
        raise DomainError("club.json.campaigns", "Must list the archive's campaign files.")
    journals = [document(name) for name in names]
    for name, journal in zip(names, journals):
        head_club = (
            (journal.get("campaign") or {}).get("club") if isinstance(journal, dict) else None
        )
        if not isinstance(head_club, dict) or head_club.get("slug") != club["slug"]:
            raise DomainError(f"{name}.campaign.club", "A campaign of another club.")
    return head, journals


def _line(value: object, where: str) -> str:
    if (
        not isinstance(value, str)
        or not value
        or len(value) > 150
        or text_problem(value, multiline=False)
    ):
        raise DomainError(where, "One line of text (at most 150 characters).")
    return value


def replay_club(
    raw: bytes,
    *,
    user_map: dict[str, str] | None = None,
    create_people: bool = False,
    dry_run: bool = False,
) -> tuple[Club | None, list[str]]:
    """Restore a club from its archive: the club, its members and roles, every campaign. All or
    nothing. -> (the club, or None on a dry run; what was (or would be) done, in sentences)."""
    user_map = user_map or {}
    head, journals = read_archive(raw)
    slug = head["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise DomainError("club.json.club.slug", f"A club {slug!r} already exists here.")
    members = {m["username"]: m for m in head["members"]}
    existing = _people_named(members, user_map, create_people)
    said = [
        f"Club “{head['club']['name']}” ({slug}), {len(members)} members, {len(journals)} campaigns."
    ]
    new_people = sorted(user_map.get(n, n) for n in members if user_map.get(n, n) not in existing)
    if new_people:
        said.append(
            f"People created without a password (they choose one with \"forgot password\"): "
            f"{', '.join(new_people)}."
        )
    with transaction.atomic():
        people = _people_made(members, user_map, existing)
        club = _club_with_members(head, members, people, user_map, new_people)
        for index, journal in enumerate(journals):
            said.append(_campaign_replayed(head, index, journal, user_map, slug, create_people))
        if dry_run:
            transaction.set_rollback(True)
            return None, said
    return Club.objects.get(pk=club.pk), said


def _people_named(
    members: Mapping[str, Mapping[str, Any]], user_map: Mapping[str, str], create_people: bool
) -> dict[str, User]:
    """The people of this site the archive's members are (by --map or by name), checked first:
    a name taken here must be mapped, a mapped name must exist, a missing one needs
    --create-people."""
    names = {user_map.get(n, n) for n in members}
    existing = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
    mapped = set(user_map.values())
    for old in members:
        name = user_map.get(old, old)
        if name in existing and name not in mapped:
            raise DomainError(
                "people",
                f"{name!r} is a person of this site: say whom the archive means with "
                f"--map {old}=USERNAME.",
            )
        if name not in existing and name in mapped:
            raise DomainError("map", f"--map …={name}: there is no person {name!r} here.")
        if name not in existing and not create_people:
            raise DomainError(
                "people",
                f"{name!r} is not a person of this site: map them (--map {old}=USERNAME) "
                "or pass --create-people.",
            )
    return existing


def _people_made(
    members: Mapping[str, Mapping[str, Any]],
    user_map: Mapping[str, str],
    existing: Mapping[str, User],
) -> dict[str, User]:
    """Every member as a person of this site: the existing ones, and the missing ones made
    without a password."""
    people = dict(existing)
    for old, member in members.items():
        name = user_map.get(old, old)
        if name not in people:
            user = get_user_model()(
                username=name,
                email=member.get("email", ""),
                first_name=member.get("first_name", ""),
                last_name=member.get("last_name", ""),
            )
            user.set_unusable_password()
            user.save()
            people[name] = user
    return people


def _club_with_members(
    head: Mapping[str, Any],
    members: Mapping[str, Mapping[str, Any]],
    people: Mapping[str, User],
    user_map: Mapping[str, str],
    new_people: list[str],
) -> Club:
    """The club made by the operator with its organizer, then every member with the role and the
    joining date of the archive."""
    from campaigns.services import clubs as club_services

    organizer = next(
        people[user_map.get(n, n)] for n, m in members.items() if m["role"] == Membership.ORGANIZER
    )
    club = club_services.operator_create_club(
        slug=head["club"]["slug"], name=head["club"]["name"], organizer=organizer
    )
    Club.objects.filter(pk=club.pk).update(
        created_at=_when(head["club"].get("created_at")) or club.created_at
    )
    for old, member in members.items():
        user = people[user_map.get(old, old)]
        membership = Membership.objects.filter(club=club, user=user).first()  # the organizer's
        if membership is None:
            membership = club_services.operator_add_member(
                club=club, user=user, journal_name=old, new_person=user.username in new_people
            )
        Membership.objects.filter(pk=membership.pk).update(
            role=member["role"],
            joined_at=_when(member.get("joined_at")) or membership.joined_at,
        )
    return club


def _campaign_replayed(
    head: Mapping[str, Any],
    index: int,
    journal: object,
    user_map: dict[str, str],
    slug: str,
    create_people: bool,
) -> str:
    """One campaign of the archive replayed into the club, said in a sentence; a refusal names the
    campaign's file."""
    try:
        replayed = journal_files.replay_journal(
            journal, user_map=user_map, club_slug=slug, create_people=create_people
        )
    except DomainError as error:
        raise DomainError(f"{head['campaigns'][index]} {error.field}", error.message) from None
    campaign = replayed.campaign
    upgrade = replayed.upgraded.summary()
    return (
        f"Campaign “{campaign.name}” ({campaign.system}): {campaign.last_seq} events"
        + (f"; journal {upgrade}" if upgrade else "")
        + "."
    )


def _when(value: object) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
