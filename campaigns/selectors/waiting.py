"""Whom a campaign waits for, in words anyone in its club may read."""

from __future__ import annotations

from collections.abc import Sequence

from campaigns.access import visibility
from campaigns.journal.proposals import is_complete
from campaigns.journal.records import Viewer
from campaigns.journal.state_shapes import StateView
from campaigns.kept_answers import audiences, viewcache

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
    from .proposals_shown import proposed

    return f"{' and '.join(missing)} to answer {proposed(proposal['action'])}"


def campaigns_waiting_on(campaigns: Sequence[Campaign]) -> dict[int, list[str]]:
    """Whom each campaign waits for, as any member of its club may read it. Kept per campaign and
    club position (a digest of the club's cut: a side's hidden step moves it not): only the
    campaigns whose club cut moved are read again, in one query for all."""
    keys = {c.pk: _kept_as(c) for c in campaigns}
    kept = viewcache.get_many([name for name in keys.values() if name])
    unread = [c for c in campaigns if keys[c.pk] not in kept]
    states = current_states(unread) if unread else {}
    member = Viewer.club_member()
    found: dict[int, list[str]] = {}
    drawn: dict[str, object] = {}
    for campaign in campaigns:
        name = keys[campaign.pk]
        if name in kept:
            found[campaign.pk] = kept[name]
        elif campaign.pk in states:
            found[campaign.pk] = waiting_on(visibility.view_state(states[campaign.pk], member))
            if name is not None:
                drawn[name] = found[campaign.pk]
    viewcache.put_many(drawn)
    return found


def _kept_as(campaign: Campaign) -> str | None:
    """Where whom `campaign` waits for is kept at its club position (None while its row has no
    position for its journal)."""
    positions = campaign.positions or {}
    at = positions.get("club")
    if positions.get("seq") != campaign.last_seq or not at:
        return None
    return f"muster:waiting-on:{audiences.BUILD}:{campaign.pk}:{at}"
