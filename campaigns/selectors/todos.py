"""What waits for a viewer: the to-dos of a campaign (core and game actions together), the result
waiting for confirmation, and the dashboard's "what waits for me".

This module draws the to-dos (which Actions, in which words, with which forms' first data);
whether the viewer may do each is campaigns.access.permissions' answer, asked here for every one.
`actions_for` is what a viewer's audience may do (kept per audience by the campaign page);
`offered` makes it personal (what the service would refuse this person, the proposals they may
turn down)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.access import permissions, visibility
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import plain
from campaigns.kept_answers import viewcache

from ..models import Campaign
from ..services.state import current_state, current_states
from ..systems import get_system
from ..systems.base import Action, GameSystem
from .proposals_shown import proposal_summary

SideWords = Callable[[str, str], str]  # (side, label) -> the referee's words for a side's to-do
_SEALED_HELP = (
    "The choice stays hidden until every side has chosen; then they are revealed together."
)


def actions_for(state: dict[str, Any], viewer: Viewer) -> list[Action]:
    """What this viewer can (or should) do now, core and game actions together, as their audience
    sees it (kept per audience); `offered` makes it personal. Each yes/no is permissions'."""
    if not permissions.in_play(state):
        return []
    system = get_system(state["system"])
    # The referee acts for every side: each of his to-dos names the side it is for.
    for_side = _referee_words(state) if viewer.referee and not viewer.playing else None
    todos = [
        *_result_todos(state, viewer, system, for_side is not None),
        *_sealed_todos(state, viewer, for_side),
        *_approve_todos(state, viewer),
        *_note_todos(state, viewer),
        *_game_todos(state, viewer, system, for_side),
    ]
    if system.long_forms:  # the core's to-dos whose form this game makes long: a page of their own
        todos = [replace(t, own_page=True) if t.kind in system.long_forms else t for t in todos]
    return todos


def _result_todos(
    state: dict[str, Any], viewer: Viewer, system: GameSystem, for_referee: bool
) -> list[Action]:
    """Enter, confirm, dispute, withdraw or settle the result of the current scenario."""
    current = state["current"]
    if current is None:
        return []
    todos: list[Action] = []
    scenario = state["scenarios"][current]
    at = {"scenario": current}
    if permissions.may_enter_result(state, viewer, system):
        if for_referee:  # the referee's result is final (core_events._result_submitted)
            label = (
                f"Enter the result of {scenario['label']} (final: the "
                "referee's result needs no confirmation)"
            )
            todos.append(Action("result.submitted", label, None, initial=at))
        else:
            label = f"Enter the result of {scenario['label']}"
            side = permissions.acting_sides(state, viewer)[0]
            todos.append(Action("result.submitted", label, side, initial=at))
    what = system.pending_words(state, current)
    if permissions.may_confirm_result(scenario, viewer):
        todos.append(Action("result.confirmed", f"Confirm {what}", viewer.playing, initial=at))
    if permissions.may_dispute_result(scenario, viewer):
        todos.append(Action("result.disputed", f"Dispute {what}", viewer.playing, initial=at))
    if permissions.may_withdraw_result(scenario, viewer):
        label = f"Withdraw {_yours(what)}"
        todos.append(Action("result.withdrawn", label, viewer.playing, initial=at))
    if permissions.may_settle_result(state, scenario, viewer):
        todos.append(Action("result.resolved", f"Settle {what}", None, initial=at))
    return todos


def _sealed_todos(
    state: dict[str, Any], viewer: Viewer, for_side: SideWords | None
) -> list[Action]:
    """A sealed choice for each side the viewer acts for that has yet to make it."""
    return [
        Action(
            "sealed.submitted",
            for_side(side, f"Choose: {sealed['label']}")
            if for_side
            else f"Choose: {sealed['label']}",
            side,
            initial={"key": key},
            help=_SEALED_HELP,
        )
        for key, sealed in state["sealed"].items()
        for side in permissions.acting_sides(state, viewer)
        if permissions.may_choose_sealed(sealed, side)
    ]


