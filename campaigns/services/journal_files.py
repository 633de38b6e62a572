"""The campaign journal as a file (docs/journal.md): export, validate, replay.

A full export is the whole journal (for the referee, for a site operator's shell, and
for an organizer up to where every side agreed to it). A side's export holds only the
events that side may read, without sequence numbers (which would count the
other side's hidden events) and with event references given as uids.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import versions
from campaigns.access import visibility
from campaigns.dice.pool import DicePool
from campaigns.errors import DomainError
from campaigns.journal import engine
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import CampaignState
from campaigns.models import Campaign, Club, Event
from campaigns.schema.fields import (
    EVENT_MAX_BYTES,
    JSON_MAX_DEPTH,
    check_json,
    parse_json,
    shown_key,
    text_problem,
)
from campaigns.services import clubs as club_services, projections
from campaigns.services.snapshots import store_snapshot
from campaigns.services.state import current_state, load_records
from campaigns.systems import get_system
from campaigns.versions import upgrading

FORMAT = "muster.journal"
VERSION = (
    1  # the file format's own version (the envelope); the journals' versions are in "journals"
)
_EVENT_KEYS = {"seq", "uid", "kind", "at", "actor", "side", "audience", "data", "idempotency_key"}


def may_export_full(viewer: Viewer, state: CampaignState, campaign: Campaign) -> bool:
    """The referee; an organizer once every side agreed, if they were organizer then already."""
    return viewer.referee or visibility.organizer_when_export_agreed(
        campaign, viewer, state.get("export_approved")
    )


def export_journal(campaign: Campaign, viewer: Viewer | None = None) -> dict[str, Any]:
    """The journal as a dict; `viewer=None` is a site operator's full export.

    An organizer's full export (every side agreed to an ``export`` proposal) covers the
    journal as it was when the last side agreed: what happens after was never agreed to."""
    state = current_state(campaign)
    full = viewer is None or may_export_full(viewer, state, campaign)
    events = campaign.events.select_related("actor").order_by("seq")
    scope = "full"
    if viewer is not None and not full:
        events = events.filter(visibility.audience_q(viewer))
        scope = f"side:{','.join(sorted(viewer.sides)) or 'club'}"
    elif viewer is not None and not viewer.referee:
        events = events.filter(seq__lte=state["export_approved"])
    uid_of = dict(campaign.events.values_list("seq", "uid")) if not full else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "muster": campaign.muster_release or versions.release(),
        "journals": campaign.journal_versions or versions.current(get_system(campaign.system)),
        "scope": scope,
        "campaign": {
            "club": {"slug": campaign.club.slug, "name": campaign.club.name},
            "system": campaign.system,
            "variant": campaign.variant,
            "name": campaign.name,
            "created_by": campaign.created_by.username,
        },
        "events": [_event_dict(e, full, uid_of) for e in events],
    }


def _event_dict(event: Event, full: bool, uid_of: Mapping[int, uuid.UUID]) -> dict[str, Any]:
    data = event.data
    if not full and event.kind.startswith("proposal."):
        data = {
            k: (str(uid_of[v]) if k in ("target", "proposal") and v in uid_of else v)
            for k, v in data.items()
        }
    entry = {
        "seq": event.seq,
        "uid": str(event.uid),
        "kind": event.kind,
        "at": event.created_at.isoformat(),
        "actor": event.actor.username,
        "side": event.side,
        "audience": event.audience,
        "data": data,
        "idempotency_key": event.idempotency_key,
    }
    if not full:
        del entry["seq"]
    return entry


# --- replay ---------------------------------------------------------------------------
# A journal file is checked, never trusted: its shape, every value's bounds, its times, who
# is who (only as the operator says), and where every event is filed (audience and side
# follow from the kind and the rules: campaigns.journal.engine.filing, and for dice whose roll it is).

MAX_DEPTH = 64  # a journal nests its events' data a few levels deep
CLOCK_SKEW = timedelta(minutes=5)  # clocks that step back a little, or run a little fast
EARLIEST = datetime(2020, 1, 1, tzinfo=UTC)  # before Muster's journal format existed
NAME_MAX = 150  # a username (Django's limit)


def read_journal(raw: bytes) -> object:
    """A journal file's bytes as a document, any JSON value until parse_journal checks it
    (DomainError naming what is wrong with it)."""
    limit = settings.MUSTER_JOURNAL_MAX_BYTES
    if len(raw) > limit:
        raise DomainError(
            "file", f"Larger than {limit // (1024 * 1024)} MB (MUSTER_JOURNAL_MAX_BYTES)."
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DomainError("file", f"Not UTF-8 text (byte {error.start}).") from None
    try:
        return parse_json(text, max_depth=MAX_DEPTH)
    except json.JSONDecodeError as error:
        raise DomainError("file", f"Not valid JSON (line {error.lineno}: {error.msg}).") from None
    except ValueError as error:
        raise DomainError("file", f"Not a journal: {error}.") from None


def parse_journal(
    document: object, user_map: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[Record]]:
    """Check a journal's shape and turn it into records; DomainError names the event and field."""
    user_map = user_map or {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DomainError("format", f"Not a Muster journal (expected format {FORMAT!r}).")
    if document.get("version") != VERSION:
        raise DomainError(
            "version",
            f"A journal file of format version {document.get('version')!r}: this Muster "
            f"({versions.release()}) reads format version {VERSION}. A newer format comes "
            "from a newer Muster: upgrade Muster here (docs/operations.md) to replay it.",
        )
    if "muster" in document:
        _text(document["muster"], "muster", 40)
    if document.get("scope", "full") != "full":
        raise DomainError("scope", "This is one side's export; only a full export can be replayed.")
    head = document.get("campaign")
    if not isinstance(head, dict) or not isinstance(head.get("club"), dict):
        raise DomainError(
            "campaign", "Missing the campaign header (club, system, variant, name, created_by)."
        )
    for key in ("system", "variant", "name", "created_by"):
        _text(head.get(key), f"campaign.{key}")
    for key in ("slug", "name"):
        _text(head["club"].get(key), f"campaign.club.{key}")
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise DomainError("events", "A journal needs at least its campaign.created event.")
    records = [_record(i, raw, user_map) for i, raw in enumerate(events)]
    if records[0].kind != "campaign.created":
        raise DomainError("events[0].kind", "A journal starts with campaign.created.")
    first = records[0].data
    if (first.get("system"), first.get("variant"), first.get("name")) != (
        head["system"],
        head["variant"],
        head["name"],
    ):
        raise DomainError("events[0].data", "Differs from the campaign header.")
    _check_times(records)
    _check_unique(events, records)
    return head, records


def _check_unique(events: list[Any], records: list[Record]) -> None:
    """No two events with one uid, and no person's idempotency key twice (a key is per person:
    two people may each have used the same one), each refusal naming what is repeated."""
    uids: dict[str, int] = {}
    keys: dict[tuple[str, str], int] = {}
    for index, (raw, record) in enumerate(zip(events, records, strict=True)):
        if raw.get("uid"):
            if record.uid in uids:
                raise DomainError(
                    f"events[{index}].uid",
                    f"The uid {record.uid} is also events[{uids[record.uid]}]'s.",
                )
            uids[record.uid] = index
        key = raw.get("idempotency_key")
        if key:
            earlier = keys.setdefault((record.actor, key), index)
            if earlier != index:
                raise DomainError(
                    f"events[{index}].idempotency_key",
                    f"{record.actor} used the idempotency key {key!r} twice: here and at "
                    f"events[{earlier}].",
                )


def _text(value: object, where: str, most: int = NAME_MAX) -> str:
    if not isinstance(value, str) or not value:
        raise DomainError(where, "Required text.")
    if len(value) > most:
        raise DomainError(where, f"At most {most} characters.")
    problem = text_problem(value, multiline=False)
    if problem:
        raise DomainError(where, problem)
    return value


def _record(index: int, raw: object, user_map: Mapping[str, str]) -> Record:
    where = f"events[{index}]"
    if not isinstance(raw, dict):
        raise DomainError(where, "Must be an object.")
    unknown = set(raw) - _EVENT_KEYS
    if unknown:
        raise DomainError(f"{where}.{shown_key(sorted(unknown)[0])}", "Unknown field.")
    if raw.get("seq") != index + 1:
        raise DomainError(
            f"{where}.seq", f"Expected {index + 1}: events are numbered 1, 2, 3… without gaps."
        )
    _text(raw.get("kind"), f"{where}.kind", 60)
    _text(raw.get("actor"), f"{where}.actor")
    _text(raw.get("at"), f"{where}.at", 40)
    try:
        at = datetime.fromisoformat(raw["at"])
    except ValueError:
        raise DomainError(f"{where}.at", "Not an ISO 8601 time.") from None
    if at.tzinfo is None:
        raise DomainError(f"{where}.at", "Give the time zone (e.g. +00:00).")
    if raw.get("audience", "public") not in ("public", "side", "referee"):
        raise DomainError(f"{where}.audience", "One of public, side, referee.")
    if not isinstance(raw.get("data", {}), dict):
        raise DomainError(f"{where}.data", "Must be an object.")
    check_json(
        raw.get("data", {}),
        f"{where}.data",
        max_bytes=EVENT_MAX_BYTES,
        max_depth=JSON_MAX_DEPTH + 2,
    )
    side = raw.get("side") or ""
    if not isinstance(side, str) or len(side) > 40:
        raise DomainError(f"{where}.side", "A side's slug.")
    try:
        uid = str(uuid.UUID(raw["uid"])) if raw.get("uid") else str(uuid.uuid4())
    except (ValueError, TypeError, AttributeError):
        raise DomainError(f"{where}.uid", "Not a UUID.") from None
    data = _map_users(raw["kind"], raw.get("data", {}), user_map)
    key = raw.get("idempotency_key")
    if key is not None and (not isinstance(key, str) or len(key) > 80):
        raise DomainError(f"{where}.idempotency_key", "Text of at most 80 characters.")
    return Record(
        seq=raw["seq"],
        kind=raw["kind"],
        data=data,
        actor=user_map.get(raw["actor"], raw["actor"]),
        side=side,
        audience=raw.get("audience", "public"),
        at=at.isoformat(),
        uid=uid,
    )


def _check_times(records: list[Record]) -> None:
    """Times a journal can have: none before 2020 (a reset clock), none before the campaign's
    creation or more than CLOCK_SKEW before the event it follows, none later than now + CLOCK_SKEW."""
    latest = timezone.now() + CLOCK_SKEW
    created = datetime.fromisoformat(records[0].at)
    previous = created
    for index, record in enumerate(records):
        at = datetime.fromisoformat(record.at)
        if at < EARLIEST:
            raise DomainError(f"events[{index}].at", "Before 2020: not a time Muster wrote.")
        if at > latest:
            raise DomainError(f"events[{index}].at", "In the future.")
        if at < created - CLOCK_SKEW or at < previous - CLOCK_SKEW:
            raise DomainError(f"events[{index}].at", "Earlier than the event before it.")
        previous = max(previous, at)


_USER_FIELDS = {
    "player.assigned": ("username",),
    "player.removed": ("username",),
    "player.replaced": ("old", "new"),
    "referee.assigned": ("username",),
}


def _map_users(kind: str, data: dict[str, Any], user_map: Mapping[str, str]) -> dict[str, Any]:
    if (
        kind == "proposal.made"
        and data.get("action") == "seat"
        and isinstance(data.get("data"), dict)
    ):
        change = data["data"]
        inner = change.get("data")
        if isinstance(inner, dict):
            return {
                **data,
                "data": {**change, "data": _map_users(change.get("kind"), inner, user_map)},
            }
        return data
    fields = _USER_FIELDS.get(kind, ())
    return {
        k: (user_map.get(v, v) if k in fields and isinstance(v, str) else v)
        for k, v in data.items()
    }


def fold_checked(records: list[Record]) -> CampaignState:
    """Fold a journal file, holding its dice to the rules: the journal is folded, and so is every
    history a correction or undo replaced (the journal up to each applied one), noting whose side
    the rules roll each die for; each dice.rolled event must be filed under that side, and be
    used at all. Every other event's filing is checked by the fold (engine.filing)."""
    pool = DicePool.from_records(records)
    made = {r.seq: r for r in records if r.kind == "proposal.made"}
    cuts = [
        i
        for i, r in enumerate(records)
        if r.kind == "proposal.applied"
        and r.data.get("proposal") in made
        and made[r.data["proposal"]].data.get("action") in ("correct", "undo")
    ]
    # A history cut before its "fold" upgrade marker still folds under the versions the marker
    # names (campaigns.versions): the whole journal says which rules its early events keep.
    start = versions.start_versions(records)
    for cut in cuts:
        engine.fold(records[:cut], pool=pool, start_versions=start)
    state = engine.fold(records, pool=pool)
    server_dice = state["options"].get("dice_mode", "server") == "server"
    for record in records:  # each refusal names its event (its place in the file: _refusal)
        if record.kind != "dice.rolled":
            continue
        key = record.data.get("key")
        if server_dice and record.data.get("source") == "entered":
            # Nobody types in a die where Muster rolls them: such a file chose its own dice.
            raise engine.JournalError(
                record,
                DomainError(
                    "data.source",
                    "A die entered at the table, but Muster rolls this campaign's dice (dice mode "
                    '"server", events[0].data.options): it cannot be entered.',
                ),
            )
        if key not in pool.requested:
            raise engine.JournalError(
                record, DomainError("data.key", "No step of this journal rolls this die.")
            )
        owner = pool.requested[key]
        if record.side != owner:
            whose = f"side {owner}" if owner else "no side (a public roll)"
            raise engine.JournalError(
                record, DomainError("side", f"The rules roll {key} for {whose}.")
            )
    return state


_EVENT_FIELDS = ("kind", "side", "audience", "actor", "at", "uid", "seq", "data")


def event_path(field: str) -> str:
    """A fold's error names a field of the event's data ("rg", "stacks[1].units") or of the event
    itself ("side", "kind"): in a journal file both are paths from the event ("data.rg"), as in
    docs/journal.md."""
    head = field.split(".")[0].split("[")[0]
    if head in _EVENT_FIELDS or field.startswith("event"):
        return field
    return f"data.{field}"


@dataclass
class ReplayPlan:
    """What replaying a journal file would write, worked out and checked before anything is written."""

    head: dict[str, Any]
    records: list[Record]  # the journal as it is written here (upgraded to today's versions)
    state: CampaignState
    upgraded: upgrading.Upgraded
    club: Club | None  # the existing club it goes into; None: the journal's club is created
    users: dict[str, User]  # username -> existing User
    new_people: list[str]  # usernames created (with --create-people)
    new_members: list[str]  # usernames made members of the club
    keys: dict[str, str | None]  # uid -> idempotency key

    def describe(self) -> list[str]:
        """What would be written, in sentences (replay_campaign --dry-run)."""
        club = (
            f"into the existing club {self.club.name} ({self.club.slug})"
            if self.club is not None
            else f"into a new club {self.head['club']['name']} ({self.head['club']['slug']})"
        )
        lines = [
            f"Would create the campaign “{self.head['name']}” ({self.head['system']}, {self.head['variant']}) "
            f"{club}, with {len(self.records)} events."
        ]
        if self.upgraded.ran:
            lines.append(f"Journal {self.upgraded.summary()}.")
        if self.new_people:
            lines.append(
                f"Would create {len(self.new_people)} people without a password: "
                f"{', '.join(self.new_people)}."
            )
        if self.new_members:
            lines.append(f"Would make members of the club: {', '.join(self.new_members)}.")
        lines.append(
            f"State after the journal: {self.state['status']}, "
            f"{sum(1 for s in self.state['scenarios'] if s['status'] == 'played')} of "
            f"{len(self.state['scenarios'])} scenarios played."
        )
        return lines


def plan_replay(
    document: object,
    *,
    user_map: dict[str, str] | None = None,
    club_slug: str | None = None,
    create_club: bool = False,
    create_people: bool = False,
) -> ReplayPlan:
    """Check a journal and work out everything replaying it would write; writes nothing.

    A journal of earlier versions (or from before journals said their versions) is upgraded to
    today's first (campaigns.versions); one from a newer Muster, or one no upgrade carries, is
    refused naming the version and what to do."""
    user_map = user_map or {}
    head, records = parse_journal(document, user_map)
    assert isinstance(document, dict)  # parse_journal refuses anything else
    try:
        system = get_system(head["system"])
    except KeyError:
        raise DomainError(
            "campaign.system",
            f"No game system {head['system']!r} in this Muster ({versions.release()}).",
        ) from None
    start = None
    if "journals" in document:
        start = versions.check_versions(
            document["journals"], system, written_by=document.get("muster", "")
        )
    index_of = {r.uid: i for i, r in enumerate(records)}
    try:
        upgraded, state = upgrading.carry(records, system, start, fold_checked)
    except upgrading.FitsNoVersion as error:
        # From before versions and fitting none: the refusal where it got furthest, and as what.
        field, message = _refusal(error.refusal, index_of)
        fix = ", or correct that event." if error.own else "."
        raise DomainError(
            field,
            f"{error.words('file')}{message} Replay it with the Muster release that wrote it{fix}",
        ) from None
    except engine.JournalError as error:
        raise DomainError(*_refusal(error, index_of)) from None
    creator = user_map.get(head["created_by"], head["created_by"])
    names = {r.actor for r in upgraded.records} | {creator} | set(_people_in(state))
    club = _existing_club(head, club_slug, create_club)
    users, new_people = _people_for(club, names, user_map, create_people)
    members = set(club.memberships.values_list("user__username", flat=True)) if club else set()
    keys = {
        raw.get("uid"): raw.get("idempotency_key") for raw in document["events"] if raw.get("uid")
    }
    return ReplayPlan(
        head,
        upgraded.records,
        state,
        upgraded,
        club,
        users,
        sorted(new_people),
        sorted((set(users) | set(new_people)) - members),
        keys,
    )


def _refusal(error: DomainError, index_of: Mapping[str, int]) -> tuple[str, str]:
    """(field, message) of a refusal of the journal: an event that does not fit is named by its
    place in the file and its kind ("events[12].data.rg", "(ap.purchase) …")."""
    if not isinstance(error, engine.JournalError):
        return error.field, error.message
    where = index_of.get(error.record.uid)
    path = f"events[{where}]" if where is not None else "events (as upgraded)"
    kind = error.record.kind
    if kind == "dice.rolled" and isinstance(error.record.data.get("key"), str):
        kind = f"{kind} {error.record.data['key']}"  # which roll
    return f"{path}.{event_path(error.inner.field)}", f"({kind}) {error.inner.message}"


@dataclass(frozen=True)
class Replayed:
    """A campaign built from a journal file, and what upgrade its journal went through."""

    campaign: Campaign
    upgraded: upgrading.Upgraded


def replay(
    document: object,
    *,
    user_map: dict[str, str] | None = None,
    club_slug: str | None = None,
    create_club: bool = False,
    create_people: bool = False,
) -> Campaign:
    """Build a new campaign from a journal (replay_journal, for whom the upgrade does not matter)."""
    return replay_journal(
        document,
        user_map=user_map,
        club_slug=club_slug,
        create_club=create_club,
        create_people=create_people,
    ).campaign


def replay_journal(
    document: object,
    *,
    user_map: dict[str, str] | None = None,
    club_slug: str | None = None,
    create_club: bool = False,
    create_people: bool = False,
) -> Replayed:
    """Build a new campaign from a journal. All or nothing.

    People and clubs are found or made only as the operator says: the journal's club is
    created with `create_club` (or `club_slug` names an existing one); a person named in the
    journal is `user_map`'s choice, else an existing member of that club with the same
    username, else created with `create_people`. Everything made is recorded in the club log.
    The answer says what upgrade ran (campaigns.versions.upgrading.Upgraded)."""
    plan = plan_replay(
        document,
        user_map=user_map,
        club_slug=club_slug,
        create_club=create_club,
        create_people=create_people,
    )
    user_map = user_map or {}
    head, records, state = plan.head, plan.records, plan.state
    with transaction.atomic():
        users, club = _people_and_club(plan, user_map)
        creator = user_map.get(head["created_by"], head["created_by"])
        campaign = Campaign.objects.create(
            club=club,
            system=head["system"],
            variant=head["variant"],
            name=head["name"],
            created_by=users[creator],
            created_at=datetime.fromisoformat(records[0].at),
            journal_versions=plan.upgraded.versions,
            muster_release=versions.release(),
        )
        _write_events(campaign, records, users, plan.keys)
        campaign.last_seq = records[-1].seq
        store_snapshot(campaign, state)
        projections.refresh(campaign, state)
        club_services.log_campaign_replayed(club=club, campaign=campaign, events=len(records))
    return Replayed(campaign, plan.upgraded)


def _people_and_club(plan: ReplayPlan, user_map: Mapping[str, str]) -> tuple[dict[str, User], Club]:
    """The people the plan makes (without a password until they reset it), and the club the
    campaign goes to (made by the operator when the plan says so) with every person a member."""
    head = plan.head
    creator = user_map.get(head["created_by"], head["created_by"])
    users = dict(plan.users)
    for name in plan.new_people:
        user = get_user_model()(username=name)
        user.set_unusable_password()  # a replayed person has no password until reset
        user.save()
        users[name] = user
    club = plan.club
    if club is None:
        club = club_services.operator_create_club(
            slug=head["club"]["slug"], name=head["club"]["name"], organizer=users[creator]
        )
    members = set(club.memberships.values_list("user__username", flat=True))
    reverse = {new: old for old, new in user_map.items()}
    for name in sorted(set(users) - members):
        club_services.operator_add_member(
            club=club,
            user=users[name],
            new_person=name in plan.new_people,
            journal_name=reverse.get(name, name),
        )
    return users, club


def _write_events(
    campaign: Campaign,
    records: list[Record],
    users: Mapping[str, User],
    keys: Mapping[str, str | None],
) -> None:
    """The journal's events as rows, all at once; a journal already in this database (the same
    event uids) is refused."""
    try:
        with transaction.atomic():
            Event.objects.bulk_create(
                [
                    Event(
                        campaign=campaign,
                        seq=r.seq,
                        kind=r.kind,
                        data=r.data,
                        actor=users[r.actor],
                        side=r.side,
                        audience=r.audience,
                        created_at=datetime.fromisoformat(r.at),
                        idempotency_key=keys.get(r.uid),
                        uid=r.uid,
                    )
                    for r in records
                ]
            )
    except IntegrityError:
        raise DomainError(
            "events", "This journal's events are already in this database (same event uids)."
        ) from None


def _people_in(state: CampaignState) -> list[str]:
    names = [n for side in state["sides"].values() for n in side["players"]]
    names += list(state.get("played", {})) + list(state.get("refereed", []))
    return names + ([state["referee"]] if state["referee"] else [])


def _existing_club(
    head: Mapping[str, Any], club_slug: str | None, create_club: bool
) -> Club | None:
    """The club named with --club, or None when the journal's own club is to be created."""
    if club_slug:
        club = Club.objects.filter(slug=club_slug).first()
        if club is None:
            raise DomainError("club", f"No club {club_slug!r} (--club names an existing club).")
        return club
    slug = head["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise DomainError(
            "campaign.club.slug",
            f"A club {slug!r} already exists here: replay into it with "
            f"--club {slug} if it is the same club.",
        )
    if not create_club:
        raise DomainError(
            "campaign.club.slug",
            f"No club {slug!r} here: pass --create-club to create it, or "
            "--club SLUG to replay into an existing club.",
        )
    return None


def _people_for(
    club: Club | None, names: set[str], user_map: Mapping[str, str], create_people: bool
) -> tuple[dict[str, User], set[str]]:
    """(username -> User for every existing person the journal names (names already mapped), the
    names to create). A name is whom --map says; else an existing member of the club; else a new person
    with --create-people. Anyone else is refused: a same-named person of another club is not
    assumed to be the journal's."""
    mapped = set(user_map.values())
    members = set(club.memberships.values_list("user__username", flat=True)) if club else set()
    existing = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
    users: dict[str, User] = {}
    created: set[str] = set()
    for name in sorted(names):
        _text(name, "people")
        user = existing.get(name)
        if name in mapped:
            if user is None:
                raise DomainError("map", f"--map …={name}: there is no person {name!r} here.")
        elif user is not None:
            if name not in members:
                where = f"a member of {club.name}" if club else "in the new club"
                raise DomainError(
                    "people",
                    f"{name!r} is a person of this site but not {where}: say whom the "
                    f"journal means with --map {name}=USERNAME.",
                )
        elif create_people:
            created.add(name)  # created by replay, after every check
            continue
        else:
            raise DomainError(
                "people",
                f"{name!r} is not a person of this site: map them (--map {name}=USERNAME) "
                "or pass --create-people.",
            )
        users[name] = user
    return users, created


def full_state(campaign: Campaign) -> CampaignState:
    """For the replay command's output: the whole folded state."""
    return engine.fold(load_records(campaign))
