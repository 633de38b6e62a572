"""Seats: who plays which side, who referees, and who must agree to a change of them.

The rules are the fold's (campaigns.journal.core_events applies player.*, referee.assigned and
campaign.finished through apply_seat, campaigns.journal.proposals a "seat" proposal once agreed),
so a replayed journal is held to them too; the services ask seat_problem before they write, and
may_settle / stand_in_for say who may settle a dispute or agree for a side left empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns import versions
from campaigns.errors import DomainError
from campaigns.journal.progress import finish
from campaigns.journal.records import Viewer
from campaigns.journal.state_copy import copy_state
from campaigns.journal.state_shapes import CampaignState, SideSeats


def _side(state: CampaignState, slug: str, field: str = "side") -> SideSeats:
    if slug not in state["sides"]:
        raise DomainError(field, f"Unknown side {slug!r}.")
    return state["sides"][slug]


def playing(state: Mapping[str, Any], username: str | None) -> str | None:
    """The side this person plays, if any."""
    sides: dict[str, SideSeats] = state["sides"]
    for slug, side in sides.items():
        if username in side["players"]:
            return slug
    return None


# --- seats: who plays which side, who referees -----------------------------------------
# Before the start the organizer seats people freely. Once play has started, everyone who
# has played a side or refereed is remembered (state "played", "refereed"): someone who has
# played a side may never referee the campaign (they would read the other side's secrets).
#
# From core journal v2 (SEAT_RULES) nobody gains a path to a side's secrets without
# that side's agreement (one of its current players) or the referee's, whoever seats them: the
# organizer who plays red seating a fresh account on blue is a puppet reading blue's secrets,
# so blue must agree. Who acts counts for their own side only; the other sides' approval never
# does for it. The seat changes that need agreement are "seat" proposals (campaigns.journal.proposals)
# whose `needs` are exactly the sides reached. Where a side has nobody left to agree (its last
# player left, no referee), the player who left it stands in for it (`departed`, stand_in_for).
# Journals of core v1 keep the rule they were written under (_needs_v1: only someone who had
# seen another side's secrets, or a new referee, needed agreement).

SEAT_KINDS = ("player.assigned", "player.replaced", "player.removed", "referee.assigned")
SEAT_RULES = 2  # the core journal version from which the rule above applies

# From core journal v3 (ENDING_RULES) ending the campaign, and taking its referee away (no new one
# named), once play has started, are held like taking a side's player off: one who plays or has
# played a side (or refereed) does neither alone; they propose it, and it needs every other side's
# agreement (or the referee's). The referee does both directly (ending; stepping down). One who
# never played does them directly as far as the journal can tell; whether they are the club's
# neutral party (who made them organizer, and when) is the club's record, checked by the services
# (permissions.neutral_organizer), and one who is not proposes it too: then it needs every side.
# A "seat" proposal carries these changes ("campaign.finished" beside the seat kinds), so the
# proposal event keeps its shape and older journals fold as they did.
ENDING_RULES = 3  # the core journal version from which the rule above applies
AGREED_KINDS = (*SEAT_KINDS, "campaign.finished")  # the changes a "seat" proposal may carry


def ends_or_unseats_referee(state: Mapping[str, Any], kind: str, data: Mapping[str, Any]) -> bool:
    """Is this change, in play, ending the campaign or taking its referee away (naming nobody)?"""
    if state["status"] == "setup":
        return False
    if kind == "campaign.finished":
        return True
    return kind == "referee.assigned" and not data.get("username") and bool(state["referee"])


def _seen(state: CampaignState) -> tuple[dict[str, list[str]], list[str]]:
    return state.setdefault("played", {}), state.setdefault("refereed", [])


def remember_seat(state: CampaignState, user: str | None, side: str | None = None) -> None:
    if state["status"] == "setup" or not user:
        return
    played, refereed = _seen(state)
    if side is None:
        if user not in refereed:
            refereed.append(user)
    elif side not in played.setdefault(user, []):
        played[user].append(side)


def core_version(state: CampaignState) -> int:
    return state.get("journals", {}).get(versions.CORE, versions.CORE_VERSION)


def seat_needs(state: CampaignState, kind: str, data: dict[str, Any], actor: str) -> list[str]:
    """The sides that must agree to this seat change made by `actor` (in the state's side order;
    the referee's agreement does for all of them); [] when `actor` may make it directly."""
    if state["status"] == "setup" or actor and actor == state["referee"]:
        return []
    played, refereed = _seen(state)
    sides = list(state["sides"])
    mine = playing(state, actor)
    reached: set[str | None]
    if kind == "campaign.finished" or (kind == "referee.assigned" and not data.get("username")):
        if core_version(state) < ENDING_RULES or not ends_or_unseats_referee(state, kind, data):
            return []  # before v3 both were direct; no referee to take away
        if not (mine or actor in played or actor in refereed):
            return []  # neutral as far as the journal tells: the services ask the club
        return [s for s in sides if s != mine]
    if kind == "referee.assigned":
        user: str | None = data.get("username")
        if not user or user == state["referee"]:
            return []  # nobody new reads anything
        reached = set(sides)
    elif kind == "player.removed":
        # Taking a player off gives nobody a path, but one who plays or has played a side
        # never takes another side's player off alone (the first step to a puppet there).
        if not (mine or actor in played or actor in refereed):
            return []
        reached = {data.get("side")}
    else:
        user = data.get("username") if kind == "player.assigned" else data.get("new")
        # The side gains a reader; whatever the newcomer saw of other sides travels with them.
        carried = sides if user in refereed else played.get(user or "", [])  # "": nobody
        reached = {data.get("side"), *carried}
    return [s for s in sides if s in reached and s != mine]


def proposal_needs(state: CampaignState, kind: str, data: dict[str, Any], actor: str) -> list[str]:
    """The sides a "seat" proposal of this change by `actor` waits for (core v2 on): the sides it
    reaches (seat_needs); ending the campaign or taking the referee away, every side but the
    proposer's own (from v3), whoever proposes it but the referee: one who plays no side and
    proposes it rather than doing it is no neutral party (permissions.neutral_organizer)."""
    if (
        core_version(state) >= ENDING_RULES
        and ends_or_unseats_referee(state, kind, data)
        and actor != state["referee"]
    ):
        mine = playing(state, actor)
        return [s for s in state["sides"] if s != mine]
    return seat_needs(state, kind, data, actor)


def _needs_v1(state: CampaignState, kind: str, data: dict[str, Any]) -> bool:
    """Core v1's rule: agreement only for a new referee or someone who had seen another side."""
    played, refereed = _seen(state)
    if kind == "referee.assigned":
        user = data.get("username")
        return bool(user and user != state["referee"])
    if kind == "player.removed":
        return False
    user = data.get("username") if kind == "player.assigned" else data.get("new")
    seen = played.get(user or "", [])  # "": nobody
    return bool([s for s in seen if s != data.get("side")] or user in refereed)


def _agreement_needed(
    state: CampaignState, kind: str, data: dict[str, Any], actor: str
) -> tuple[DomainError | None, bool]:
    """(why the sides must agree to this seat change, or None; True if not even they can allow it)."""
    if state["status"] == "setup":
        return None, False
    played, _ = _seen(state)
    field = {"player.assigned": "username", "player.replaced": "new"}.get(kind, "username")
    if kind == "referee.assigned":
        user = data.get("username")
        if user and user in played:
            return DomainError(
                "username", f"{user} has played a side in this campaign and can never referee it."
            ), True
    if core_version(state) < SEAT_RULES:
        if not _needs_v1(state, kind, data):
            return None, False
        if kind == "referee.assigned":
            return DomainError(
                "username",
                "Once play has started, a new referee needs the sides' agreement (propose it).",
            ), False
        user = data.get("username") if kind == "player.assigned" else data.get("new")
        return DomainError(
            field,
            f"{user} has seen another side's secrets in this campaign: seating them needs "
            "the sides' agreement (propose it).",
        ), False
    needs = seat_needs(state, kind, data, actor)
    if not needs:
        return None, False
    names = " and ".join(state["sides"][s]["name"] for s in needs)
    if kind == "campaign.finished" or kind == "referee.assigned" and not data.get("username"):
        what = "end the campaign" if kind == "campaign.finished" else "take the referee off"
        return DomainError(
            "reason" if kind == "campaign.finished" else "username",
            f"Once play has started, one who plays or has played a side does not {what} alone: "
            f"it needs {names}'s agreement (or the referee's). Propose it.",
        ), False
    if kind in ("player.assigned", "player.replaced") and _needs_v1(state, kind, data):
        user = data.get("username") if kind == "player.assigned" else data.get("new")
        return DomainError(
            field,
            f"{user} has seen another side's secrets in this campaign: seating them needs "
            f"{names}'s agreement (or the referee's): propose it.",
        ), False
    return DomainError(
        field,
        f"Once play has started, this needs {names}'s agreement (or the referee's): propose it.",
    ), False


def may_settle(state: Mapping[str, Any], viewer: Viewer) -> bool:
    """May `viewer` settle a disputed result (an "arbiter" event)? The referee, or an organizer
    who plays no side and never has in this campaign: one who left her side is no neutral party
    (as she may never referee it)."""
    if viewer.referee:
        return True
    return viewer.arbiter and viewer.username not in state.get("played", {})


def stand_in_for(state: Mapping[str, Any], username: str | None) -> list[str]:
    """The sides `username` may agree for as the player who left them: a side with nobody left
    on it, no referee, and `username` playing no side now."""
    if not username or state.get("referee") or playing(state, username):
        return []
    return [
        s
        for s, who in state.get("departed", {}).items()
        if who == username and s in state["sides"] and not state["sides"][s]["players"]
    ]


def apply_seat(
    state: CampaignState, kind: str, data: dict[str, Any], agreed: bool, actor: str = ""
) -> None:
    """Make a seat change (player.assigned / .replaced / .removed, referee.assigned) by `actor`,
    or end the campaign (campaign.finished, held like one from core v3: ENDING_RULES);
    `agreed`: the sides it needs agreed to it (a "seat" proposal was applied)."""
    if kind == "player.assigned":
        side, user = _side(state, data["side"]), data["username"]
        _check_can_play(state, user)
    elif kind in ("player.replaced", "player.removed"):
        field, old = (
            ("old", data["old"]) if kind == "player.replaced" else ("username", data["username"])
        )
        side = _side(state, data["side"])
        if old not in side["players"]:
            raise DomainError(field, f"{old} does not play {side['name']}.")
        if kind == "player.replaced":
            user = data["new"]
            _check_can_play(state, user)
    elif kind == "campaign.finished":
        if state["status"] == "finished":
            raise DomainError("status", "The campaign has already ended.")
    else:
        user = data["username"]
        if user and playing(state, user):
            raise DomainError("username", f"{user} plays a side and cannot referee.")
    problem, never = _agreement_needed(state, kind, data, actor)
    if problem is not None and (never or not agreed):
        raise problem
    if kind == "campaign.finished":
        finish(state, None, data["reason"])
        return
    departed = state.setdefault("departed", {}) if state["status"] != "setup" else {}
    if kind == "player.assigned":
        side["players"].append(user)
        remember_seat(state, user, data["side"])
        departed.pop(data["side"], None)
    elif kind == "player.replaced":
        side["players"][side["players"].index(old)] = user
        remember_seat(state, user, data["side"])
    elif kind == "player.removed":
        side["players"].remove(old)
        if not side["players"] and state["status"] != "setup":
            departed[data["side"]] = old  # who may still speak for the side (stand_in_for)
    else:
        state["referee"] = user or None
        remember_seat(state, user)


def seat_problem(
    state: CampaignState, kind: str, data: dict[str, Any], agreed: bool, actor: str = ""
) -> DomainError | None:
    """Why this seat change by `actor` may not happen now, directly or (`agreed`) once the sides
    agree; None if it may. Tried on a copy: the state is left as it is."""
    try:
        apply_seat(copy_state(state), kind, data, agreed, actor)
    except DomainError as error:
        return error
    return None


def _check_can_play(state: CampaignState, user: str) -> None:
    side = playing(state, user)
    if side:
        raise DomainError("username", f"{user} already plays {state['sides'][side]['name']}.")
    if state["referee"] == user:
        raise DomainError("username", f"{user} is the referee and cannot play a side.")
