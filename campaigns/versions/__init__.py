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
  dice keys are untouched. A rule a rewrite cannot carry (what a step rolls, say) is kept by the
  fold as for a "fold" step: the events before a rewrite's marker fold under the version they were
  written under (``ctx.journal_version``).
- ``"fold"``: old events stay as written and fold under the rules of their version: the game's fold
  asks ``ctx.journal_version`` and keeps the old rule while it is below the new version. The
  ``journal.upgraded`` event is the marker from which the new version applies.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any, cast

from campaigns.errors import DomainError
from campaigns.journal.records import Record

if TYPE_CHECKING:  # a game declares its upgrades with these: the versions never import a game
    from campaigns.systems.base import GameSystem

CORE = "core"
# The core's journal: its kinds (core_events.KINDS), proposals, seats, filing. Bump it (and add
# an Upgrade to CORE_UPGRADES) when they change; tests/versions/test_journal_signatures.py checks.
CORE_VERSION = 3
CORE_UPGRADES: tuple[Upgrade, ...] = ()  # set below, once Upgrade is defined
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
UIDS = uuid.UUID("8f0b7c1e-5d2a-4c55-9a57-2f4a1c0e9b31")  # uids of events an upgrade writes (uuid5)
MARKER_MAX_UIDS = (
    1000  # a journal.upgraded event lists at most this many events (its count says all)
)


def release() -> str:
    from muster.release import __version__

    return __version__


@dataclass(frozen=True)
class Insert:
    """An event an upgrade step adds to an old journal. ``side``: the side it is filed under (its
    actor is then a player of that side, as the state had it); ``actor``: a username, if it must be
    someone in particular (by default the side's first player, else the actor of the next event)."""

    kind: str
    data: dict[str, Any]
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

    def data(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """An old event's data (of ``kind``, as renamed) in the new version's shape. Also applied to
        a correction's data for an event of that kind. Return ``data`` itself when unchanged."""
        return data

    def before(self, state: dict[str, Any], record: Record, journal: OldJournal) -> list[Insert]:
        """Events to insert before the old event ``record``, given ``state``: the journal up to it,
        folded by today's code (the old fold's state, as far as today's code reads it), and the
        old ``journal`` (``journal.after(record)``: what the old journal went on to hold). Called for
        every old event that folds (not for undone ones), with corrections applied."""
        return []

    def at_end(self, state: dict[str, Any], journal: OldJournal) -> list[Insert]:
        """Events to add after the last old event (a campaign stopped where the new version needs
        one), given the state after the whole journal."""
        return []

    def drop(self, state: dict[str, Any], record: Record, journal: OldJournal) -> bool:
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
    """Core v1 -> v2: once play has started, seating someone on a side (or taking a
    side's player off, by one who plays or played a side) needs that side's agreement or the
    referee's, whoever seats them (campaigns.access.seats.seat_needs). v1 asked it only for
    someone who had seen another side's secrets; its seat changes keep the rule they were made
    under."""

    version = 1
    name = "core-seat-needs-the-sides-agreement"
    words = "seating someone on a side in play needs that side's agreement (or the referee's)"
    how = "fold"


class EndingAgreement(Upgrade):
    """Core v2 -> v3: once play has started, ending the campaign, or taking its referee off, by
    one who plays or has played a side needs the other sides' agreement or the referee's (a "seat"
    proposal, which may now carry campaign.finished: campaigns.access.seats, ENDING_RULES). v2
    journals keep the rule they were written under: either was direct for any organizer."""

    version = 2
    name = "core-ending-needs-the-other-sides-agreement"
    words = (
        "ending the campaign or taking the referee off in play, by one who plays or played a "
        "side, needs the other side's agreement (or the referee's)"
    )
    how = "fold"


CORE_UPGRADES = (SeatAgreement(), EndingAgreement())


class OldJournal:
    """The old journal an upgrade step reads (its events as rewritten by the steps before)."""

    def __init__(self, records: list[Record]):
        self.records = records
        self._index = {record.uid: i for i, record in enumerate(records)}

    def after(self, record: Record | None) -> Iterator[Record]:
        """The old events after `record`, in order (none after the end)."""
        if record is None:
            return iter(())
        return islice(self.records, self._index[record.uid] + 1, None)


class VersionError(DomainError):
    """A journal no upgrade of this Muster carries, or one written by a newer Muster."""


# --- what the code declares -------------------------------------------------------------------------


def current(system: GameSystem) -> dict[str, int]:
    """The versions this code writes: {"core": n, "<system slug>": n}."""
    return {CORE: CORE_VERSION, system.slug: system.journal_version}


def steps_of(journal: str, system: GameSystem) -> dict[int, Upgrade]:
    steps = CORE_UPGRADES if journal == CORE else system.journal_upgrades
    return {step.version: step for step in steps}


def oldest(journal: str, system: GameSystem) -> int:
    """The oldest version of `journal` this code can carry to today's."""
    steps = steps_of(journal, system)
    version = current(system)[journal]
    while version - 1 in steps:
        version -= 1
    return version


def check_versions(
    versions: object, system: GameSystem, where: str = "journals", written_by: str = ""
) -> dict[str, int]:
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


def plan(start: dict[str, int], system: GameSystem) -> list[tuple[str, Upgrade]]:
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


# --- versions in the fold ---------------------------------------------------------------------------


def start_versions(
    records: list[Record], fold_from: dict[str, int] | None = None
) -> dict[str, int]:
    """{journal: version} the first event folds under, where it is not today's: an upgrade marker in
    the journal says its events before it were written under the version it upgraded from (and
    `fold_from`, what an upgrade running now says). A "fold" step keeps their old rule that way; a
    "rewrite" step's events are reshaped for today's kinds, and a rule that ran differently before
    its version still asks the version they were written under (its game's fold keeps the old one)."""
    start = dict(fold_from or {})
    for record in records:
        if record.kind == UPGRADED:
            # A marker's data as the journal holds it (JSON; its kind's fields: text, a number).
            journal = cast(str, record.data.get("journal"))
            start.setdefault(journal, cast(int, record.data.get("from")))
    return start
