"""The campaign journal as a file (docs/journal.md): export, validate, replay.

A full export is the whole journal (for the referee, for a site operator's shell, and
for an organizer up to where every side agreed to it). A side's export holds only the
events that side may read, without sequence numbers (which would count the
other side's hidden events) and with event references given as uids.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from . import engine, visibility
from .errors import DomainError
from .models import Campaign, Club, Event, Membership
from .records import Record, Viewer
from .services import projections
from .services.state import current_state, load_records, store_snapshot

FORMAT = "muster.journal"
VERSION = 1
_EVENT_KEYS = {"seq", "uid", "kind", "at", "actor", "side", "audience", "data", "idempotency_key"}


def may_export_full(viewer: Viewer, state: dict) -> bool:
    return viewer.referee or (viewer.organizer and state.get("export_approved") is not None)


def export_journal(campaign: Campaign, viewer: Viewer | None = None) -> dict:
    """The journal as a dict; `viewer=None` is a site operator's full export.

    An organizer's full export (every side agreed to an ``export`` proposal) covers the
    journal as it was when the last side agreed: what happens after was never agreed to."""
    state = current_state(campaign)
    full = viewer is None or may_export_full(viewer, state)
    events = campaign.events.select_related("actor").order_by("seq")
    if not full:
        events = events.filter(visibility.audience_q(viewer))
    elif viewer is not None and not viewer.referee:
        events = events.filter(seq__lte=state["export_approved"])
    uid_of = dict(campaign.events.values_list("seq", "uid")) if not full else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "scope": "full" if full else f"side:{','.join(sorted(viewer.sides)) or 'club'}",
        "campaign": {
            "club": {"slug": campaign.club.slug, "name": campaign.club.name},
            "system": campaign.system,
            "variant": campaign.variant,
            "name": campaign.name,
            "created_by": campaign.created_by.username,
        },
        "events": [_event_dict(e, full, uid_of) for e in events],
    }


def _event_dict(event: Event, full: bool, uid_of: dict) -> dict:
    data = event.data
    if not full and event.kind.startswith("proposal."):
        data = {k: (str(uid_of[v]) if k in ("target", "proposal") and v in uid_of else v) for k, v in data.items()}
    entry = {
        "seq": event.seq, "uid": str(event.uid), "kind": event.kind, "at": event.created_at.isoformat(),
        "actor": event.actor.username, "side": event.side, "audience": event.audience, "data": data,
        "idempotency_key": event.idempotency_key,
    }
    if not full:
        del entry["seq"]
    return entry


# --- replay ---------------------------------------------------------------------------


def parse_journal(document, user_map: dict[str, str] | None = None) -> tuple[dict, list[Record]]:
    """Check a journal's shape and turn it into records; DomainError names the event and field."""
    user_map = user_map or {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DomainError("format", f"Not a Muster journal (expected format {FORMAT!r}).")
    if document.get("version") != VERSION:
        raise DomainError("version", f"Unsupported journal version {document.get('version')!r}.")
    if document.get("scope", "full") != "full":
        raise DomainError("scope", "This is one side's export; only a full export can be replayed.")
    head = document.get("campaign")
    if not isinstance(head, dict) or not isinstance(head.get("club"), dict):
        raise DomainError("campaign", "Missing the campaign header (club, system, variant, name, created_by).")
    for key in ("system", "variant", "name", "created_by"):
        if not isinstance(head.get(key), str) or not head[key]:
            raise DomainError(f"campaign.{key}", "Required text.")
    for key in ("slug", "name"):
        if not isinstance(head["club"].get(key), str) or not head["club"][key]:
            raise DomainError(f"campaign.club.{key}", "Required text.")
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise DomainError("events", "A journal needs at least its campaign.created event.")
    records = [_record(i, raw, user_map) for i, raw in enumerate(events)]
    if records[0].kind != "campaign.created":
        raise DomainError("events[0].kind", "A journal starts with campaign.created.")
    first = records[0].data
    if (first.get("system"), first.get("variant"), first.get("name")) != (head["system"], head["variant"], head["name"]):
        raise DomainError("events[0].data", "Differs from the campaign header.")
    return head, records


def _record(index: int, raw, user_map) -> Record:
    where = f"events[{index}]"
    if not isinstance(raw, dict):
        raise DomainError(where, "Must be an object.")
    unknown = set(raw) - _EVENT_KEYS
    if unknown:
        raise DomainError(f"{where}.{sorted(unknown)[0]}", "Unknown field.")
    if raw.get("seq") != index + 1:
        raise DomainError(f"{where}.seq", f"Expected {index + 1}: events are numbered 1, 2, 3… without gaps.")
    for key in ("kind", "actor", "at"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise DomainError(f"{where}.{key}", "Required text.")
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
    side = raw.get("side") or ""
    if raw.get("audience") == "side" and not side:
        raise DomainError(f"{where}.side", "A side-private event names its side.")
    try:
        uid = str(uuid.UUID(raw["uid"])) if raw.get("uid") else str(uuid.uuid4())
    except (ValueError, TypeError, AttributeError):
        raise DomainError(f"{where}.uid", "Not a UUID.") from None
    data = _map_users(raw["kind"], raw.get("data", {}), user_map)
    key = raw.get("idempotency_key")
    if key is not None and (not isinstance(key, str) or len(key) > 80):
        raise DomainError(f"{where}.idempotency_key", "Text of at most 80 characters.")
    return Record(
        seq=raw["seq"], kind=raw["kind"], data=data, actor=user_map.get(raw["actor"], raw["actor"]), side=side,
        audience=raw.get("audience", "public"), at=at.isoformat(), uid=uid,
    )


_USER_FIELDS = {"player.assigned": ("username",), "player.removed": ("username",),
                "player.replaced": ("old", "new"), "referee.assigned": ("username",)}


def _map_users(kind, data, user_map):
    fields = _USER_FIELDS.get(kind, ())
    return {k: (user_map.get(v, v) if k in fields and isinstance(v, str) else v) for k, v in data.items()}


def replay(document, *, user_map: dict[str, str] | None = None, club_slug: str | None = None) -> Campaign:
    """Build a new campaign from a journal. All or nothing."""
    head, records = parse_journal(document, user_map)
    try:
        state = engine.fold(records)
    except engine.JournalError as error:
        raise DomainError(f"events[{error.record.seq - 1}].{error.inner.field}",
                          f"({error.record.kind}) {error.inner.message}") from None
    creator = (user_map or {}).get(head["created_by"], head["created_by"])
    usernames = {r.actor for r in records} | {creator} | set(_people_in(state))
    try:
        with transaction.atomic():
            users = _ensure_users(usernames)
            club = _ensure_club(club_slug or head["club"]["slug"], head["club"]["name"], users[creator])
            for name, user in users.items():
                Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.PLAYER})
            campaign = Campaign.objects.create(
                club=club, system=head["system"], variant=head["variant"], name=head["name"],
                created_by=users[creator], created_at=datetime.fromisoformat(records[0].at),
            )
            Event.objects.bulk_create([
                Event(campaign=campaign, seq=r.seq, kind=r.kind, data=r.data, actor=users[r.actor], side=r.side,
                      audience=r.audience, created_at=datetime.fromisoformat(r.at),
                      idempotency_key=raw.get("idempotency_key"), uid=r.uid)
                for r, raw in zip(records, document["events"])
            ])
            campaign.last_seq = records[-1].seq
            store_snapshot(campaign, state)
            projections.refresh(campaign, state)
    except IntegrityError:
        raise DomainError("events", "This journal's events are already in this database (same event uids).") from None
    return campaign


def _people_in(state) -> list[str]:
    names = [n for side in state["sides"].values() for n in side["players"]]
    return names + ([state["referee"]] if state["referee"] else [])


def _ensure_users(usernames) -> dict:
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=usernames)}
    for name in sorted(set(usernames) - set(users)):
        user = User(username=name)
        user.set_unusable_password()  # a replayed person has no password until reset
        user.save()
        users[name] = user
    return users


def _ensure_club(slug, name, creator) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        club = Club.objects.create(slug=slug, name=name)
        Membership.objects.create(club=club, user=creator, role=Membership.ORGANIZER)
    return club


def full_state(campaign: Campaign) -> dict:
    """For the replay command's output: the whole folded state."""
    return engine.fold(load_records(campaign))
