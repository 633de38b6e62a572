"""What one campaign may hold: every event is capped (schema.EVENT_MAX_BYTES),
but not their number, and unbounded, 40 proposals of 59 KB would make every member's state and
export 2.4 MB, 8 unit lists 3,120 units. These bounds are checked by the journal service when a person submits
(services.journal), on the state the submission would leave, never by the fold or a replay: a
journal written before them (or a file holding more) still folds, replays and plays on, so no
journal version changes (docs/architecture.md, "Bounds and hostile input").

Each bound refuses growth past it only: a submission that leaves a count over its bound but no
higher than before (an approval, a result) is not refused because of what is already there."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from campaigns.errors import DomainError
from campaigns.journal.state_shapes import CampaignState, SideSeats, plain

if TYPE_CHECKING:
    from campaigns.systems.base import GameSystem

# What a count is kept by: a side ("" the referee's and organizers'), or (side, scenario).
CountKey = str | tuple[str, int]

MAX_OPEN_PROPOSALS_PER_SIDE = (
    5  # waiting for an answer at once, per proposing side (the referee's and organizers' together)
)
MAX_PROPOSAL_BYTES_PER_SIDE = (
    512 * 1024
)  # the data and reasons of a side's proposals, open or answered, in all
MAX_NOTES_PER_SCENARIO_PER_SIDE = 20  # after-action notes on one scenario, per author's side
MAX_UNITS_PER_SIDE = 200  # units a side's record holds (GameSystem.units_held; a game may set its own max_units_per_side)


def check(system: GameSystem, before: CampaignState, after: CampaignState) -> None:
    """Refuse (DomainError) a submission whose state `after` holds more than a bound allows and
    more than `before` did."""
    _bounded(
        _open_proposals(before),
        _open_proposals(after),
        MAX_OPEN_PROPOSALS_PER_SIDE,
        "action",
        lambda who: (
            f"{who} already has {MAX_OPEN_PROPOSALS_PER_SIDE} proposals waiting for an answer, "
            f"as many as a campaign keeps open at once for one side: make another once one of "
            f"them is answered."
        ),
        after["sides"],
    )
    if len(after.get("proposals", {})) > len(
        before.get("proposals", {})
    ):  # a proposal made: sizes change
        _bounded(
            _proposal_bytes(before),
            _proposal_bytes(after),
            MAX_PROPOSAL_BYTES_PER_SIDE,
            "data",
            lambda who: (
                f"With this one, {who[0].lower()}{who[1:]}'s proposals, open or answered, would "
                f"hold more than {MAX_PROPOSAL_BYTES_PER_SIDE // 1024} KB, as much as a campaign keeps "
                f"for one side: make it shorter."
            ),
            after["sides"],
        )
    _bounded(
        _notes(before),
        _notes(after),
        MAX_NOTES_PER_SCENARIO_PER_SIDE,
        "text",
        lambda who: (
            f"{who} already has {MAX_NOTES_PER_SCENARIO_PER_SIDE} notes on this scenario, as many "
            f"as a campaign keeps per side and scenario: add to one of them instead."
        ),
        after["sides"],
    )
    limit = getattr(system, "max_units_per_side", MAX_UNITS_PER_SIDE)
    _bounded(
        _units(system, before),
        _units(system, after),
        limit,
        "units",
        lambda who: f"A side's record holds at most {limit} units; {who} would have more.",
        after["sides"],
    )


def _bounded(
    before: Counter[CountKey],
    after: Counter[CountKey],
    limit: int,
    field: str,
    message: Callable[[str], str],
    sides: dict[str, SideSeats],
) -> None:
    for key, count in after.items():
        if count > limit and count > before.get(key, 0):
            raise DomainError(field, message(_who(key, sides)))


def _who(key: CountKey, sides: dict[str, SideSeats]) -> str:
    """The side a count is of, by its name (never its key)."""
    side = key[0] if isinstance(key, tuple) else key
    if not side:
        return "The referee's and organizers' side"
    seats = sides.get(side)
    return f"The {seats['name'] if seats else side} side"


def _open_proposals(state: CampaignState) -> Counter[CountKey]:
    return Counter(
        p.get("side") or ""
        for p in state.get("proposals", {}).values()
        if p.get("status") == "pending"
    )


def _proposal_bytes(state: CampaignState) -> Counter[CountKey]:
    """Withdrawing one's own proposal answers it, so a side could otherwise propose and withdraw
    large ones for ever: what answered proposals hold counts too."""
    sizes: Counter[CountKey] = Counter()
    for proposal in state.get("proposals", {}).values():
        sizes[proposal.get("side") or ""] += len(
            json.dumps([proposal.get("data"), proposal.get("reason")])
        )
    return sizes


def _notes(state: CampaignState) -> Counter[CountKey]:
    return Counter((n.get("side") or "", n.get("scenario")) for n in state.get("notes", []))


def _units(system: GameSystem, state: CampaignState) -> Counter[CountKey]:
    if state.get("status") == "setup":
        return Counter()
    return Counter(system.units_held(plain(state)))