def _approve_todos(state: dict[str, Any], viewer: Viewer) -> list[Action]:
    """An Agree for each proposal waiting for the viewer's agreement."""
    return [
        Action(
            "proposal.approved",
            f"Agree to {proposal_summary(proposal, state)}",
            viewer.playing,
            initial={"proposal": proposal["uid"]},
        )
        for proposal in state["proposals"].values()
        if permissions.may_approve(state, proposal, viewer)
    ]


def _note_todos(state: dict[str, Any], viewer: Viewer) -> list[Action]:
    """An after-action note on the last scenario begun (offered: nothing waits for it)."""
    if not permissions.may_write_note(state, viewer):
        return []
    played = [s for s in state["scenarios"] if s["status"] != "upcoming"]
    return [
        Action(
            "note.added",
            "Write an after-action note",
            viewer.playing,
            optional=True,
            initial={"scenario": played[-1]["index"]},
            button="Add the note",
        )
    ]


def _game_todos(
    state: dict[str, Any], viewer: Viewer, system: GameSystem, for_side: SideWords | None
) -> list[Action]:
    """The game's to-dos for each side the viewer acts for; the referee's in his words, a joint
    one (either side's to-do for both) once, for no side."""
    todos: list[Action] = []
    joint_seen = set()
    for side in permissions.acting_sides(state, viewer):
        for action in system.actions(state, side):
            label: str = action.label
            acting_side: str | None = side
            if for_side and action.joint:
                seen = (action.kind, repr(sorted(action.initial.items())))
                if seen in joint_seen:
                    continue
                joint_seen.add(seen)
                acting_side = None
            elif for_side:
                label = action.referee_label or for_side(side, label)
            todos.append(
                replace(
                    action,
                    label=label,
                    side=acting_side,
                    links=tuple(action.links),
                    then=tuple(action.then),
                    before=tuple(action.before),
                )
            )
    return todos


def offered(
    campaign: Campaign, viewer: Viewer, drawn: list[Action], proposals: dict[str, Any]
) -> list[Action]:
    """Everything this viewer may submit now, as the campaign page draws it and the API's
    ``/actions/`` lists it: `drawn` (actions_for, kept per audience) less what the service would
    refuse this person (permissions.may_take), and a Reject (or Withdraw) for each proposal they
    may turn down (`proposals`: the viewer's cut of them, the state's ``proposals``)."""
    todos = for_person(campaign, viewer, drawn, lambda: plain(current_state(campaign)))
    return [*todos, *reject_todos(proposals, viewer, _agreeing(todos))]


def for_person(
    campaign: Campaign,
    viewer: Viewer,
    drawn: list[Action],
    state: Callable[[], dict[str, Any]],
) -> list[Action]:
    """`drawn` (actions_for) less what the service would refuse this person for who they are in
    the club (permissions.may_take): a Settle for one who is no neutral party (made organizer in
    play, or while the campaign was set up by one who went on to play a side). `state` gives
    the full state, loaded only for a Settle drawn."""
    return [todo for todo in drawn if permissions.may_take(campaign, viewer, todo, state)]


def reject_todos(
    proposals: dict[str, Any], viewer: Viewer, asked: Collection[str | None] = ()
) -> list[Action]:
    """A Reject (or, for one's own proposal, a Withdraw) for each proposal `viewer` may turn
    down (permissions.may_reject); `proposals` is the viewer's cut of them."""
    return [
        Action(
            "proposal.rejected",
            "Withdraw the proposal" if proposal["by"] == viewer.username else "Reject",
            viewer.playing,
            initial={"proposal": proposal["uid"]},
        )
        for proposal in proposals.values()
        if permissions.may_reject(proposal, viewer, asked)
    ]


