"""The fold: a campaign's state is its journal applied event by event.

``fold(records)`` rebuilds the state from scratch; ``apply_record`` applies one
event to a state in place. Core event kinds (people, results, sealed choices,
proposals, dice) are handled in campaigns.journal.core_events; every other kind belongs
to the campaign's game system.

Approved corrections and undos act on the past: before folding, every applied
proposal substitutes the corrected data for its target event (or drops an undone
event), so everything after it is recomputed, re-using the recorded dice by key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from campaigns import versions
from campaigns.access.seats import playing
from campaigns.dice.pool import DicePool, RefuseMissingDice
from campaigns.errors import DomainError
from campaigns.journal import core_events, proposals
from campaigns.journal.context import Ctx
from campaigns.journal.records import EventsBySeq, Record
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.systems import get_system

if TYPE_CHECKING:
    from campaigns.schema.fields import EventKind
    from campaigns.systems.base import GameSystem

STATE_SHAPE = core_events.STATE_SHAPE
# Every core kind's handler: the people, results, sealed choices … and the proposals.
HANDLERS: dict[str, core_events.Handler] = {**core_events.HANDLERS, **proposals.HANDLERS}

# Events the service writes itself; no player acts "for a side" with them.
SYSTEM_WRITTEN = {
    "dice.rolled",
    "sealed.revealed",
    "proposal.applied",
    "campaign.created",
    versions.UPGRADED,
}


# An upgrade run during a fold (campaigns.versions.upgrading): called with the state and the next
# record (None after the last) and the fold's own `apply`; returns the state and whether the
# record is left out.
Applier = Callable[[CampaignState | None, Record], CampaignState]
Upgrader = Callable[
    [CampaignState | None, Record | None, Applier], tuple[CampaignState | None, bool]
]


class JournalError(DomainError):
    """An event of a journal does not fit the state before it."""

    def __init__(self, record: Record, error: DomainError, label: str = ""):
        self.record = record
        self.inner = error
        self.label = label or record.kind  # the event as the history names it ("Turn 3 recorded")
        super().__init__(f"events[{record.seq}].{error.field}", error.message)

    def describe(self) -> str:
        return f"event {self.record.seq} ({self.label}) no longer fits: {self.inner.field}: {self.inner.message}"


def substitutions(records: Sequence[Record]) -> dict[int, dict[str, Any]]:
    """target seq -> the applied proposal's data ({"action": "correct"|"undo", "data": ...})."""
    # Looked up by the number an event's data names: JSON, so any value (a wrong one finds none).
    proposals: dict[object, Record] = {r.seq: r for r in records if r.kind == "proposal.made"}
    found: dict[int, dict[str, Any]] = {}
    for record in records:
        if record.kind != "proposal.applied":
            continue
        proposal = proposals.get(record.data.get("proposal"))
        if proposal and proposal.data.get("action") in ("correct", "undo"):
            found[proposal.data["target"]] = dict(proposal.data, proposal=proposal.seq)
    return found


def fold(
    records: list[Record],
    provider: RefuseMissingDice | None = None,
    pool: DicePool | None = None,
    *,
    start_versions: dict[str, int] | None = None,
    upgrade: Upgrader | None = None,
    observe: Callable[[CampaignState], None] | None = None,
    from_state: CampaignState | None = None,
) -> CampaignState:
    """The state after `records`. `start_versions`: journal versions the first events fold under
    where not today's (campaigns.versions: by default from the journal's "fold" upgrade markers).
    `upgrade(state, record, apply) -> (state, skip)`, for upgrades (campaigns.versions): called before
    each record that folds (and with None after the last), it may apply events of its own first
    (``apply(state, record) -> state``) and say the record is left out (`skip`). `observe(state)`:
    called after each record is applied, to read the state on the way (the trends' selector; it
    must not keep or change the state, which the next record changes in place). `from_state`: a state
    the records follow on from (a copy the fold may change; the records then hold no proposal
    applied and no upgrade: their substitutions would reach back before it)."""
    provider = provider or RefuseMissingDice()
    pool = pool or DicePool.from_records(records)
    subst = substitutions(records)
    journal = {r.seq: r for r in records}
    start = versions.start_versions(records) if start_versions is None else start_versions
    state: CampaignState | None = from_state

    def apply(state: CampaignState | None, record: Record) -> CampaignState:
        try:
            return apply_record(state, record, pool, provider, journal)
        except DomainError as error:
            if isinstance(error, JournalError):
                raise
            label = get_system(state["system"]).describe(record) if state is not None else ""
            raise JournalError(record, error, label) from None

    for record in records:
        change = subst.get(record.seq)
        if change and change["action"] == "undo":
            assert state is not None, "an undo proposal follows the campaign's creation"
            state["undone"][str(record.seq)] = change["proposal"]
            state["seq"] = record.seq
            continue
        if change:
            record = record.with_data(change["data"])
        if upgrade is not None:
            state, skip = upgrade(state, record, apply)
            if skip:
                continue
        state = apply(state, record)
        if record.kind == "campaign.created" and start:
            state["journals"].update((k, v) for k, v in start.items() if k in state["journals"])
        if change:
            state["corrected"][str(record.seq)] = change["proposal"]
        if observe is not None:
            observe(state)
    if upgrade is not None and state is not None:
        state, _ = upgrade(state, None, apply)
    provider.finish()
    if state is None:
        raise DomainError("events", "A journal starts with a campaign.created event.")
    state["shape"] = STATE_SHAPE
    return state


