"""Carrying an old journal to today's versions (campaigns.versions declares them, and the steps):
the steps run in order over the old events, today's fold inserting the events today's rules need,
references renumbered, and a ``journal.upgraded`` marker recorded per step. Used where a journal is
read: a stored campaign (services.upgrades) and a journal file (journal_files)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from campaigns.errors import DomainError
from campaigns.journal import engine
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState, plain
from campaigns.systems import get_system
from campaigns.versions import (
    CORE,
    CORE_VERSION,
    CORE_VERSION_BEFORE_VERSIONS,
    MARKER_MAX_UIDS,
    REFERENCES,
    UIDS,
    UPGRADED,
    Insert,
    OldJournal,
    Upgrade,
    current,
    oldest,
    plan,
    release,
    start_versions,
)

if TYPE_CHECKING:
    from campaigns.systems.base import GameSystem

# Inserted events by the uid of the old event they precede (None: after the last one).
Insertions = dict[str | None, list[Record]]


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
    start: dict[str, int]  # the versions it was written under
    versions: dict[str, int]  # the versions it is at now
    ran: list[Ran] = field(default_factory=list)
    detected: bool = (
        False  # written before journals said their versions: `start` judged from its events
    )

    def summary(self) -> str:
        """ "written by Muster journal achtung_panzer v1; upgraded to v3: v1→v2 …"; "" if nothing ran."""
        if not self.ran:
            return ""
        parts: list[str] = []
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


# --- running the steps ------------------------------------------------------------------------------


def upgrade(
    records: list[Record], system: GameSystem, start: dict[str, int], *, at: str | None = None
) -> Upgraded:
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


def _rewrite(step: Upgrade, record: Record, kind_of: dict[int, str]) -> Record:
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


def _inserted(records: list[Record], ran: list[Ran]) -> tuple[Insertions, set[str]]:
    """Pass 2: fold the old journal with today's code, letting each step insert the events today's
    rules need before an old event (or after the last), or leave an old event out.
    -> ({uid of the event they precede (None: at the end): [records]}, uids left out); each
    inserted record is reshaped by the rewrite steps after its own."""
    found: Insertions = {}
    dropped: set[str] = set()
    journal = OldJournal(records)
    referred = {r.data.get(REFERENCES[r.kind]) for r in records if r.kind in REFERENCES}
    seqs = {r.uid: r.seq for r in records}
    fold_from: dict[str, int] = {}  # old events fold under the version they were written under
    for entry in ran:
        fold_from.setdefault(entry.journal, entry.step.version)

    def upgrade(
        state: CampaignState | None, record: Record | None, apply: engine.Applier
    ) -> tuple[CampaignState | None, bool]:
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
                and step.drop(plain(state), record, journal)
            ):
                entry.dropped.append(record)
                dropped.add(record.uid)
                return state, True
            wanted = (
                step.before(plain(state), record, journal)
                if record is not None
                else step.at_end(plain(state), journal)
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

    engine.fold(records, start_versions=start_versions(records, fold_from), upgrade=upgrade)
    return found, dropped


def _record(
    state: CampaignState,
    item: Insert,
    before: Record | None,
    records: list[Record],
    step: Upgrade,
    number: int,
) -> Record:
    """An inserted event as a record: filed as today's rules file it, dated like the event it
    precedes (the last one at the end), a uid that is the same wherever this journal is upgraded."""
    anchor = before or records[-1]
    actor = item.actor
    if actor is None:
        seats = state["sides"].get(item.side) if item.side else None
        players = seats["players"] if seats else []
        actor = players[0] if players else (state.get("referee") or anchor.actor)
    uid = str(
        uuid.uuid5(
            UIDS, f"{anchor.uid}/{'end' if before is None else 'before'}/{step.name}/{number}"
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


def _renumbered(records: list[Record], inserted: Insertions, dropped: set[str]) -> list[Record]:
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
        groups: dict[str, dict[str, list[str]]] = {"": {"events": [], "dropped": []}}
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
                            UIDS,
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


# --- journals written before versions ---------------------------------------------------------------


def carry(
    records: list[Record],
    system: GameSystem,
    start: dict[str, int] | None,
    check: Callable[[list[Record]], CampaignState],
    *,
    at: str | None = None,
) -> tuple[Upgraded, CampaignState]:
    """(Upgraded, state): the journal carried to today's versions and `check`ed (a fold that raises
    when the journal does not fit). `start` None: written before journals said their versions
    (Muster 0.1.0 and earlier): the newest version whose rules it obeys, once upgraded, is taken,
    from the newest such a file can be (the system's journal_version_before_versions, the core's
    CORE_VERSION_BEFORE_VERSIONS) down to the oldest an upgrade carries, then today's. When none
    fits, FitsNoVersion names the refusal of the version it got furthest under."""
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
    refusals: list[tuple[tuple[int, bool], dict[str, int], DomainError]] = []
    for trial in trials:
        folded: list[Record] | None = None
        try:
            upgraded = upgrade(records, system, trial, at=at)
            folded = upgraded.records
            state = check(folded)
        except DomainError as error:
            refusals.append((_reached(error, records, folded), trial, error))
            continue
        upgraded.detected = trial != today
        return upgraded, state
    # The furthest refusal; on a tie the first tried: the version the file would be read as had
    # that event fit (the newest a file of before versions can be first, today's last).
    (reached, own), read_as, refusal = max(refusals, key=lambda found: found[0][0])
    raise FitsNoVersion(refusal, system, read_as, trials, reached, own, len(records))


def _reached(
    error: DomainError, records: list[Record], folded: list[Record] | None
) -> tuple[int, bool]:
    """(How many of the journal's own events (`records`) came before the event `error` refuses
    (-1: a refusal of no event), whether that event is one of them (else one an upgrade adds)).
    `folded`: the journal as upgraded, if the upgrade got that far."""
    if not isinstance(error, engine.JournalError):
        return -1, False
    position = {record.uid: index for index, record in enumerate(records)}
    uid = error.record.uid
    if uid in position:
        return position[uid], True
    if folded is not None:  # an event the upgrade added: after the journal's events before it
        for index, record in enumerate(folded):
            if record.uid == uid:
                return sum(1 for earlier in folded[:index] if earlier.uid in position), False
    # Added by a step and refused as the upgrade folded it: numbered as the event it precedes.
    return min(max(error.record.seq - 1, 0), len(records)), False


class FitsNoVersion(DomainError):
    """A journal from before journal versions that fits none of the versions it was read as
    (`tried`, in the order tried): `refusal` is where it got furthest, read as `read_as`:
    `reached` of its `total` events came before the refused one (-1: no event refused), which is
    one of them (`own`) or one an upgrade step adds."""

    def __init__(
        self,
        refusal: DomainError,
        system: GameSystem,
        read_as: dict[str, int],
        tried: list[dict[str, int]],
        reached: int,
        own: bool,
        total: int,
    ):
        self.refusal = refusal
        self.slug = system.slug
        self.today = current(system)
        self.read_as = read_as
        self.tried = tried
        self.reached = reached
        self.own = own
        self.total = total
        super().__init__(refusal.field, f"{self.words()}{refusal.message}")

    def words(self, what: str = "journal") -> str:
        """What was tried and where it got furthest, up to the refusal itself: "A journal from
        before journal versions fits none of the versions this Muster can read it as
        (achtung_panzer journal v3, v2, v1, today's v6). Read as achtung_panzer v3, it got furthest:
        to event 161 of 206, where it stops: "."""

        def named(trial: dict[str, int]) -> str:
            version = f"v{trial[self.slug]}"
            return f"today's {version}" if trial == self.today else version

        if self.reached < 0:
            where = "it is refused"
        elif self.own:
            where = f"it got furthest: to event {self.reached + 1} of {self.total}, where it stops"
        else:
            where = (
                f"it got furthest: past event {self.reached} of {self.total}, where it stops at an "
                "event the upgrade to today's versions adds"
            )
        return (
            f"A {what} from before journal versions fits none of the versions this Muster can "
            f"read it as ({self.slug} journal {', '.join(named(t) for t in self.tried)}). "
            f"Read as {self.slug} {named(self.read_as)}, {where}: "
        )
