"""Who may do what in a campaign, now: one answer for the pages and the API alike.

The doors ask here and draw (or list) what they are told; the journal service asks the same
questions when something is submitted, so a door never offers what the service would refuse.

- act: the to-dos of `offered` (events to submit: results, steps, sealed choices, notes, the
  answers to proposals: approve, reject, withdraw; settling a dispute), drawn from
  selectors.todos.actions_for (what the viewer's audience may do, kept per audience) and made
  personal here;
- propose: corrections, undos, house rules and exports (`may_propose`, `amendments`);
- organize: the organizer's setup page and seating (`may_organize`, `may_start_campaign`);
- settle a disputed result (`may_settle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaigns.access import seats, visibility
from campaigns.journal.proposals import amendable, is_complete, referee_may_approve, standing_in
from campaigns.journal.records import Viewer
from campaigns.systems.base import Action

if TYPE_CHECKING:  # the selectors ask here (selectors.todos): no import back at run time
    from campaigns.selectors.campaign_page import CampaignPage

_PEOPLE = ("player.", "referee.")  # kinds of who plays which side: the organizer's business


def offered(campaign, viewer: Viewer, page: CampaignPage) -> list[Action]:
    """Everything this viewer may submit now, as the campaign page draws it and the API's
    ``/actions/`` lists it: the system's and the core's to-dos (kept per audience,
    selectors.todos.actions_for), less a Settle the service would refuse this person, and a Reject
    (or Withdraw) for each proposal they may turn down."""
    todos = for_person(campaign, viewer, page.actions)
    return [*todos, *reject_todos(page.proposals, viewer, _agreeing(todos))]


def for_person(campaign, viewer: Viewer, todos: list[Action]) -> list[Action]:
    """`todos` (selectors.todos.actions_for, drawn from the state) less what the service would
    refuse this person for who they are in the club: a Settle for one made organizer in play."""
    return [
        todo
        for todo in todos
        if todo.kind != "result.resolved" or _neutral_since_start(campaign, viewer)
    ]


def may_settle(campaign, state: dict, viewer: Viewer) -> bool:
    """May `viewer` settle a disputed result? The referee; or an organizer who plays no side, has
    played none in this campaign (seats.may_settle) and was an organizer when play started
    (one made in play could be a side's choice of judge: visibility.organizer_since_start)."""
    return seats.may_settle(state, viewer) and _neutral_since_start(campaign, viewer)


def _neutral_since_start(campaign, viewer: Viewer) -> bool:
    return viewer.referee or visibility.organizer_since_start(campaign, viewer)


def may_approve(state: dict, proposal: dict, viewer: Viewer) -> bool:
    """May `viewer` agree to a proposal now (`state`: the full state, or a cut holding it)? The
    referee (but not to a full export: each side for itself), a side whose agreement it needs
    and has not given yet, a side's last player standing in for it (proposals.standing_in)."""
    if proposal["status"] != "pending" or is_complete(proposal):
        return False
    as_referee = viewer.referee and referee_may_approve(proposal)
    as_side = viewer.playing in proposal["needs"] and viewer.playing not in proposal["approved"]
    return bool(as_referee or as_side or standing_in(state, proposal, viewer.username))


def may_reject(proposal: dict, viewer: Viewer, asked=()) -> bool:
    """May `viewer` turn down a pending proposal? Its proposer (withdrawing it), a side whose
    agreement it needs, the referee, and whoever is `asked` to agree to it (the uids their
    to-dos ask them to approve: a side's last player standing in for it)."""
    if proposal["status"] != "pending":
        return False
    mine = proposal["by"] == viewer.username
    needed = bool(viewer.playing and viewer.playing in proposal["needs"])
    return bool(viewer.referee or mine or needed or proposal["uid"] in asked)


def reject_todos(proposals: dict, viewer: Viewer, asked=()) -> list[Action]:
    """A Reject (or, for one's own proposal, a Withdraw) for each proposal `viewer` may turn
    down; `proposals` is the viewer's cut of them (the state's ``proposals``)."""
    return [
        Action(
            "proposal.rejected",
            "Withdraw the proposal" if proposal["by"] == viewer.username else "Reject",
            viewer.playing,
            initial={"proposal": proposal["uid"]},
        )
        for proposal in proposals.values()
        if may_reject(proposal, viewer, asked)
    ]


def _agreeing(todos: list[Action]) -> set:
    return {t.initial.get("proposal") for t in todos if t.kind == "proposal.approved"}


def may_propose(campaign, viewer: Viewer) -> bool:
    """May `viewer` propose a correction, an undo, a house rule or an export? In play, the
    campaign's players, its referee and the club's organizers."""
    return campaign.status == "active" and bool(
        viewer.playing or viewer.referee or viewer.organizer
    )


def amendments(campaign, viewer: Viewer, system, kind: str, undone: bool = False):
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


def correctable(system, kind: str) -> bool:
    """Is an event of `kind` one a correction may be proposed for (whoever may propose it)?"""
    return amendable(system, kind, "correct")


def may_ask_full_export(viewer: Viewer, page: CampaignPage, full_export: bool) -> bool:
    """Does the page offer `viewer` to propose a full export? An organizer (the full export is
    theirs to download) who may not download it yet and whom no agreement covers already."""
    return viewer.organizer and not full_export and not page.export_approved


def may_organize(viewer: Viewer) -> bool:
    """The organizer's setup page and seating: the club's organizers."""
    return viewer.organizer


def may_start_campaign(user, club) -> bool:
    """A new campaign is started by one of the club's organizers."""
    return visibility.is_organizer(user, club)
