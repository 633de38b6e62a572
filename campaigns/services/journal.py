"""Appending to a campaign's journal: the only way a campaign changes.

``submit`` checks who may do what, folds the new event onto the current state
(refusing it with a DomainError if it does not fit), provides its dice, writes
the event and any follow-ups it triggers (dice records, a sealed-choice reveal,
an agreed proposal) in one transaction, and refreshes the projections.

The campaign row is locked for the moment of the append (SELECT ... FOR UPDATE on
PostgreSQL; SQLite serialises writers), so submissions never interleave. Staleness
is checked per stream: a side's client sends the version of its own side's stream,
so the other side working at the same time never causes a conflict.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.access import permissions, seats, visibility
from campaigns.access.visibility import Person
from campaigns.dice.pool import DicePool, LiveProvider, NewRoll
from campaigns.journal import engine, holdings
from campaigns.journal.core_events import KINDS as CORE_KINDS
from campaigns.journal.proposals import is_complete, stand_in_may_answer
from campaigns.journal.records import Record, Viewer
from campaigns.journal.state_shapes import CampaignState, Proposal
from campaigns.schema.fields import EVENT_MAX_BYTES, JSON_MAX_DEPTH, EventKind, check_json

from ..errors import Conflict, DiceNeeded, DomainError, Forbidden
from ..models import Campaign, Event
from ..systems import get_system
from ..systems.base import EventToSend, GameSystem
from . import folded_state, odds, projections, seat_log
from .snapshots import EncodedPart, encoded_parts, store_after_append, unshare
from .state import ForAppend, load_records, state_and_dice


@dataclass
class Submission:
    events: list[Event] = field(default_factory=list)
    state: CampaignState | None = None  # None when nothing new was written (replayed)
    replayed: bool = False  # the idempotency key had been used: nothing new was written
    # The campaign as the change left it, and the submitter as it sees them, when the change
    # seated or unseated nobody (the answer then needs no second look-up); otherwise None.
    after: tuple[Campaign, Viewer] | None = None


def submit(
    campaign: Campaign,
    user: Person,
    kind: str,
    data: dict[str, Any] | None = None,
    *,
    side: str | None = None,
    dice: dict[str, Any] | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Submission:
    _check_door(kind, data, side, dice)
    if kind in CORE_KINDS and CORE_KINDS[kind].actor == "system":
        raise DomainError("kind", "This event is written by Muster itself.")
    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 80
    ):
        raise DomainError("idempotency_key", "At most 80 characters.")
    try:
        with transaction.atomic():
            # The row locked and who the user is in it, in one query (not a member: not found).
            locked, viewer = visibility.campaign_and_viewer(user, campaign.pk, lock=True)
            assert isinstance(user, User)  # a member of the campaign's club: signed in
            if idempotency_key:
                existing = list(locked.events.filter(idempotency_key=idempotency_key, actor=user))
                if existing:
                    return Submission(existing, None, replayed=True)
            if locked.archived_at is not None:  # the club's books: read it, or restore it first
                raise DomainError(
                    "campaign", "This campaign is archived: an organizer restores it first."
                )
            return _submit_locked(
                locked,
                user,
                viewer,
                kind,
                data or {},
                side,
                dice,
                expected_version,
                idempotency_key,
            )
    except IntegrityError:
        # Two requests with one idempotency key raced past the check: the other won (a write
        # was tried, so the user is a signed-in member).
        if idempotency_key and isinstance(user, User):
            existing = list(campaign.events.filter(idempotency_key=idempotency_key, actor=user))
            if existing:
                return Submission(existing, None, replayed=True)
        raise


def submit_then(
    campaign: Campaign,
    user: Person,
    kind: str,
    data: dict[str, Any] | None,
    then: Iterable[EventToSend] = (),
    *,
    before: Iterable[EventToSend] = (),
    side: str | None = None,
    dice: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> list[Submission]:
    """One event with fixed events before it (a "Continue" folded into the decision after it) and
    after it (a second button's: "Buy and finish buying" is the purchase, then "Done buying"), in
    one transaction: all are written or none. Entered dice go to the form's own event; the others
    must roll none of their own (a die they need is asked for through DiceNeeded, nothing written)."""

    def key(part: str) -> str | None:
        return f"{idempotency_key[:70]}/{part}" if idempotency_key else None

    def fixed(k: str, d: dict[str, Any], part: str) -> Submission:
        try:
            return submit(campaign, user, k, dict(d), side=side, idempotency_key=key(part))
        except DiceNeeded:
            raise
        except (
            DomainError
        ) as error:  # about an event the form does not show: said on the form itself
            raise DomainError("", error.message) from error

    with transaction.atomic():
        done = [fixed(k, d, f"before{n}") for n, (k, d) in enumerate(before, 1)]
        done.append(
            submit(
                campaign, user, kind, data, side=side, dice=dice, idempotency_key=idempotency_key
            )
        )
        done.extend(fixed(k, d, f"then{n}") for n, (k, d) in enumerate(then, 1))
    return done


DICE_MAX_KEYS = (
    200  # dice entered in one submission: every die of 1.6201-1.6206 of a large purchase at once
)


def _check_door(kind: object, data: object, side: object, dice: object) -> None:
    """Bounds on everything a person sends, before anything is looked up: an event's data
    (schema.EVENT_MAX_BYTES), the side, the kind and entered dice."""
    if not isinstance(kind, str) or not 1 <= len(kind) <= 60:
        raise DomainError("kind", "Unknown event kind.")
    if side is not None and (not isinstance(side, str) or len(side) > 40):
        raise DomainError("side", "Unknown side.")
    if data is not None:
        if not isinstance(data, dict):
            raise DomainError("data", "Must be an object.")
        check_json(data, "", max_bytes=EVENT_MAX_BYTES, max_depth=JSON_MAX_DEPTH + 2)
    if dice is not None:
        if not isinstance(dice, dict) or len(dice) > DICE_MAX_KEYS:
            raise DomainError("dice", f"At most {DICE_MAX_KEYS} rolls, as {{key: [faces]}}.")
        for key, faces in dice.items():
            if (
                not isinstance(key, str)
                or len(key) > 200
                or not isinstance(faces, list)
                or len(faces) > 20
            ):
                raise DomainError(
                    "dice", "Each roll is a key (at most 200 characters) and its faces."
                )
        check_json(dice, "dice", max_depth=2)


def _submit_locked(
    campaign: Campaign,
    user: User,
    viewer: Viewer,
    kind: str,
    data: dict[str, Any],
    side: str | None,
    dice: dict[str, Any] | None,
    expected_version: int | None,
    idempotency_key: str | None,
) -> Submission:
    data = _resolve_uids(campaign, viewer, kind, data)
    journal = _Journal(campaign)
    read = state_and_dice(campaign)
    state = read.state
    system = get_system(campaign.system)
    kind_def = CORE_KINDS.get(kind) or system.event_kind(kind)
    if kind_def is None:
        raise DomainError("kind", f"Unknown event kind {kind!r}.")
    acting_side = _acting_side(kind_def, viewer, side, state, campaign)
    if kind == "proposal.made" and data.get("action") == "seat" and not viewer.organizer:
        raise Forbidden("Only a club organizer seats people.")
    _check_taking_off(campaign, viewer, kind, data, state)
    _check_ending(campaign, viewer, kind, data, state)
    _check_amending_seats(campaign, viewer, kind, data)
    _check_version(state, acting_side, expected_version)
    if dice and state["options"].get("dice_mode", "server") == "server":
        # Where Muster rolls the dice, a player never picks their own.
        raise DomainError("dice", "Muster rolls this campaign's dice: none can be entered.")
    audience, acting_side = _audience(kind_def, acting_side, data, journal, viewer)
    now = timezone.now()
    record = Record(
        seq=campaign.last_seq + 1,
        kind=kind,
        data=data,
        actor=user.username,
        side=acting_side,
        audience=audience,
        at=now.isoformat(),
        uid=str(uuid.uuid4()),
    )
    writer = _Writer(campaign, user, viewer, journal, read, dice)
    writer.append(record, idempotency_key)
    writer.follow_ups(record)
    writer.system_follow_ups(record, system)
    writer.provider.finish()  # every entered die was used, by the event or its follow-ups
    writer.folded()
    holdings.check(
        system, writer.before, writer.state
    )  # here, never in the fold: old journals replay
    writer.save()
    odds.enqueue(campaign, before=writer.positions_before)  # after commit: the sides that moved
    folded_state.release()
    same_people = projections.same_people(writer.before, writer.state)
    return Submission(
        writer.events, writer.state, after=(campaign, viewer) if same_people else None
    )


class _Journal:
    """The journal an append reads: the stored events, read only when an earlier event is asked
    for (a proposal naming one, a change to the past), and the records of this submission.
    Most appends need neither, so the journal is not read on every append."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.new: list[Record] = []
        self._by_seq: dict[int, Record] | None = None

    def _stored_by_seq(self) -> dict[int, Record]:
        if self._by_seq is None:
            self._by_seq = {r.seq: r for r in load_records(self.campaign)}
        return self._by_seq

    def stored(self) -> list[Record]:
        return list(self._stored_by_seq().values())

    def all(self) -> list[Record]:
        return [*self.stored(), *self.new]

    def get(self, seq: int, default: Record | None = None) -> Record | None:
        found = next((r for r in self.new if r.seq == seq), None)
        if found is not None:
            return found
        if not isinstance(seq, int) or not 0 < seq <= self.campaign.last_seq:
            return default
        return self._stored_by_seq().get(seq, default)

    @property
    def next_seq(self) -> int:
        return (self.new[-1].seq if self.new else self.campaign.last_seq) + 1


class _Writer:
    """Collects the records of one submission, folding each as it goes."""

    def __init__(
        self,
        campaign: Campaign,
        user: User,
        viewer: Viewer,
        journal: _Journal,
        read: ForAppend,
        dice: dict[str, Any] | None,
    ) -> None:
        self.campaign, self.user, self.viewer = campaign, user, viewer
        self.journal = journal
        state, pool = read.state, read.pool
        self.before = state  # as the projections were last written
        self.digests = read.digests  # of its side parts, as stored
        self.parts_as_read = read.parts_as_read
        self.parts: list[EncodedPart] | None = None  # of `state`, once folded
        # One copy of `state` for the whole submission, folded in place: a record refused ends
        # the submission (nothing is written), so no record needs a copy of its own.
        self.state = read.working
        # Only the dice of the journal: a roll asked again (a chained step) is answered by them.
        self.pool = pool
        self.provider = LiveProvider(
            state["options"].get("dice_mode", "server"),
            dice,
            lambda s: viewer.can_read("side" if s else "public", s),
        )
        self.pending: list[tuple[Record, str | None]] = []
        self.events: list[Event] = []

    @property
    def next_seq(self) -> int:
        return self.journal.next_seq

    def append(self, record: Record, idempotency_key: str | None = None) -> None:
        self.journal.new.append(
            record
        )  # a fold may read the event being applied (a proposal's own)
        try:
            self.state = engine.apply_record(
                self.state, record, self.pool, self.provider, self.journal
            )
        finally:
            self.journal.new.pop()
        self.provider.finish(unused_ok=True)
        self._keep(record, idempotency_key)

    def _keep(self, record: Record, idempotency_key: str | None = None) -> None:
        self.journal.new.append(record)
        self.pending.append((record, idempotency_key))
        for roll in self.provider.new:
            self._keep_dice(roll)
        self.provider.new = []

    def _keep_dice(self, roll: NewRoll) -> None:
        data = {"key": roll.key, "expr": roll.expr, "dice": roll.dice, "source": roll.source}
        record = self.system_record(
            "dice.rolled", data, "side" if roll.side else "public", roll.side
        )
        self.state = engine.apply_record(self.state, record, self.pool, self.provider)
        self.journal.new.append(record)
        self.pending.append((record, None))

    def system_record(
        self, kind: str, data: dict[str, Any], audience: str = "public", side: str = ""
    ) -> Record:
        return Record(
            seq=self.next_seq,
            kind=kind,
            data=data,
            actor=self.user.username,
            side=side,
            audience=audience,
            at=timezone.now().isoformat(),
            uid=str(uuid.uuid4()),
        )

    def follow_ups(self, record: Record) -> None:
        if record.kind == "sealed.submitted":
            key = record.data.get("key")
            sealed = self.state["sealed"].get(key) if isinstance(key, str) else None
            if sealed and sealed["open"] and set(sealed["choices"]) == set(sealed["sides"]):
                reveal = {"key": record.data["key"], "choices": dict(sealed["choices"])}
                self.append(self.system_record("sealed.revealed", reveal))
        if record.kind in ("proposal.made", "proposal.approved"):
            number = record.seq if record.kind == "proposal.made" else record.data.get("proposal")
            proposal = self.state["proposals"].get(str(number))
            if proposal and proposal["status"] == "pending" and is_complete(proposal):
                self._apply_proposal(proposal)

    def system_follow_ups(self, record: Record, system: GameSystem) -> None:
        """Events the game system asks to append after a person's own event, in the same
        submission and as that person (A!P!: the steps with nothing to decide that follow)."""
        if record.kind in CORE_KINDS:
            return
        for kind, data in system.follow_ups(self.state, record):
            declared = system.event_kind(kind)
            assert declared is not None  # a game follows up with kinds it declares
            self.append(
                Record(
                    seq=self.next_seq,
                    kind=kind,
                    data=data,
                    actor=record.actor,
                    side=record.side,
                    audience=declared.audience,
                    at=timezone.now().isoformat(),
                    uid=str(uuid.uuid4()),
                )
            )

    def _apply_proposal(self, proposal: Proposal) -> None:
        applied = self.system_record("proposal.applied", {"proposal": proposal["seq"]})
        if proposal["action"] not in ("correct", "undo"):
            self.append(applied)
            return
        # A change to the past: fold the whole journal again with it.
        candidate = [*self.journal.all(), applied]
        try:
            self.state = engine.fold(candidate, self.provider, DicePool.from_records(candidate))
        except engine.JournalError as error:
            raise self._redacted(error) from None
        self._keep(applied)

    def _redacted(self, error: engine.JournalError) -> DomainError:
        record = error.record
        if self.viewer.can_read(record.audience, record.side):
            return DomainError("proposal", f"After this change, {error.describe()}")
        return DomainError(
            "proposal",
            "After this change, a later private event of another side no longer fits; "
            "the referee must settle it.",
        )

    def folded(self) -> None:
        """Every record is folded: `state`'s side parts encoded (each one's digest tells whether
        the fold changed it), and `before` given back those it shared and the fold changed."""
        self.parts = encoded_parts(self.state)
        unshare(self.before, self.state, self.digests, self.parts, self.parts_as_read)

    def save(self) -> None:
        self.positions_before = dict(self.campaign.positions or {})
        actor_cache = {self.user.username: self.user}
        events = []
        for record, key in self.pending:
            actor = actor_cache.get(record.actor) or get_user_model().objects.get(
                username=record.actor
            )
            events.append(
                Event(
                    campaign=self.campaign,
                    seq=record.seq,
                    uid=record.uid,
                    kind=record.kind,
                    data=record.data,
                    actor=actor,
                    side=record.side,
                    audience=record.audience,
                    created_at=datetime.fromisoformat(record.at),
                    idempotency_key=key,
                )
            )
        # The event and what follows it (dice, a reveal, the game's steps) in one INSERT.
        self.events.extend(Event.objects.bulk_create(events))
        self.campaign.last_seq = self.journal.new[-1].seq
        seat_log.record(
            self.campaign, self.user, self.before, self.state, [r for r, _ in self.pending]
        )
        digests = store_after_append(
            self.campaign, self.before, self.state, self.digests, self.parts
        )
        # What was stored, for the tasks run inline after commit (before the notices' task).
        assert self.parts is not None  # encoded once every record was folded
        folded_state.hold(self.campaign, self.state, self.parts)
        public = any(record.audience == "public" for record, _ in self.pending)
        projections.refresh(
            self.campaign,
            self.state,
            public_change=public,
            before=self.before,
            added=[record for record, _ in self.pending],
            part_digests=digests,
            part_digests_before=self.digests,
        )


def _check_amending_seats(
    campaign: Campaign, viewer: Viewer, kind: str, data: dict[str, Any]
) -> None:
    """A correction or undo of who plays which side is an organizer's (permissions.may_amend_kind),
    through the API as on the page, which never offered it to anybody else. The seat events are
    public: the refusal tells nothing of what a side did in secret."""
    if kind != "proposal.made" or data.get("action") not in ("correct", "undo"):
        return
    seq = data.get("target") or 0  # none named: no event has seq 0
    target = campaign.events.filter(seq=seq).values_list("kind", flat=True).first()
    if target and not permissions.may_amend_kind(viewer, target):
        raise Forbidden(
            "Only a club organizer proposes to change who plays which side (the setup page)."
        )


def _check_taking_off(
    campaign: Campaign, viewer: Viewer, kind: str, data: dict[str, Any], state: CampaignState
) -> None:
    """A neutral organizer takes a side's player off in play directly (seats.seat_needs),
    but one made organizer once play started may be a side's puppet (its organizer invites a
    fresh account as organizer): they take nobody off alone, nor by a proposal that would need
    nobody's agreement. Checked here, at submission: the journal's rule is unchanged."""
    change = data.get("data") if kind == "proposal.made" and data.get("action") == "seat" else None
    removing = kind == "player.removed" or (
        isinstance(change, dict) and change.get("kind") == "player.removed"
    )
    if not removing or state["status"] == "setup" or viewer.referee or viewer.playing:
        return
    if viewer.username in state.get("played", {}) or permissions.neutral_organizer(
        campaign, state, viewer
    ):
        return  # one who played is held by seat_needs already; the club's neutral party may
    raise Forbidden(
        "An organizer made once play had started, or made while the campaign was set up by one "
        "who plays a side of it, is no neutral party and takes no side's player off: the referee "
        "or that side's player does."
    )


def _check_ending(
    campaign: Campaign, viewer: Viewer, kind: str, data: dict[str, Any], state: CampaignState
) -> None:
    """In play, ending the campaign or taking its referee off directly is the referee's or the
    club's neutral party's (permissions.may_end_alone). The journal refuses it to one who plays or
    played a side (seats.seat_needs); one who plays no side but is no neutral party (who made
    them organizer, and when, is the club's record) is refused here, and proposes it."""
    if not seats.ends_or_unseats_referee(state, kind, data):
        return
    if permissions.may_end_alone(campaign, state, viewer):
        return
    if seats.seat_needs(state, kind, data, viewer.username or ""):
        return  # the journal refuses it, naming the sides whose agreement it needs
    what = "End the campaign" if kind == "campaign.finished" else "Take the referee off"
    raise Forbidden(
        "You are no neutral party in this campaign (made organizer once play had started, or "
        f"while it was set up by one who plays a side of it): {what.lower()} by proposing it; "
        "it applies once every side agrees (or the referee)."
    )


def _acting_side(
    kind_def: EventKind, viewer: Viewer, side: str | None, state: CampaignState, campaign: Campaign
) -> str:
    actor = kind_def.actor
    if actor == "organizer":
        if not viewer.organizer:
            raise Forbidden("Only a club organizer can do this.")
        return ""
    if actor == "arbiter":
        if not permissions.may_settle(campaign, state, viewer):
            raise Forbidden(
                "Only the referee, or an organizer who plays no side (has played none in this "
                "campaign and was an organizer when play started), can do this."
            )
        return ""
    if actor == "member":
        # A side's last player, gone with no referee, still answers seat proposals for it.
        standing_in = (
            kind_def.name in ("proposal.approved", "proposal.rejected")
            and viewer.member
            and stand_in_may_answer(state, viewer.username)
        )
        if not (viewer.playing or viewer.referee or viewer.organizer or standing_in):
            raise Forbidden("Only the campaign's players, referee or organizers can do this.")
        return viewer.playing or ""
    # actor == "side"
    if viewer.referee:
        if side and side not in state["sides"]:
            raise DomainError("side", f"Unknown side {side!r}.")
        return side or ""
    if viewer.playing is None:
        raise Forbidden("You do not play a side in this campaign.")
    if side and side != viewer.playing:
        raise Forbidden("You can only act for your own side.")
    return viewer.playing


def _check_version(state: CampaignState, acting_side: str, expected_version: int | None) -> None:
    if expected_version is None:
        return
    stream = f"side:{acting_side}" if acting_side else "campaign"
    current = state["streams"].get(stream, 0)
    if expected_version != current:
        raise Conflict("This changed since you loaded it; here is the current state.", current)


def _audience(
    kind_def: EventKind,
    acting_side: str,
    data: dict[str, Any],
    journal: _Journal,
    viewer: Viewer,
) -> tuple[str, str]:
    """Who may read the new event, and the side it is filed under."""
    if kind_def.name == "proposal.made" and isinstance(data.get("target"), int):
        # A proposal about an event is as private as the event itself.
        target = journal.get(data["target"])
        if target is None or target.audience == "public":
            return "public", acting_side
        if viewer.referee and not acting_side:
            return target.audience, target.side
        return target.audience, acting_side
    audience = kind_def.audience
    if kind_def.name == "note.added":
        from campaigns.journal.core_events import note_audience

        audience = note_audience(data)
    if audience == "side":
        if not acting_side:
            raise DomainError("side", "Say which side this is for.")
        return "side", acting_side
    return audience, acting_side


_EVENT_REFS = ("target", "proposal")  # keys of a proposal's data that name another event


def _resolve_uids(
    campaign: Campaign, viewer: Viewer, kind: str, data: dict[str, Any]
) -> dict[str, Any]:
    """People name events by uid, never by sequence number (the journal's own references):
    a number could be tried one by one, and any answer but one would tell a hidden event
    from a missing one. An event this person may not read is not found, exactly like one
    that does not exist, before anything else about it is checked."""
    data = dict(data)
    if kind.startswith("proposal."):
        for ref in _EVENT_REFS:
            if data.get(ref) is not None and not isinstance(data[ref], str):
                raise DomainError(ref, "Name the event by its uid.")
    if kind == "proposal.made" and isinstance(data.get("target"), str):
        event = (
            visibility.events_for(viewer, campaign)
            .filter(uid=_uuid(data["target"], "target"))
            .first()
        )
        if event is None:
            raise DomainError("target", "No such earlier event.")
        data["target"] = event.seq
    if kind in ("proposal.approved", "proposal.rejected") and isinstance(data.get("proposal"), str):
        # A proposal about a hidden event is itself hidden, yet the other side must
        # be able to answer it: it is found by uid among all proposals.
        event = campaign.events.filter(
            kind="proposal.made", uid=_uuid(data["proposal"], "proposal")
        ).first()
        if event is None:
            raise DomainError("proposal", "No such proposal.")
        data["proposal"] = event.seq
    return data


def _uuid(value: str, field: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise DomainError(field, "Not an event id.") from None
