"""Plain values the fold works on: journal records and viewers.

The fold never touches the ORM, so the same code folds stored events, a
candidate event being submitted, and a journal file being replayed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from campaigns.models import Event


@dataclass(frozen=True)
class Record:
    seq: int
    kind: str
    data: dict[str, Any]  # the event's fields, as JSON
    actor: str  # username
    side: str = ""  # the side acted for, "" when none
    audience: str = "public"  # public | side | referee
    at: str = ""  # ISO 8601, UTC
    uid: str = ""

    def with_data(self, data: dict[str, Any]) -> Record:
        return replace(self, data=data)

    @classmethod
    def from_event(cls, event: Event) -> Record:
        return cls(
            seq=event.seq,
            kind=event.kind,
            data=event.data,
            actor=event.actor.username,
            side=event.side,
            audience=event.audience,
            at=event.created_at.isoformat(),
            uid=str(event.uid),
        )


class EventsBySeq(Protocol):
    """The journal's earlier events by number, for a proposal naming one: a dict of them, or the
    journal service's reader that loads them only when asked."""

    def get(self, seq: int, /) -> Record | None: ...


@dataclass(frozen=True)
class Viewer:
    """What one person may read of one campaign.

    ``sides`` are the sides whose private information the viewer may read: the
    side they play, or every side for the referee. A club organizer who plays a
    side is an ordinary player of that side here.
    """

    username: str | None
    sides: frozenset[str] = field(default_factory=frozenset)
    referee: bool = False
    playing: str | None = None  # the side this person plays, if any
    organizer: bool = False
    member: bool = False

    def can_read(self, audience: str, side: str = "") -> bool:
        if audience == "public":
            return self.member or self.referee
        if audience == "side":
            return self.referee or side in self.sides
        return self.referee

    @property
    def arbiter(self) -> bool:
        """May settle disputes: the referee, or an organizer who plays no side."""
        return self.referee or (self.organizer and self.playing is None)

    @classmethod
    def everything(cls, sides: Iterable[str]) -> Viewer:
        return cls(username=None, sides=frozenset(sides), referee=True, member=True)

    @classmethod
    def for_side(cls, side: str, username: str | None = None) -> Viewer:
        return cls(username=username, sides=frozenset([side]), playing=side, member=True)

    @classmethod
    def club_member(cls, username: str | None = None) -> Viewer:
        return cls(username=username, member=True)
