"""Who may do what in a campaign, now: every yes/no, one answer for the pages and the API alike.

The doors ask here and draw (or list) what they are told; the journal service asks the same
questions when something is submitted, so a door never offers what the service would refuse.
Every question takes plain facts: the viewer (journal.records.Viewer), the campaign, the state (or
the part of it asked about: a scenario, a sealed choice, a proposal), never a page; this module
imports no selector (selectors.todos draws the to-dos, and asks here for each of them).

- act: whether a viewer may have anything to do in play (`may_act_in_play`), which sides they act
  for (`acting_sides`); enter, confirm, dispute, withdraw or settle a result (`may_enter_result`,
  `may_confirm_result`, `may_dispute_result`, `may_withdraw_result`, `may_settle_result`,
  `may_settle`); make a sealed choice (`may_choose_sealed`); write an after-action note
  (`may_write_note`); agree to or turn down a proposal (`may_approve`, `may_reject`); what the
  service refuses a person for who they are in the club (`may_take`);
- propose: corrections, undos, house rules and exports (`may_propose`, `amendments`);
- export: download the full journal (`full_export_allowed`), ask for it (`may_ask_full_export`);
- organize: the organizer's setup page and seating (`may_organize`, `may_start_campaign`); who is
  the club's neutral party in a campaign in play (`neutral_organizer`), and who ends it or takes
  its referee off without anybody's agreement (`may_end_alone`);
- keep the club's books: archive a campaign nobody plays, restore it (`archive_refusal`,
  `may_archive`, `may_restore`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaigns.access import seats, visibility
from campaigns.journal.proposals import amendable, is_complete, referee_may_approve, standing_in
from campaigns.journal.records import Viewer
from campaigns.models import Campaign, Club
from campaigns.systems.base import Action, GameSystem

State = Mapping[str, Any]  # a campaign state (journal.state_shapes.CampaignState), or a cut of it
Part = Mapping[str, Any]  # one part of it: a scenario, a sealed choice, a proposal

_PEOPLE = ("player.", "referee.")  # kinds of who plays which side: the organizer's business


# --- acting in play ----------------------------------------------------------------------------


def in_play(state: State) -> bool:
    """Is anything to be done in the campaign now? Only while it is being played."""
    return bool(state["status"] == "active")


def may_act_in_play(viewer: Viewer) -> bool:
    """May `viewer` have anything to do in a campaign being played? A player, the referee, or
    one who may settle a dispute (Viewer.arbiter: an organizer who plays no side)."""
    return bool(viewer.playing or viewer.referee or viewer.arbiter)


def acting_sides(state: State, viewer: Viewer) -> list[str]:
    """The sides `viewer` acts for: the side they play, every side for the referee, else none."""
    if viewer.playing:
        return [viewer.playing]
    return list(state["sides"]) if viewer.referee else []


def may_enter_result(state: dict[str, Any], viewer: Viewer, system: GameSystem) -> bool:
    """May `viewer` enter the result of the current scenario? One who acts for a side (the referee
    too: his result is final), while it is being played and the game holds no step open first."""
    current = state["current"]
    if current is None or state["scenarios"][current]["status"] != "current":
        return False
    return bool(acting_sides(state, viewer)) and system.result_open(state, current) is None


def _entered_by(scenario: Part) -> str | None:
    by: str | None = scenario["pending"]["side"]
    return by


def may_confirm_result(scenario: Part, viewer: Viewer) -> bool:
    """May `viewer` confirm the result waiting in `scenario`? The referee, or a player of another
    side than the one who entered it."""
    if scenario["status"] != "pending":
        return False
    return viewer.referee or bool(viewer.playing and viewer.playing != _entered_by(scenario))


def may_dispute_result(scenario: Part, viewer: Viewer) -> bool:
    """May `viewer` dispute the result waiting in `scenario`? A player of another side than the
    one who entered it (the referee settles instead)."""
    if scenario["status"] != "pending":
        return False
    return bool(viewer.playing and viewer.playing != _entered_by(scenario))


def may_withdraw_result(scenario: Part, viewer: Viewer) -> bool:
    """May `viewer` withdraw the result waiting in `scenario`? Whoever acts for the side that
    entered it."""
    return scenario["status"] == "pending" and viewer.playing == _entered_by(scenario)


def may_settle_result(state: State, scenario: Part, viewer: Viewer) -> bool:
    """Is `viewer` offered to settle the result of `scenario`, as far as the state tells (whether
    waiting or disputed; seats.may_settle)? `may_take` then asks may_settle, the service's answer."""
    return scenario["status"] in ("pending", "disputed") and seats.may_settle(state, viewer)


