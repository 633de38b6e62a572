"""Proposals: changes that need every other side's agreement (or the referee's).

A proposal corrects or undoes an earlier event, sets a house rule after play has
started, seats someone once play has started who needs the sides' agreement (a new
referee, a player who has seen another side's secrets: campaigns.access.seats), ends the
campaign or takes its referee off in play for one who plays or played a side, or one who is no
neutral organizer (a "seat" proposal too: campaigns.access.seats, ENDING_RULES), or
allows the organizers a full export. It is approved by one player of
each side other than the proposer's, or by the referee alone (but a full export
reveals every side's secrets: each side must agree to it itself, the referee's word
does not do); the service then appends ``proposal.applied``. Corrections and undos are applied to the past by
the fold (campaigns.journal.engine.substitutions); the others take effect where
``proposal.applied`` stands in the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from campaigns.access.seats import (
    AGREED_KINDS,
    ENDING_RULES,
    SEAT_KINDS,
    SEAT_RULES,
    apply_seat,
    core_version,
    proposal_needs,
    seat_problem,
    stand_in_for,
)
from campaigns.errors import DomainError
from campaigns.journal.context import Ctx
from campaigns.journal.core_events import AMENDABLE, KINDS, UNDOABLE, Handler
from campaigns.journal.house_rules import check_house_rule, set_house_rule
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import CampaignState, Proposal, ProposalAction

if TYPE_CHECKING:
    from campaigns.systems.base import GameSystem


def amendable(system: GameSystem, kind: str, action: str) -> bool:
    """May an event of `kind` be corrected (`action` "correct") or undone ("undo")? The system's
    own events, and the core's listed as such (core_events.AMENDABLE / UNDOABLE)."""
    if system.event_kind(kind) is not None:
        return True
    return kind in (AMENDABLE if action == "correct" else UNDOABLE)


def _target(state: CampaignState, rec: Record, ctx: Ctx) -> Record:
    target = rec.data["target"]
    if target is None:
        raise DomainError("target", "Name the event to change.")
    record = ctx.journal.get(target)
    if record is None or target >= rec.seq:
        raise DomainError("target", "No such earlier event.")
    if not amendable(ctx.system, record.kind, rec.data["action"]):
        raise DomainError("target", f"A {record.kind} event cannot be changed this way.")
    done_by = state["undone"].get(str(target))
    if done_by is not None and done_by != rec.seq:
        raise DomainError("target", "That event has already been undone.")
    if record.audience != "public" and rec.actor != state["referee"] and rec.side != record.side:
        raise DomainError("target", "No such earlier event.")  # never confirm a hidden event exists
    return record


