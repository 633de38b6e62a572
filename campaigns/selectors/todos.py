"""What waits for a viewer: the to-dos of a campaign (core and game actions together), the result
waiting for confirmation, and the dashboard's "what waits for me"."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from campaigns.access import permissions, visibility
from campaigns.access.seats import may_settle
from campaigns.journal.records import Viewer

from ..models import Campaign
from ..services.state import current_states
from ..systems import get_system
from ..systems.base import Action
from .proposals_shown import proposal_summary


def actions_for(state: dict, viewer: Viewer) -> list[Action]:
    """What this viewer can (or should) do now, core and game actions together."""
    todos: list[Action] = []
    if state["status"] != "active":
        return todos
    system = get_system(state["system"])
    acting = (
        [viewer.playing] if viewer.playing else (list(state["sides"]) if viewer.referee else [])
    )
    # The referee acts for every side: each of his to-dos names the side it is for.
    for_side = _referee_words(state) if viewer.referee and not viewer.playing else None
    current = state["current"]
    if current is not None:
        scenario = state["scenarios"][current]
        if (
            scenario["status"] == "current"
            and acting
            and system.result_open(state, current) is None
        ):
            if for_side:  # the referee's result is final (core_events._result_submitted)
                todos.append(
                    Action(
                        "result.submitted",
                        f"Enter the result of {scenario['label']} (final: the "
                        "referee's result needs no confirmation)",
                        None,
                        initial={"scenario": current},
                    )
                )
            else:
                todos.append(
                    Action(
                        "result.submitted",
                        f"Enter the result of {scenario['label']}",
                        acting[0],
                        initial={"scenario": current},
                    )
                )
        what = system.pending_words(state, current)
        if scenario["status"] == "pending":
            by = scenario["pending"]["side"]
            if viewer.referee or (viewer.playing and viewer.playing != by):
                todos.append(
                    Action(
                        "result.confirmed",
                        f"Confirm {what}",
                        viewer.playing,
                        initial={"scenario": current},
                    )
                )
                if viewer.playing:
                    todos.append(
                        Action(
                            "result.disputed",
                            f"Dispute {what}",
                            viewer.playing,
                            initial={"scenario": current},
                        )
                    )
            if viewer.playing == by:
                todos.append(
                    Action(
                        "result.withdrawn",
                        f"Withdraw {_yours(what)}",
                        viewer.playing,
                        initial={"scenario": current},
                    )
                )
        if scenario["status"] in ("pending", "disputed") and may_settle(state, viewer):
            todos.append(
                Action("result.resolved", f"Settle {what}", None, initial={"scenario": current})
            )
    for key, sealed in state["sealed"].items():
        for side in acting:
            if sealed["open"] and side in sealed["sides"] and side not in sealed["choices"]:
                label = f"Choose: {sealed['label']}"
                todos.append(
                    Action(
                        "sealed.submitted",
                        for_side(side, label) if for_side else label,
                        side,
                        initial={"key": key},
                        help=_options_help(sealed),
                    )
                )
    for proposal in state["proposals"].values():
        if permissions.may_approve(state, proposal, viewer):
            todos.append(
                Action(
                    "proposal.approved",
                    f"Agree to {proposal_summary(proposal, state)}",
                    viewer.playing,
                    initial={"proposal": proposal["uid"]},
                )
            )
    played = [s for s in state["scenarios"] if s["status"] != "upcoming"]
    if played and (viewer.playing or viewer.referee):
        todos.append(
            Action(
                "note.added",
                "Write an after-action note",
                viewer.playing,
                optional=True,
                initial={"scenario": played[-1]["index"]},
                button="Add the note",
            )
        )
    joint_seen = set()
    for side in acting:
        for action in system.actions(state, side):
            label, acting_side = action.label, side
            if for_side and action.joint:  # either side's to-do for both: once, for no side
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
    if system.long_forms:  # the core's to-dos whose form this game makes long: a page of their own
        todos = [replace(t, own_page=True) if t.kind in system.long_forms else t for t in todos]
    return todos


def _yours(what: str) -> str:
    """ "the result of X" -> "your result of X"; "the German's record of X" -> "your record of X"."""
    if what.startswith("the result of"):
        return "your" + what[len("the") :]
    head, _, rest = what.partition("'s ")
    return f"your {rest}" if rest and head.startswith("the ") else what


def _referee_words(state: dict) -> Callable[[str, str], str]:
    names = {slug: side["name"] for slug, side in state["sides"].items()}
    return lambda side, label: f"{names.get(side, side)}: {label}"


def _options_help(sealed) -> str:
    return "The choice stays hidden until every side has chosen; then they are revealed together."


def result_to_confirm(state: dict, index: int) -> dict | None:
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


def waiting_for(user) -> list[tuple[Campaign, list[Action]]]:
    """The dashboard's "what waits for me": campaigns in play with something to do."""
    # Viewers and states are fetched for all campaigns at once: the dashboard's
    # queries must not grow with the number of campaigns.
    campaigns = list(visibility.campaigns_for(user).filter(status=Campaign.ACTIVE))
    viewers = visibility.viewers_for(user, campaigns)
    involved = [
        c
        for c in campaigns
        if viewers[c.pk].playing or viewers[c.pk].referee or viewers[c.pk].arbiter
    ]
    states = current_states(involved)
    found = []
    for campaign in involved:
        todos, seen = [], set()
        drawn = actions_for(states[campaign.pk], viewers[campaign.pk])
        for todo in permissions.for_person(campaign, viewers[campaign.pk], drawn):
            if todo.optional or todo.label in seen:
                continue  # the referee acting for both sides sees a shared step once
            seen.add(todo.label)
            todos.append(todo)
        if todos:
            found.append((campaign, todos))
    return found
