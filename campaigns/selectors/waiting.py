"""Whom a campaign waits for, in words anyone in its club may read."""

from __future__ import annotations

from collections.abc import Sequence

from campaigns.access import visibility
from campaigns.journal.proposals import is_complete
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import StateView

from ..models import Campaign
from ..services.state import current_states
from ..systems import get_system


def waiting_on(state: StateView, viewer: Viewer | None = None) -> list[str]:
    """Whom a campaign waits for, in words anyone in the club may read (never a side's secret);
    the viewer's own side is "you"."""
    if state["status"] != "active":
        return []
    system = get_system(state["system"])
    names = {slug: side["name"] for slug, side in state["sides"].items()}
    if viewer is not None and viewer.playing in names:
        names[viewer.playing] = "you"
    out: list[str] = []
    current = state["current"]
    if current is not None:
        scenario = state["scenarios"][current]
        what = system.pending_words(state, current)
        if scenario["status"] == "pending":
            others = [names[s] for s in names if s != scenario["pending"]["side"]]
            out.append(f"{' or '.join(others) or 'the referee'} to confirm {what}")
        elif scenario["status"] == "disputed":
            out.append(f"the referee to settle {what}")
    for sealed in state["sealed"].values():
        if sealed["open"] and not sealed["revealed"]:
            chosen = set(
                sealed.get("submitted") or sealed["choices"]
            )  # a viewer's cut lists who chose
            missing = [names[s] for s in sealed["sides"] if s not in chosen]
            if missing:
                out.append(f"{', '.join(missing)}: {sealed['label']}")
    for proposal in state["proposals"].values():
        if proposal["status"] == "pending" and not is_complete(proposal):
            missing = [names[s] for s in proposal["needs"] if s not in proposal["approved"]] or [
                "the referee"
            ]
            out.append(_proposal_waits(proposal, missing, state))
    for side, words in system.waiting_on(state):
        name = state["sides"][side]["name"] if side in state["sides"] else None
        if names.get(side) == "you" and name and words.startswith(name):
            words = (
                "you" + words[len(name) :]
            )  # "Allied: ..." -> "you: ..."; other words stay as written
        out.append(words)
    return out


def _proposal_waits(proposal: dict[str, object], missing: list[str], state: StateView) -> str:
    """ "Blue's agreement to end the campaign (or the referee's)", or, for a proposal whose words
    are another side's (a correction of its hidden event), what it is in general."""
    data = proposal.get("data")
    if proposal["action"] == "seat" and isinstance(data, dict) and not proposal.get("hidden"):
        from .proposals_shown import proposal_summary

        what = proposal_summary(proposal, state)
        if missing == ["the referee"]:
            return f"the referee's agreement to {what}"
        whose = " and ".join("your side" if name == "you" else name for name in missing)
        either = " (or the referee's)" if state.get("referee") else ""
        return f"{whose}'s agreement to {what}{either}"
    return (
        f"{' and '.join(missing)} to answer a proposed {str(proposal['action']).replace('_', ' ')}"
    )


def campaigns_waiting_on(campaigns: Sequence[Campaign]) -> dict[int, list[str]]:
    """Whom each campaign waits for, as any member of its club may read it (one query for all)."""
    states = current_states(campaigns)
    member = Viewer.club_member()
    return {
        c.pk: waiting_on(visibility.view_state(states[c.pk], member))
        for c in campaigns
        if c.pk in states
    }
