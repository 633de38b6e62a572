"""Event kinds every campaign has, whatever its game, and their handlers in the fold: people,
house rules, results and their confirmation, sealed choices, dice, notes, journal upgrades, and
the kinds of proposals (corrections, undo, late house rules, full exports, seating people once
play has started) that need agreement, whose handlers are campaigns.journal.proposals'. The rules of
seats are campaigns.access.seats, of house rules campaigns.journal.house_rules; a game moves the campaign on with
campaigns.journal.progress (through campaigns.game_interface).

Who may submit what is checked twice: club roles (organizer) by the services,
which know the club; side rules (who plays which side, who confirms whom) here,
so a replayed journal is held to them too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaigns import versions
from campaigns.access.seats import apply_seat, playing, remember_seat
from campaigns.errors import DomainError
from campaigns.journal.context import Ctx
from campaigns.journal.house_rules import set_house_rule
from campaigns.journal.progress import advance
from campaigns.journal.records import Record
from campaigns.journal.state_shapes import (
    CampaignState,
    PendingResult,
    Scenario,
    ScenarioStatus,
    SealedChoice,
    plain,
)
from campaigns.schema.fields import EventKind, Field
from campaigns.systems import get_system

_SCENARIO = Field("scenario", "int", min=0)

# The shape of a folded state: bumped when the fold itself changes (a rule, where a value is
# kept), so snapshots folded by older code are folded again from the journal (services.state).
STATE_SHAPE = "2026-11-29.1"  # .1: a victory ledger keeps its chart as numbers (charts.Chart)

KINDS = {
    k.name: k
    for k in [
        EventKind(
            "campaign.created",
            "Campaign created",
            (
                Field("system"),
                Field("variant"),
                Field("name", max_length=120),
                Field("options", "json", required=False, default={}),
            ),
            actor="organizer",
        ),
        EventKind(
            "player.assigned",
            "Player assigned to a side",
            (Field("side"), Field("username")),
            actor="organizer",
        ),
        EventKind(
            "player.removed",
            "Player removed from a side",
            (Field("side"), Field("username")),
            actor="organizer",
        ),
        EventKind(
            "player.replaced",
            "Player replaced",
            (Field("side"), Field("old"), Field("new")),
            actor="organizer",
        ),
        EventKind(
            "referee.assigned",
            "Referee assigned",
            (Field("username", required=False, default=None),),
            actor="organizer",
        ),
        EventKind(
            "house_rule.set",
            "House rule set",
            (
                Field("key"),
                Field("value", "json"),
                Field("note", required=False, default=""),
            ),
            actor="organizer",
        ),
        EventKind("campaign.started", "Campaign started", (), actor="organizer"),
        EventKind(
            "campaign.finished",
            "Campaign ended by the organizer",
            (Field("reason", max_length=500),),
            actor="organizer",
        ),
        EventKind(
            "result.submitted", "Result submitted", (_SCENARIO, Field("data", "json")), actor="side"
        ),
        EventKind("result.withdrawn", "Result withdrawn", (_SCENARIO,), actor="side"),
        EventKind("result.confirmed", "Result confirmed", (_SCENARIO,), actor="side"),
        EventKind(
            "result.disputed",
            "Result disputed",
            (_SCENARIO, Field("reason", max_length=1000)),
            actor="side",
        ),
        EventKind(
            "result.resolved",
            "Disputed result settled",
            (_SCENARIO, Field("data", "json")),
            actor="arbiter",
        ),
        EventKind(
            "dice.rolled",
            "Dice rolled",
            (
                Field("key", max_length=200),
                Field("expr"),
                Field("dice", "list", item=Field("die", "int")),
                Field("source", "choice", choices=("server", "entered")),
            ),
            actor="system",
        ),
        EventKind(
            "sealed.submitted",
            "Sealed choice submitted",
            (Field("key"), Field("choice", "json")),
            audience="side",
        ),
        EventKind(
            "sealed.revealed",
            "Sealed choices revealed",
            (Field("key"), Field("choices", "json")),
            actor="system",
        ),
        EventKind(
            "note.added",
            "After-action note",
            (
                _SCENARIO,
                Field("text", max_length=2000, label="Note"),
                Field("private", "bool", required=False, default=False, label="For my side only"),
            ),
            actor="member",
        ),
        EventKind(
            "proposal.made",
            "Change proposed",
            (
                Field(
                    "action", "choice", choices=("correct", "undo", "house_rule", "export", "seat")
                ),
                Field("target", "int", required=False, default=None, min=1),
                Field("data", "json", required=False, default=None),
                Field("reason", required=False, default="", max_length=1000),
            ),
            actor="member",
        ),
        EventKind(
            "proposal.approved",
            "Change approved",
            (Field("proposal", "int", min=1),),
            actor="member",
        ),
        EventKind(
            "proposal.rejected",
            "Change rejected",
            (Field("proposal", "int", min=1),),
            actor="member",
        ),
        EventKind(
            "proposal.applied", "Change applied", (Field("proposal", "int", min=1),), actor="system"
        ),
        EventKind(
            versions.UPGRADED,
            "Journal upgraded",
            (
                Field("journal", max_length=60),
                Field("from", "int", min=1),
                Field("to", "int", min=2),
                Field("step", max_length=80),
                Field("how", "choice", choices=versions.WAYS),
                Field("release", max_length=40),
                Field(
                    "events",
                    "list",
                    required=False,
                    default=[],
                    max=versions.MARKER_MAX_UIDS,
                    item=Field("uid", max_length=36),
                ),
                Field("count", "int", required=False, default=0, min=0),
                Field(
                    "dropped",
                    "list",
                    required=False,
                    default=[],
                    max=versions.MARKER_MAX_UIDS,
                    item=Field("uid", max_length=36),
                ),
            ),
            actor="system",
        ),
    ]
}

# Kinds a proposal may correct or undo (dice are never re-rolled; proposals and
# system-written events are history).
AMENDABLE = {"result.submitted", "result.resolved", "sealed.submitted", "note.added"}
UNDOABLE = AMENDABLE | {
    "result.confirmed",
    "result.disputed",
    "result.withdrawn",
    "player.assigned",
    "player.removed",
    "player.replaced",
    "referee.assigned",
}


def new_state(record: Record) -> CampaignState:
    data = KINDS["campaign.created"].clean(record.data)
    try:
        system = get_system(data["system"])
    except KeyError:
        raise DomainError("system", f"Unknown game system {data['system']!r}.") from None
    try:
        variant = system.variant(data["variant"])
    except KeyError:
        raise DomainError("variant", f"{system.name} has no variant {data['variant']!r}.") from None
    options = system.clean_options(data["options"] or {})
    return {
        "version": 1,
        "shape": STATE_SHAPE,
        # The journal versions the events fold under (campaigns.versions): today's, unless the
        # journal's "fold" upgrade markers say its earlier events keep an earlier version's rules.
        "journals": versions.current(system),
        "seq": record.seq,
        "system": system.slug,
        "variant": variant.slug,
        "name": data["name"],
        "options": options,
        "status": "setup",
        "winner": None,
        "finish_reason": "",
        "sides": {s.slug: {"name": s.name, "players": []} for s in system.sides},
        "referee": None,
        "house_rules": {},
        "scenarios": [
            {"index": i, "label": label, "status": "upcoming", "result": None, "pending": None}
            for i, label in enumerate(variant.calendar)
        ],
        "current": None,
        "sealed": {},
        "proposals": {},
        "streams": {},
        "export_approved": None,
        "played": {},  # since the start: username -> sides played
        "refereed": [],  # since the start: who has refereed
        "departed": {},  # side -> the player who left it empty in play (seats.stand_in_for)
        "undone": {},
        "corrected": {},
        "game": None,
    }


# --- handlers ------------------------------------------------------------------------

# A core kind's handler: applies one event (its data cleaned) to the state in place.
Handler = Callable[[CampaignState, Record, Ctx], None]


def _player_assigned(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    apply_seat(state, "player.assigned", rec.data, agreed=False, actor=rec.actor)


def _player_removed(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    apply_seat(state, "player.removed", rec.data, agreed=False, actor=rec.actor)


def _player_replaced(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    apply_seat(state, "player.replaced", rec.data, agreed=False, actor=rec.actor)


def _referee_assigned(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    apply_seat(state, "referee.assigned", rec.data, agreed=False, actor=rec.actor)


def _house_rule_set(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    if state["status"] != "setup":
        raise DomainError(
            "key", "Once play has started, a house rule needs every side's agreement (propose it)."
        )
    set_house_rule(state, ctx, rec.data["key"], rec.data["value"], rec.data["note"], rec.seq)


def _campaign_started(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    if state["status"] != "setup":
        raise DomainError("status", "The campaign has already started.")
    empty = [s["name"] for s in state["sides"].values() if not s["players"]]
    if empty:
        raise DomainError("sides", f"Every side needs a player first: {', '.join(empty)}.")
    state["status"] = "active"
    for slug, side in state["sides"].items():
        for user in side["players"]:
            remember_seat(state, user, slug)
    remember_seat(state, state["referee"])
    # The game's own part, as its hook builds it (GameSystem.initial_state).
    state["game"] = ctx.system.initial_state(state["variant"], state["options"], ctx)
    state["current"] = None
    advance(state, ctx)


def _campaign_finished(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    # In play, held like a seat change (core v3): one who plays or played a side proposes it.
    apply_seat(state, "campaign.finished", rec.data, agreed=False, actor=rec.actor)


def _scenario(state: CampaignState, index: int, statuses: tuple[ScenarioStatus, ...]) -> Scenario:
    if state["status"] != "active":
        raise DomainError("scenario", "The campaign is not in play.")
    if not 0 <= index < len(state["scenarios"]):
        raise DomainError("scenario", "No such scenario.")
    scenario = state["scenarios"][index]
    if scenario["status"] not in statuses:
        raise DomainError(
            "scenario", f"{scenario['label']} is {scenario['status']}; this is not possible now."
        )
    return scenario


def _provisional(scenario: Scenario) -> PendingResult:
    """The provisional result of a scenario that is pending (or disputed)."""
    pending = scenario["pending"]
    assert pending is not None, "a pending scenario holds the result submitted"
    return pending


def _result_submitted(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    index = rec.data["scenario"]
    scenario = _scenario(state, index, ("current",))
    if not rec.side and rec.actor != state["referee"]:
        raise DomainError("side", "Submit the result for your side.")
    reason = ctx.system.result_open(plain(state), index)
    if reason:
        raise DomainError("scenario", reason)
    data = ctx.system.clean_result(plain(state), index, rec.data["data"], ctx)
    scenario["status"] = "pending"
    scenario["pending"] = {"side": rec.side, "by": rec.actor, "data": data}
    if len(state["sides"]) == 1 or rec.actor == state["referee"]:
        confirm_result(state, index, data, ctx)


def _result_withdrawn(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    scenario = _scenario(state, rec.data["scenario"], ("pending",))
    if rec.side != _provisional(scenario)["side"] and rec.actor != state["referee"]:
        raise DomainError("scenario", "Only the side that submitted a result can withdraw it.")
    scenario["status"] = "current"
    scenario["pending"] = None


def _result_confirmed(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    index = rec.data["scenario"]
    scenario = _scenario(state, index, ("pending",))
    pending = _provisional(scenario)
    if rec.actor != state["referee"] and (not rec.side or rec.side == pending["side"]):
        raise DomainError("scenario", "The other side (or the referee) confirms a result.")
    confirm_result(state, index, pending["data"], ctx)


def _result_disputed(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    scenario = _scenario(state, rec.data["scenario"], ("pending",))
    if not rec.side or rec.side == _provisional(scenario)["side"]:
        raise DomainError("scenario", "Only the other side can dispute a result.")
    scenario["status"] = "disputed"
    scenario["dispute"] = {"side": rec.side, "by": rec.actor, "reason": rec.data["reason"]}


def _result_resolved(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    index = rec.data["scenario"]
    _scenario(state, index, ("pending", "disputed"))
    if playing(state, rec.actor):
        raise DomainError(
            "scenario", "A dispute is settled by the referee or an organizer who plays no side."
        )
    data = ctx.system.clean_result(plain(state), index, rec.data["data"], ctx)
    confirm_result(state, index, data, ctx)


def confirm_result(state: CampaignState, index: int, data: dict[str, Any], ctx: Ctx) -> None:
    scenario = state["scenarios"][index]
    scenario["status"] = "played"
    scenario["result"] = data
    scenario["pending"] = None
    scenario.pop("dispute", None)
    ctx.system.on_result(plain(state), index, data, ctx)


def _note_added(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    """An after-action note on a scenario: public, or for the author's side only (its audience)."""
    index = rec.data["scenario"]
    if (
        not 0 <= index < len(state["scenarios"])
        or state["scenarios"][index]["status"] == "upcoming"
    ):
        raise DomainError("scenario", "Notes are for scenarios being played or played.")
    if rec.data["private"] and not rec.side:
        raise DomainError(
            "private", "A note for one side only is written by a player of that side."
        )
    state.setdefault("notes", []).append(
        {
            "scenario": index,
            "text": rec.data["text"],
            "by": rec.actor,
            "side": rec.side,
            "private": rec.data["private"],
            "uid": rec.uid,
        }
    )