def may_settle(campaign: Campaign, state: State, viewer: Viewer) -> bool:
    """May `viewer` settle a disputed result? The referee; or the club's neutral party in this
    campaign (neutral_organizer). The one answer for the service and the Settle to-do
    (may_take); may_settle_result only draws it from the state."""
    return viewer.referee or (
        seats.may_settle(state, viewer) and neutral_organizer(campaign, state, viewer)
    )


def neutral_organizer(campaign: Campaign, state: State, viewer: Viewer) -> bool:
    """Is `viewer` the club's neutral party in this campaign, once play has started? An organizer
    who plays no side and has played none in it (state "played"), who has been an organizer since
    play started (one made in play could be a side's choice of judge:
    visibility.organizer_since_start), and who was not made organizer while the campaign was set
    up by one who went on to play a side of it (visibility.organizer_made_by_a_player: the
    organizer a side's player names before the start is that side's judge, not the club's).
    Who made them and when is the club log's; whether they play, the journal's."""
    if not viewer.organizer or viewer.playing or viewer.username in state.get("played", {}):
        return False
    return visibility.organizer_since_start(
        campaign, viewer
    ) and not visibility.organizer_made_by_a_player(campaign, viewer, state.get("played", {}))


def may_end_alone(campaign: Campaign, state: State, viewer: Viewer) -> bool:
    """May `viewer` end the campaign, or take its referee off, without anybody's agreement?
    Before the start, an organizer. In play, the referee (who is an organizer, to end it), or the
    club's neutral party who never refereed it (neutral_organizer); anyone else who may organize
    proposes it (seats.proposal_needs: every side but their own, or the referee, agrees)."""
    if state["status"] == "setup":
        return viewer.organizer
    if viewer.referee:
        return True
    return neutral_organizer(campaign, state, viewer) and viewer.username not in state.get(
        "refereed", []
    )


def may_take(
    campaign: Campaign, viewer: Viewer, action: Action, state: Callable[[], State]
) -> bool:
    """May this person take `action`, drawn from the state for their audience? Not a Settle the
    service would refuse them for who they are in the club (may_settle: the same answer).
    `state`: the full state, loaded only when asked (a Settle drawn)."""
    return action.kind != "result.resolved" or may_settle(campaign, state(), viewer)


def may_choose_sealed(sealed: Part, side: str) -> bool:
    """May `side` make the sealed choice `sealed` now? While it is open, if it is asked of the
    side and the side has not chosen yet."""
    return bool(sealed["open"] and side in sealed["sides"] and side not in sealed["choices"])


def may_write_note(state: State, viewer: Viewer) -> bool:
    """May `viewer` write an after-action note? A player or the referee, once a scenario began."""
    began = any(s["status"] != "upcoming" for s in state["scenarios"])
    return began and bool(viewer.playing or viewer.referee)


# --- answering proposals -----------------------------------------------------------------------


def may_approve(state: State, proposal: Part, viewer: Viewer) -> bool:
    """May `viewer` agree to a proposal now (`state`: the full state, or a cut holding it)? The
    referee (but not to a full export: each side for itself), a side whose agreement it needs
    and has not given yet, a side's last player standing in for it (proposals.standing_in)."""
    if proposal["status"] != "pending" or is_complete(proposal):
        return False
    as_referee = viewer.referee and referee_may_approve(proposal)
    as_side = viewer.playing in proposal["needs"] and viewer.playing not in proposal["approved"]
    return bool(as_referee or as_side or standing_in(state, proposal, viewer.username))


