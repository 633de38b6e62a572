"""Journal versions and the upgrades that carry old journals (docs/journal.md, "Versions and upgrades").

A journal is forever. The core and every game system declare the version of their journal
(``CORE_VERSION``, ``GameSystem.journal_version``); a change to their kinds, their sequence or what
their rules accept bumps it and registers an ``Upgrade`` from the version before, in the game's own
folder. A journal file and every stored campaign say which versions they were written under
(``journals``) and by which Muster release. A journal of an earlier version is upgraded when a stored
campaign is read and when a file is replayed: the chain of steps from its versions to today's runs,
and each step that ran is recorded in the journal itself by a ``journal.upgraded`` event.

Two ways to carry old events, chosen per step (``Upgrade.how``):

- ``"rewrite"``: old events become today's: their data reshaped (``Upgrade.data``), kinds renamed
  (``Upgrade.kinds``), events inserted where today's rules need one the old journal lacks
  (``Upgrade.before`` / ``Upgrade.at_end``, from the state as it stood, folded by today's code).
  Every reference to an event (``target``, ``proposal``) is renumbered to point at the same event;
  dice keys are untouched.
- ``"fold"``: old events stay as written and fold under the rules of their version: the game's fold
  asks ``ctx.journal_version`` and keeps the old rule while it is below the new version. The
  ``journal.upgraded`` event is the marker from which the new version applies.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace

from .errors import DomainError
from .records import Record

CORE = "core"
# The core's journal: its kinds (core_events.KINDS), proposals, seats, filing. Bump it (and add
# an Upgrade to CORE_UPGRADES) when they change; tests/core/test_journal_versions.py checks.
CORE_VERSION = 2
CORE_UPGRADES: tuple = ()  # set below, once Upgrade is defined
# The core's version in journals written before journals said their versions (Muster 0.1.0).
CORE_VERSION_BEFORE_VERSIONS = 1

UPGRADED = "journal.upgraded"
WAYS = ("rewrite", "fold")
# The events people name by uid and the journal names by sequence number.
REFERENCES = {
    "proposal.made": "target",
    "proposal.approved": "proposal",
    "proposal.rejected": "proposal",
    "proposal.applied": "proposal",
}
_UIDS = uuid.UUID(
    "8f0b7c1e-5d2a-4c55-9a57-2f4a1c0e9b31"
)  # uids of events an upgrade writes (uuid5)
MARKER_MAX_UIDS = (
    1000  # a journal.upgraded event lists at most this many events (its count says all)
)


def release() -> str:
    from muster import __version__

    return __version__


@dataclass(frozen=True)
class Insert:
    """An event an upgrade step adds to an old journal. ``side``: the side it is filed under (its
    actor is then a player of that side, as the state had it); ``actor``: a username, if it must be
    someone in particular (by default the side's first player, else the actor of the next event)."""

    kind: str
    data: dict
    side: str = ""
    actor: str | None = None


class Upgrade:
    """One step from journal version ``version`` to ``version + 1`` of a game (or of the core).

    Subclass it in the game's folder and list an instance in the system's ``journal_upgrades``.
    ``name`` is recorded in every journal it upgrades: never rename it. ``words`` say what it does
    to a journal, for people ("end-of-scenario records added for each half-day played (1.12)").

    A ``"rewrite"`` step overrides any of ``kinds``, ``data``, ``before``, ``at_end``; a ``"fold"``
    step overrides none of them (the game's fold reads ``ctx.journal_version`` instead).
    """

    version: int = 0
    name: str = ""
    words: str = ""
    how: str = "rewrite"
    kinds: dict[str, str] = {}  # old kind -> its new name

    def data(self, kind: str, data: dict) -> dict:
        """An old event's data (of ``kind``, as renamed) in the new version's shape. Also applied to
        a correction's data for an event of that kind. Return ``data`` itself when unchanged."""
        return data

    def before(self, state: dict, record: Record, journal: "OldJournal") -> list[Insert]:
        """Events to insert before the old event ``record``, given ``state``: the journal up to it,
        folded by today's code (the old fold's state, as far as today's code reads it), and the
        old ``journal`` (``journal.after(record)``: what the old journal went on to hold). Called for
        every old event that folds (not for undone ones), with corrections applied."""
        return []

    def at_end(self, state: dict, journal: "OldJournal") -> list[Insert]:
        """Events to add after the last old event (a campaign stopped where the new version needs
        one), given the state after the whole journal."""
        return []

    def drop(self, state: dict, record: Record, journal: "OldJournal") -> bool:
        """True: the old event ``record`` has no place in the new version and is left out (a step the
        new rules skip as having nothing to do, where the old ones ran it and it changed nothing).
        Left-out events are listed by the journal.upgraded events (and kept in a stored campaign's
        archive); an event another one refers to is never left out."""
        return False

    def _folds(self) -> bool:
        """Whether this step needs the old journal folded (it inserts or leaves out events)."""
        return any(
            getattr(type(self), hook) is not getattr(Upgrade, hook)
            for hook in ("before", "at_end", "drop")
        )


class SeatAgreement(Upgrade):
    """Core v1 -> v2 (issue 24): once play has started, seating someone on a side (or taking a
    side's player off, by one who plays or played a side) needs that side's agreement or the
    referee's, whoever seats them (campaigns.core_events.seat_needs). v1 asked it only for
    someone who had seen another side's secrets; its seat changes keep the rule they were made
    under."""

    version = 1
    name = "core-seat-needs-the-sides-agreement"
    words = "seating someone on a side in play needs that side's agreement (or the referee's)"
    how = "fold"


CORE_UPGRADES = (SeatAgreement(),)


class OldJournal:
    """The old journal an upgrade step reads (its events as rewritten by the steps before)."""

    def __init__(self, records: list[Record]):
        self.records = records
        self._index = {record.uid: i for i, record in enumerate(records)}

    def after(self, record: Record | None):
        """The old events after `record`, in order (none after the end)."""
        from itertools import islice

        if record is None:
            return iter(())
        return islice(self.records, self._index[record.uid] + 1, None)


class VersionError(DomainError):
    """A journal no upgrade of this Muster carries, or one written by a newer Muster."""


@dataclass
class Ran:
    """One upgrade step that ran on a journal: which events it inserted and which it changed."""

    journal: str
    step: Upgrade
    inserted: list[Record] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # uids of old events it rewrote
    dropped: list[Record] = field(default_factory=list)  # old events it left out

    def text(self) -> str:
        done = []
        for count, what in (
            (len(self.inserted), "added"),
            (len(self.changed), "rewritten"),
            (len(self.dropped), "left out"),
        ):
            if count:
                done.append(f"{count} event{'s' if count != 1 else ''} {what}")
        if self.step.how == "fold":
            done.append("earlier events keep the rules they were written under")
        what = f" ({', '.join(done)})" if done else " (nothing to change)"
        return f"v{self.step.version}→v{self.step.version + 1}: {self.step.words}{what}"


@dataclass
class Upgraded:
    """A journal carried to today's versions."""

    records: list[Record]
    start: dict  # the versions it was written under
    versions: dict  # the versions it is at now
    ran: list[Ran] = field(default_factory=list)
    detected: bool = (
        False  # written before journals said their versions: `start` judged from its events
    )

    def summary(self) -> str:
        """ "written by Muster journal achtung_panzer v1; upgraded to v3: v1→v2 …"; "" if nothing ran."""
        if not self.ran:
            return ""
        parts = []
        for journal in sorted(
            dict.fromkeys(r.journal for r in self.ran), key=lambda j: j == CORE
        ):  # the game's first
            steps = "; ".join(r.text() for r in self.ran if r.journal == journal)
            written = (
                f"Muster journal {journal} v{self.start[journal]}"
                f"{' (a file from before journal versions)' if self.detected else ''}"
            )
            if not parts:
                parts.append(
                    f"written by {written}; upgraded to v{self.versions[journal]}: {steps}"
                )
            else:
                parts.append(f"{written}, upgraded to v{self.versions[journal]}: {steps}")
        return ". And ".join(parts)


# --- what the code declares -------------------------------------------------------------------------


def current(system) -> dict:
    """The versions this code writes: {"core": n, "<system slug>": n}."""
    return {CORE: CORE_VERSION, system.slug: system.journal_version}


def steps_of(journal: str, system) -> dict[int, Upgrade]:
    steps = CORE_UPGRADES if journal == CORE else system.journal_upgrades
    return {step.version: step for step in steps}


def oldest(journal: str, system) -> int:
    """The oldest version of `journal` this code can carry to today's."""
    steps = steps_of(journal, system)
    version = current(system)[journal]
    while version - 1 in steps:
        version -= 1
    return version


def check_versions(versions, system, where: str = "journals", written_by: str = "") -> dict:
    """A journal's stated versions, checked: a dict naming the core and this game, none newer than
    this code's (a newer Muster's journal is refused, saying what to do)."""
    today = current(system)
    if not isinstance(versions, dict) or set(versions) != set(today):
        raise VersionError(
            where, f"Must give the journal versions of {' and '.join(sorted(today))}."
        )
    by = f"Muster {written_by}" if written_by else "a Muster release"
    for journal, version in versions.items():
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise VersionError(f"{where}.{journal}", "Must be a version number (1, 2, …).")
        if version > today[journal]:
            raise VersionError(
                f"{where}.{journal}",
                f"Written by {by} with journal {journal} v{version}; this site runs Muster {release()}, "
                f"which reads up to v{today[journal]}. Upgrade Muster on this site (docs/operations.md) "
                f"before replaying this file.",
            )
    return dict(versions)


def plan(start: dict, system) -> list[tuple[str, Upgrade]]:
    """The steps from `start` to today's versions, core first; VersionError if one is missing."""
    today = current(system)
    found = []
    for journal in (CORE, system.slug):
        steps = steps_of(journal, system)
        for version in range(start[journal], today[journal]):
            step = steps.get(version)
            if step is None:
                raise VersionError(
                    f"journals.{journal}",
                    f"Written with journal {journal} v{start[journal]}, which no upgrade in Muster {release()} "
                    f"carries (it reads {journal} v{oldest(journal, system)} to v{today[journal]}). Replay it "
                    f"with the Muster release that wrote it and export it again from there.",
                )
            found.append((journal, step))
    return found


# --- running the steps ------------------------------------------------------------------------------


def upgrade(records: list[Record], system, start: dict, *, at: str | None = None) -> Upgraded:
    """The journal `records` (written under `start`) carried to today's versions: the steps run in
    order, references renumbered, one ``journal.upgraded`` event per step appended (plus one per
    side whose own events it changed, filed under that side). `at`: when (ISO time; now if None).
    Raises VersionError, or the fold's JournalError where an old event does not fit even so."""
    steps = plan(start, system)
    if not steps:
        return Upgraded(list(records), dict(start), dict(start))
    ran = [Ran(journal, step) for journal, step in steps]
    old = _rewritten(list(records), ran)
    inserted, dropped = _inserted(old, ran) if any(r.step._folds() for r in ran) else ({}, set())
    records = _renumbered(old, inserted, dropped)
    records += _markers(records, ran, at)
    return Upgraded(records, dict(start), current(system), ran)


def _rewritten(records: list[Record], ran: list[Ran]) -> list[Record]:
    """Pass 1: each rewrite step reshapes the old events (and corrections' data) in turn."""
    for entry in ran:
        step = entry.step
        if step.how != "rewrite" or (not step.kinds and type(step).data is Upgrade.data):
            continue
        kind_of = {r.seq: r.kind for r in records}
        out = []
        for record in records:
            new = _rewrite(step, record, kind_of)
            if new != record:
                entry.changed.append(record.uid)
            out.append(new)
        records = out
    return records


def _rewrite(step: Upgrade, record: Record, kind_of: dict) -> Record:
    kind = step.kinds.get(record.kind, record.kind)
    data = step.data(kind, record.data)
    if (
        record.kind == "proposal.made"
        and record.data.get("action") == "correct"
        and isinstance(record.data.get("data"), dict)
        and record.data.get("target") in kind_of
    ):
        target_kind = step.kinds.get(kind_of[record.data["target"]], kind_of[record.data["target"]])
        data = {**data, "data": step.data(target_kind, record.data["data"])}
    if kind == record.kind and data is record.data:
        return record
    return replace(record, kind=kind, data=data)


def _inserted(records: list[Record], ran: list[Ran]) -> tuple[dict, set]:
    """Pass 2: fold the old journal with today's code, letting each step insert the events today's
    rules need before an old event (or after the last), or leave an old event out.
    -> ({uid of the event they precede (None: at the end): [records]}, uids left out); each
    inserted record is reshaped by the rewrite steps after its own."""
    from . import engine

    found: dict = {}
    dropped: set = set()
    journal = OldJournal(records)
    referred = {r.data.get(REFERENCES[r.kind]) for r in records if r.kind in REFERENCES}
    seqs = {r.uid: r.seq for r in records}
    fold_from: dict = {}  # old events fold under the rules of the version a "fold" step starts from
    for entry in ran:
        if entry.step.how == "fold":
            fold_from.setdefault(entry.journal, entry.step.version)

    def upgrade(state, record, apply):
        anchor = record.uid if record is not None else None
        if state is None:
            return state, False
        for index, entry in enumerate(ran):
            step = entry.step
            if not step._folds():
                continue
            if (
                record is not None
                and seqs.get(record.uid) not in referred
                and step.drop(state, record, journal)
            ):
                entry.dropped.append(record)
                dropped.add(record.uid)
                return state, True
            wanted = (
                step.before(state, record, journal)
                if record is not None
                else step.at_end(state, journal)
            )
            for number, item in enumerate(wanted):
                new = _record(state, item, record, records, step, number)
                for later in ran[index + 1 :]:
                    if later.step.how == "rewrite":
                        kind = later.step.kinds.get(new.kind, new.kind)
                        new = replace(new, kind=kind, data=later.step.data(kind, new.data))
                state = apply(state, new)
                entry.inserted.append(new)
                found.setdefault(anchor, []).append(new)
        return state, False

    engine.fold(records, start_versions=_start_versions(records, fold_from), upgrade=upgrade)
    return found, dropped


def _record(
    state: dict,
    item: Insert,
    before: Record | None,
    records: list[Record],
    step: Upgrade,
    number: int,
) -> Record:
    """An inserted event as a record: filed as today's rules file it, dated like the event it
    precedes (the last one at the end), a uid that is the same wherever this journal is upgraded."""
    from . import engine
    from .systems import get_system

    anchor = before or records[-1]
    actor = item.actor
    if actor is None:
        players = state["sides"].get(item.side, {}).get("players", []) if item.side else []
        actor = players[0] if players else (state.get("referee") or anchor.actor)
    uid = str(
        uuid.uuid5(
            _UIDS, f"{anchor.uid}/{'end' if before is None else 'before'}/{step.name}/{number}"
        )
    )
    seq = before.seq if before is not None else anchor.seq  # a stand-in: renumbered afterwards
    draft = Record(
        seq=seq,
        kind=item.kind,
        data=item.data,
        actor=actor,
        side=item.side,
        audience="public",
        at=anchor.at,
        uid=uid,
    )
    audience, side = engine.filing(state, draft, get_system(state["system"]), {})
    return replace(draft, audience=audience, side=side)


def _renumbered(records: list[Record], inserted: dict, dropped: set) -> list[Record]:
    """The old events with the inserted ones in place (and the left-out ones gone), numbered 1, 2,
    3 … again; every reference to an event (a proposal's target, an answer's proposal) points at
    the same event as before."""
    new = {id(record) for group in inserted.values() for record in group}
    ordered = []
    for record in records:
        ordered += inserted.get(record.uid, [])
        if record.uid not in dropped:
            ordered.append(record)
    ordered += inserted.get(None, [])
    moved = {
        record.seq: number
        for number, record in enumerate(ordered, start=1)
        if id(record) not in new
    }
    out = []
    for number, record in enumerate(ordered, start=1):
        data = record.data
        ref = REFERENCES.get(record.kind)
        if ref and type(data.get(ref)) is int and data[ref] in moved:
            data = {**data, ref: moved[data[ref]]}
        out.append(replace(record, seq=number, data=data))
    return out


def _markers(records: list[Record], ran: list[Ran], at: str | None) -> list[Record]:
    """One public journal.upgraded event per step, and one per side whose own events the step
    added or changed (listing those, filed under that side: the other side never learns of them)."""
    from django.utils import timezone

    when = at or timezone.now().isoformat()
    creator = records[0].actor
    last = records[-1]
    by_uid = {r.uid: r for r in records}
    out = []
    seq = last.seq
    for entry in ran:
        groups: dict[str, dict] = {"": {"events": [], "dropped": []}}
        touched = [
            (by_uid.get(uid), "events") for uid in [r.uid for r in entry.inserted] + entry.changed
        ]
        for record, where in [*touched, *((r, "dropped") for r in entry.dropped)]:
            if record is None or record.audience == "referee":
                continue  # a referee-only event: counted in the summary, listed nowhere
            group = groups.setdefault(
                record.side if record.audience == "side" else "", {"events": [], "dropped": []}
            )
            group[where].append(record.uid)
        for side, group in groups.items():
            if side and not (group["events"] or group["dropped"]):
                continue
            seq += 1
            out.append(
                Record(
                    seq=seq,
                    kind=UPGRADED,
                    actor=creator,
                    side=side,
                    audience="side" if side else "public",
                    at=when,
                    uid=str(
                        uuid.uuid5(
                            _UIDS,
                            f"{last.uid}/upgraded/{entry.journal}/{entry.step.version}/{side}",
                        )
                    ),
                    data={
                        "journal": entry.journal,
                        "from": entry.step.version,
                        "to": entry.step.version + 1,
                        "step": entry.step.name,
                        "how": entry.step.how,
                        "release": release(),
                        "events": group["events"][:MARKER_MAX_UIDS],
                        "count": len(group["events"]),
                        "dropped": group["dropped"][:MARKER_MAX_UIDS],
                    },
                )
            )
    return out


# --- versions in the fold ---------------------------------------------------------------------------


def _start_versions(records: list[Record], fold_from: dict | None = None) -> dict:
    """{journal: version} the first event folds under, where it is not today's: a "fold" marker in
    the journal says its events before it keep the rules of the version it upgraded from."""
    start = dict(fold_from or {})
    for record in records:
        if record.kind == UPGRADED and record.data.get("how") == "fold":
            start.setdefault(record.data.get("journal"), record.data.get("from"))
    return start


def start_versions(records: list[Record]) -> dict:
    return _start_versions(records)


# --- journals written before versions ---------------------------------------------------------------


def carry(
    records: list[Record], system, start: dict | None, check, *, at: str | None = None
) -> tuple:
    """(Upgraded, state): the journal carried to today's versions and `check`ed (a fold that raises
    when the journal does not fit). `start` None: written before journals said their versions
    (Muster 0.1.0 and earlier): the newest version whose rules it obeys, once upgraded, is taken,
    from the newest such a file can be (the system's journal_version_before_versions, the core's
    CORE_VERSION_BEFORE_VERSIONS) down to the oldest an upgrade carries, then today's. When none fits, today's refusal is raised."""
    if start is not None:
        upgraded = upgrade(records, system, start, at=at)
        return upgraded, check(upgraded.records)
    today = current(system)
    newest = min(today[system.slug], system.journal_version_before_versions)
    core_then = min(CORE_VERSION, CORE_VERSION_BEFORE_VERSIONS)
    trials = [
        {CORE: core_then, system.slug: version}
        for version in range(newest, oldest(system.slug, system) - 1, -1)
    ]
    if today not in trials:
        trials.append(today)  # a file made by hand to today's rules, last
    errors = []
    for trial in trials:
        try:
            upgraded = upgrade(records, system, trial, at=at)
            state = check(upgraded.records)
        except DomainError as error:
            errors.append(error)
            continue
        upgraded.detected = trial != today
        return upgraded, state
    raise errors[trials.index(today)]  # today's refusal: what the file must obey now