def note_audience(data: dict[str, Any]) -> str:
    """The rule for who reads a note: the author's side when it says so, else the club."""
    return "side" if data.get("private") else "public"


def _dice_rolled(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    pass  # dice are read from the pool (campaigns.dice.pool) by key


def _journal_upgraded(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    """An upgrade ran on this journal (campaigns.versions): from here on its events are at `to`."""
    data = rec.data
    journals = state.setdefault("journals", versions.current(ctx.system))
    journal = data["journal"]
    if journal not in journals:
        raise DomainError("journal", f"This campaign has no journal {journal!r}.")
    if data["to"] != data["from"] + 1:
        raise DomainError("to", "An upgrade goes from one version to the next.")
    today = versions.current(ctx.system)[journal]
    if data["to"] > today:
        raise DomainError(
            "to",
            f"Written by a newer Muster (journal {journal} v{data['to']}); this one reads up to "
            f"v{today}: upgrade Muster first.",
        )
    if rec.side and rec.side not in state["sides"]:
        raise DomainError("side", f"Unknown side {rec.side!r}.")
    journals[journal] = max(journals[journal], data["to"])


def _sealed(state: CampaignState, key: str) -> SealedChoice:
    sealed = state["sealed"].get(key)
    if sealed is None or not sealed["open"]:
        raise DomainError("key", f"No sealed choice {key} is open.")
    return sealed


def _sealed_submitted(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    sealed = _sealed(state, rec.data["key"])
    if sealed["revealed"]:
        raise DomainError("key", "These choices have already been revealed.")
    if rec.side not in sealed["sides"]:
        raise DomainError("side", "Your side makes no choice here.")
    if sealed["options"] is not None and rec.data["choice"] not in sealed["options"]:
        raise DomainError("choice", f"Choose one of: {', '.join(map(str, sealed['options']))}.")
    sealed["choices"][rec.side] = ctx.system.clean_sealed_choice(
        plain(state), rec.data["key"], rec.data["choice"], ctx
    )


def _sealed_revealed(state: CampaignState, rec: Record, ctx: Ctx) -> None:
    sealed = _sealed(state, rec.data["key"])
    if sealed["revealed"] or set(sealed["choices"]) != set(sealed["sides"]):
        raise DomainError("key", "Choices are revealed once, when every side has chosen.")
    if rec.data["choices"] != sealed["choices"]:
        raise DomainError("choices", "The revealed choices differ from the submitted ones.")
    sealed["revealed"] = True
    sealed["open"] = False
    ctx.system.on_sealed_revealed(plain(state), rec.data["key"], dict(sealed["choices"]), ctx)


HANDLERS: dict[str, Handler] = {
    "player.assigned": _player_assigned,
    "player.removed": _player_removed,
    "player.replaced": _player_replaced,
    "referee.assigned": _referee_assigned,
    "house_rule.set": _house_rule_set,
    "campaign.started": _campaign_started,
    "campaign.finished": _campaign_finished,
    "result.submitted": _result_submitted,
    "result.withdrawn": _result_withdrawn,
    "result.confirmed": _result_confirmed,
    "result.disputed": _result_disputed,
    "result.resolved": _result_resolved,
    "dice.rolled": _dice_rolled,
    versions.UPGRADED: _journal_upgraded,
    "note.added": _note_added,
    "sealed.submitted": _sealed_submitted,
    "sealed.revealed": _sealed_revealed,
}