def may_reject(proposal: Part, viewer: Viewer, asked: Collection[str | None] = ()) -> bool:
    """May `viewer` turn down a pending proposal? Its proposer (withdrawing it), a side whose
    agreement it needs, the referee, and whoever is `asked` to agree to it (the uids their
    to-dos ask them to approve: a side's last player standing in for it)."""
    if proposal["status"] != "pending":
        return False
    mine = proposal["by"] == viewer.username
    needed = bool(viewer.playing and viewer.playing in proposal["needs"])
    return bool(viewer.referee or mine or needed or proposal["uid"] in asked)


# --- proposing ---------------------------------------------------------------------------------


def may_propose(campaign: Campaign, viewer: Viewer) -> bool:
    """May `viewer` propose a correction, an undo, a house rule or an export? In play, the
    campaign's players, its referee and the club's organizers."""
    return campaign.status == "active" and bool(
        viewer.playing or viewer.referee or viewer.organizer
    )


def amendments(
    campaign: Campaign, viewer: Viewer, system: GameSystem, kind: str, undone: bool = False
) -> tuple[bool, bool]:
    """(correct, undo): may `viewer` propose to correct, or to undo, an event of `kind`? The
    kinds the proposals accept (proposals.amendable); who plays which side only by an organizer."""
    if undone or not may_propose(campaign, viewer):
        return False, False
    if not may_amend_kind(viewer, kind):
        return False, False
    return amendable(system, kind, "correct"), amendable(system, kind, "undo")


def may_amend_kind(viewer: Viewer, kind: str) -> bool:
    """Events of who plays which side are corrected or undone by an organizer only: the page
    offers it to nobody else, and the journal service refuses it to anybody else."""
    return viewer.organizer or not kind.startswith(_PEOPLE)


def correctable(system: GameSystem, kind: str) -> bool:
    """Is an event of `kind` one a correction may be proposed for (whoever may propose it)?"""
    return amendable(system, kind, "correct")


# --- the full journal --------------------------------------------------------------------------


def full_export_allowed(
    campaign: Campaign, viewer: Viewer, agreed: bool, agreed_at: Callable[[], int | None]
) -> bool:
    """May this viewer download the full journal (every side's secrets)? The referee may; an
    organizer once every side agreed (`agreed`: the viewer's cut says so), if they were an
    organizer then already (visibility.organizer_when_export_agreed, as
    journal_files.may_export_full). `agreed_at` gives the agreement's event (the full state's
    "export_approved"): asked only for an organizer once the sides agreed."""
    if viewer.referee:
        return True
    return (
        viewer.organizer
        and agreed
        and visibility.organizer_when_export_agreed(campaign, viewer, agreed_at())
    )


def may_ask_full_export(viewer: Viewer, agreed: bool, full_export: bool) -> bool:
    """Is `viewer` offered to propose a full export? An organizer (the full export is theirs to
    download) who may not download it yet and whom no agreement covers already (`agreed`)."""
    return viewer.organizer and not full_export and not agreed


# --- organizing --------------------------------------------------------------------------------


def may_organize(viewer: Viewer) -> bool:
    """The organizer's setup page and seating: the club's organizers."""
    return viewer.organizer


def may_start_campaign(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """A new campaign is started by one of the club's organizers."""
    return visibility.is_organizer(user, club)


# --- the club's books: archiving ---------------------------------------------------------------


def archive_refusal(viewer: Viewer, campaign: Campaign) -> str | None:
    """Why `viewer` may not archive `campaign` now, in words; None when they may. An organizer
    archives a campaign nobody plays: one being set up (abandoned before the start) or finished.
    One in play is ended first (its sides agree to that), so archiving never ends a game."""
    if not viewer.organizer:
        return "Only a club organizer can archive a campaign."
    if campaign.archived_at is not None:
        return "This campaign is archived already."
    if campaign.status == Campaign.ACTIVE:
        return (
            "A campaign being played cannot be archived: end it first (on its setup page), "
            "then archive it."
        )
    return None


def may_archive(viewer: Viewer, campaign: Campaign) -> bool:
    """Is `viewer` offered to archive `campaign`? (archive_refusal says why not.)"""
    return archive_refusal(viewer, campaign) is None


def may_restore(viewer: Viewer, campaign: Campaign) -> bool:
    """May `viewer` bring an archived campaign back to the lists? The club's organizers."""
    return viewer.organizer and campaign.archived_at is not None