def stable_id(todo: Action) -> str:
    """A to-do's id as the campaign page lists it (``?do=<id>``, its form's element ids): unique
    on the page and the same on every render; a notice links to it."""
    text = json.dumps([todo.kind, todo.side, todo.initial], sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def _given(state: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: state


def _agreeing(todos: list[Action]) -> set[str | None]:
    return {t.initial.get("proposal") for t in todos if t.kind == "proposal.approved"}


def _yours(what: str) -> str:
    """ "the result of X" -> "your result of X"; "the German's record of X" -> "your record of X"."""
    if what.startswith("the result of"):
        return "your" + what[len("the") :]
    head, _, rest = what.partition("'s ")
    return f"your {rest}" if rest and head.startswith("the ") else what


def _referee_words(state: dict[str, Any]) -> SideWords:
    names = {slug: side["name"] for slug, side in state["sides"].items()}
    return lambda side, label: f"{names.get(side, side)}: {label}"


def result_to_confirm(state: dict[str, Any], index: int) -> dict[str, Any] | None:
    """The result waiting for confirmation in scenario `index`, in the words a person confirms or
    disputes it by: who entered it and every field as sentences (the game's result_words, with
    what it implies). `state` is the viewer's cut; the result itself is public."""
    from campaigns.journal.context import Ctx

    scenario = state["scenarios"][index]
    pending = scenario.get("pending")
    if not pending:
        return None
    system = get_system(state["system"])
    side = (
        state["sides"].get(pending.get("side"), {}).get("name")
        if pending.get("side")
        else "the referee"
    )
    return {
        "label": scenario["label"],
        "what": system.pending_words(state, index),
        "by": pending.get("by"),
        "side": side,
        "lines": system.result_words(state, index, pending.get("data"), Ctx.reading(system, state)),
    }


def waiting_for(
    user: AbstractBaseUser | AnonymousUser,
    read: tuple[list[Campaign], dict[int, Viewer]] | None = None,
) -> list[tuple[Campaign, list[Action]]]:
    """The dashboard's "what waits for me": campaigns in play with something to do. `read`: the
    person's campaigns and their viewers as the caller read them already (the dashboard)."""
    # Viewers and states are fetched for all campaigns at once: the dashboard's
    # queries must not grow with the number of campaigns.
    if read is None:
        campaigns = list(visibility.campaigns_for(user).filter(status=Campaign.ACTIVE))
        viewers = visibility.viewers_for(user, campaigns)
    else:
        campaigns = [c for c in read[0] if c.status == Campaign.ACTIVE]
        viewers = read[1]
    involved = [c for c in campaigns if permissions.may_act_in_play(viewers[c.pk])]
    # Kept per (campaign, the person's audience position, the person): a campaign whose position
    # has not moved since is not read again (its state least of all).
    keys = {
        c.pk: viewcache.key(c, viewers[c.pk], f"todos:{user.pk}", refresh_missing=False)
        for c in involved
    }
    kept = viewcache.get_many([k for k in keys.values() if k])
    unread = [c for c in involved if keys[c.pk] not in kept]
    states = current_states(unread) if unread else {}
    drawn_now: dict[str, object] = {}
    found = []
    for campaign in involved:
        name = keys[campaign.pk]
        if name in kept:
            todos = kept[name]
        else:
            todos = _todos(campaign, viewers[campaign.pk], plain(states[campaign.pk]))
            if name is not None:
                drawn_now[name] = todos
        if todos:
            found.append((campaign, todos))
    viewcache.put_many(drawn_now)
    return found


def _todos(campaign: Campaign, viewer: Viewer, full: dict[str, Any]) -> list[Action]:
    """What waits for this person in this campaign, each step once (the referee acting for both
    sides sees a shared step once), optional ones left out."""
    todos: list[Action] = []
    seen: set[str] = set()
    for todo in for_person(campaign, viewer, actions_for(full, viewer), _given(full)):
        if todo.optional or todo.label in seen:
            continue
        seen.add(todo.label)
        todos.append(todo)
    return todos