def _proposal_made(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    data = rec.data
    action: ProposalAction = data["action"]
    target, stored = _checked_change(state, rec, ctx)
    entry: Proposal = {
        "seq": rec.seq,
        "uid": rec.uid,
        "action": action,
        "target": data["target"],
        "data": stored,
        "reason": data["reason"],
        "by": rec.actor,
        "side": rec.side,
        "audience": target.audience if target else "public",
        "target_side": target.side if target else "",
        "target_kind": target.kind if target else "",
        "approved": [],
        "status": "pending",
        "needs": _needs(state, rec, action, stored),
    }
    if target is not None:
        entry["target_uid"] = target.uid
    state["proposals"][str(rec.seq)] = entry


def _checked_change(state: CampaignState, rec: Record, ctx: Ctx) -> tuple[Record | None, Any]:
    """(the event a correction or undo changes, the data the proposal keeps), once checked."""
    data = rec.data
    action = data["action"]
    if action in ("correct", "undo"):
        target = _target(state, rec, ctx)
        if action == "undo":
            return target, data["data"]
        kind = ctx.system.event_kind(target.kind)
        if kind is None:
            kind = KINDS[target.kind]
        if not isinstance(data["data"], dict):
            raise DomainError("data", "Give the corrected data of the event.")
        return target, kind.clean(data["data"])
    if action == "house_rule":
        if state["status"] != "active":
            raise DomainError(
                "action", "Before play starts the organizer sets house rules directly."
            )
        if not ctx.system.late_house_rules:
            raise DomainError(
                "action", f"In {ctx.system.name} house rules are fixed when the campaign starts."
            )
        rule = data["data"] if isinstance(data["data"], dict) else {}
        if "key" not in rule or "value" not in rule:
            raise DomainError("data", "A house rule needs a key and a value.")
        check_house_rule(state, ctx, rule["key"], rule["value"])
    elif action == "seat":
        if data["target"] is not None:
            raise DomainError("target", "A seating proposal names no event.")
        return None, _seat_change(state, data["data"], rec.actor)
    elif data["target"] is not None:
        raise DomainError("target", "An export proposal names no event.")
    return None, data["data"]


def _needs(state: CampaignState, rec: Record, action: ProposalAction, stored: Any) -> list[str]:
    """The sides whose agreement a new proposal waits for."""
    if action == "export":
        # A full export reveals every side's secrets: each side agrees for itself (the
        # proposer for their own side); the referee's word does not do for them.
        return [s for s in state["sides"] if s != rec.side]
    if action == "seat" and core_version(state) >= SEAT_RULES:
        # Exactly the sides the change reaches: the other sides' approval never does for them.
        return proposal_needs(state, stored["kind"], stored["data"], rec.actor)
    referee = rec.actor == state["referee"]
    return [] if referee else [s for s in state["sides"] if s != rec.side]


def _seat_change(state: CampaignState, change: object, actor: str) -> dict[str, Any]:
    """A "seat" proposal's data: {"kind": player.assigned | player.replaced | player.removed |
    referee.assigned | campaign.finished (core v3), "data": that event's data}, checked against
    the state now (and again when applied)."""
    if state["status"] != "active":
        raise DomainError("action", "Before play starts the organizer seats people directly.")
    if (
        not isinstance(change, dict)
        or change.get("kind") not in _agreed_kinds(state)
        or set(change) != {"kind", "data"}
    ):
        kinds = ", ".join(_agreed_kinds(state))
        raise DomainError("data", f"Give the change as {{\"kind\": one of {kinds}, \"data\": …}}.")
    cleaned = KINDS[change["kind"]].clean(change["data"])
    problem = seat_problem(state, change["kind"], cleaned, agreed=True, actor=actor)
    if problem is not None:
        raise DomainError(f"data.{problem.field}", problem.message)
    return {"kind": change["kind"], "data": cleaned}


def _agreed_kinds(state: CampaignState) -> tuple[str, ...]:
    """The changes a "seat" proposal carries: the seats, and from core v3 the campaign's end."""
    return AGREED_KINDS if core_version(state) >= ENDING_RULES else SEAT_KINDS


def _pending(state: CampaignState, number: int) -> Proposal:
    proposal = state["proposals"].get(str(number))
    if proposal is None:
        raise DomainError("proposal", "No such proposal.")
    if proposal["status"] != "pending":
        raise DomainError("proposal", f"This proposal is already {proposal['status']}.")
    return proposal


def _proposal_approved(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    proposal = _pending(state, rec.data["proposal"])
    if rec.actor == state["referee"] and referee_may_approve(proposal):
        proposal["approved"].append("referee")
    elif rec.side in proposal["needs"] and rec.side not in proposal["approved"]:
        proposal["approved"].append(rec.side)
    elif standing_in(state, proposal, rec.actor):
        for side in standing_in(state, proposal, rec.actor):
            proposal["approved"].append(side)
            proposal.setdefault("stand_ins", {})[side] = rec.actor  # said in the club log
    else:
        raise DomainError("proposal", "Your approval is not needed for this proposal.")


def _proposal_rejected(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    proposal = _pending(state, rec.data["proposal"])
    allowed = (
        rec.actor in (state["referee"], proposal["by"])
        or rec.side in proposal["needs"]
        or standing_in(state, proposal, rec.actor)
    )
    if not allowed:
        raise DomainError("proposal", "You cannot reject this proposal.")
    proposal["status"] = "rejected"


def standing_in(
    state: Mapping[str, Any], proposal: Mapping[str, Any], username: str | None
) -> list[str]:
    """The sides of a seat proposal `username` agrees for as the player who left them empty (no
    referee: seats.stand_in_for)."""
    if proposal["action"] != "seat":
        return []
    return [
        s
        for s in stand_in_for(state, username)
        if s in proposal["needs"] and s not in proposal["approved"]
    ]


def stand_in_may_answer(state: Mapping[str, Any], username: str | None) -> bool:
    """May `username`, who plays no side, answer some open seat proposal for a side they left?"""
    return any(
        standing_in(state, p, username)
        for p in state["proposals"].values()
        if p["status"] == "pending"
    )


def referee_may_approve(proposal: Mapping[str, Any]) -> bool:
    """The referee agrees for everyone, except to a full export (each side for itself)."""
    action: ProposalAction = proposal["action"]
    return action != "export"


def is_complete(proposal: Mapping[str, Any]) -> bool:
    if "referee" in proposal["approved"] and referee_may_approve(proposal):
        return True
    return set(proposal["needs"]) <= set(proposal["approved"])


def _proposal_applied(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    proposal = _pending(state, rec.data["proposal"])
    if not is_complete(proposal):
        raise DomainError("proposal", "Not every side has agreed yet.")
    proposal["status"] = "applied"
    proposal["applied"] = rec.seq
    if proposal["action"] == "house_rule":
        rule = proposal["data"]
        set_house_rule(state, ctx, rule["key"], rule["value"], rule.get("note", ""), rec.seq)
    elif proposal["action"] == "export":
        state["export_approved"] = rec.seq
    elif proposal["action"] == "seat":
        change = proposal["data"]
        apply_seat(state, change["kind"], change["data"], agreed=True, actor=proposal["by"])


HANDLERS: dict[str, Handler] = {
    "proposal.made": _proposal_made,
    "proposal.approved": _proposal_approved,
    "proposal.rejected": _proposal_rejected,
    "proposal.applied": _proposal_applied,
}