def apply_record(
    state: CampaignState | None,
    record: Record,
    pool: DicePool,
    provider: RefuseMissingDice,
    journal: EventsBySeq | None = None,
) -> CampaignState:
    """Apply one record (in place where a state exists); raise DomainError if it does not fit."""
    if record.kind == "campaign.created":
        if state is not None:
            raise DomainError("kind", "The campaign already exists.")
        return core_events.new_state(record)
    if state is None:
        raise DomainError("kind", "A journal starts with a campaign.created event.")
    system = get_system(state["system"])
    ctx = Ctx(system, state, record, pool, provider, journal)
    if record.kind not in SYSTEM_WRITTEN:
        _check_acting_side(state, record)
    _check_filing(state, record, system, journal or {})
    handler = HANDLERS.get(record.kind)
    if handler is not None:
        handler(state, record.with_data(core_events.KINDS[record.kind].clean(record.data)), ctx)
    else:
        kind = system.event_kind(record.kind)
        if kind is None:
            raise DomainError("kind", f"Unknown event kind {record.kind!r}.")
        if state["status"] == "finished":
            raise DomainError("kind", f"The campaign is over: {state['finish_reason']}")
        if state["status"] != "active":
            raise DomainError("kind", "The campaign is not in play.")
        system.apply(plain(state), record.with_data(kind.clean(record.data)), ctx)
    stream = f"side:{record.side}" if record.side else "campaign"
    state["streams"][stream] = state["streams"].get(stream, 0) + 1
    state["seq"] = record.seq
    return state


def filing(
    state: CampaignState, record: Record, system: GameSystem, journal: EventsBySeq
) -> tuple[str, str]:
    """(audience, side) an event must be filed under: they follow from its kind, who acted and
    the state, never from what a client or a journal file says. The journal service files new
    events this way (services.journal._audience); every fold holds each event to it."""
    kind: EventKind | None = core_events.KINDS.get(record.kind) or system.event_kind(record.kind)
    if kind is None:
        raise DomainError("kind", f"Unknown event kind {record.kind!r}.")
    if record.kind == "dice.rolled":  # whose roll it is: checked against the rules by journal_files
        return ("side" if record.side else "public"), record.side
    if record.kind == versions.UPGRADED:  # an upgrade's note to one side lists that side's events
        return ("side" if record.side else "public"), record.side
    if kind.actor in ("organizer", "arbiter", "system"):
        return kind.audience, ""
    referee = record.actor == state["referee"]
    playing_side = playing(state, record.actor)
    if kind.actor == "member":
        side = playing_side or ""
        number = record.data.get("target")
        target = (
            journal.get(number)
            if record.kind == "proposal.made" and isinstance(number, int)
            else None
        )
        if target is not None and target.audience != "public":
            # A proposal about an event is as private as the event itself.
            return target.audience, (target.side if referee and not side else side)
        if record.kind == "note.added":
            return core_events.note_audience(record.data), side  # a note for one side only
        return kind.audience, side
    if not referee and not playing_side:
        raise DomainError("side", f"{record.actor} plays no side.")
    side = record.side if referee else (playing_side or "")
    if kind.audience == "side":
        return "side", side
    return kind.audience, side


def _check_filing(
    state: CampaignState, record: Record, system: GameSystem, journal: EventsBySeq
) -> None:
    audience, side = filing(state, record, system, journal)
    if record.kind in ("dice.rolled", versions.UPGRADED):
        if record.audience != audience:
            raise DomainError(
                "audience", f"A roll of {'a side' if side else 'no side'} is {audience}."
            )
        return
    if record.side != side:
        raise DomainError(
            "side",
            f"A {record.kind} event by {record.actor} is filed under "
            f"{side or 'no side'}, not {record.side or 'no side'}.",
        )
    if record.audience != audience:
        raise DomainError(
            "audience", f"A {record.kind} event here is {audience}, not {record.audience}."
        )
    if audience == "side" and not side:
        raise DomainError("side", "Say which side this is for.")


def _check_acting_side(state: CampaignState, record: Record) -> None:
    if not record.side:
        return
    side = state["sides"].get(record.side)
    if side is None:
        raise DomainError("side", f"Unknown side {record.side!r}.")
    if record.actor not in side["players"] and record.actor != state["referee"]:
        raise DomainError("side", f"{record.actor} does not play {side['name']}.")
