"""What an Achtung! Panzer! side can do now, as the campaign page lists it: the end of the
scenario, the Refit Phase's step (refit_todos), corrections of the retained units, units lost at
the table in the Refit Phase; each worded for the referee too."""

from __future__ import annotations

import re
from dataclasses import replace

from campaigns.game_interface import Action, Ctx

from .. import aftermath, refit_progress
from ..common import core_state, private, public
from ..shapes import APState, Public
from .refit_todos import refit_actions

NAMES = {"allied": "Allied", "german": "German"}

_CVP_KINDS = ("ap.aftermath", "ap.losses", "ap.cvp")
_YOUR = re.compile(r"\b([Yy])our\b")


def reading_ctx(system, view: APState) -> Ctx:
    return Ctx.reading(system, core_state(view))


def actions(system, state: APState, side: str) -> list[Action]:
    pub = public(state)
    found: list[Action] = []
    ctx = reading_ctx(system, state)
    units = private(state, side)["retained"]
    if pub["phase"] == "play" and aftermath.recorded(state, side) is None:
        found.append(_aftermath_action(pub, side))
    if pub["phase"] == "refit":
        found += refit_actions(state, side)
    found += _retained_actions(side)
    losses_step = (
        step := refit_progress.current(state, side)
    ) is not None and step.id == "1.6066.losses"
    if pub["phase"] == "refit" and not pub["refit_initial"] and not losses_step:
        found.append(
            Action(
                "ap.cvp",
                "Units eliminated at the table in the Refit Phase",
                side,
                "1.6067",
                "Melee, encirclement, minefields …: before 1.6067 their CVP count for the half-day's "
                "victory, after it for 1.616 only.",
                optional=True,
                button="Record",
                own_page=True,  # a checkbox per retained unit: long late in a CG
            )
        )
    found = [_for_the_referee(a, side) for a in found]
    if any(a.kind in _CVP_KINDS for a in found):
        # What the club's CVP list covers of the side's units, up front, and where to complete it.
        said, _ = aftermath.cvp_fields(ctx, units, 0)
        links = _cvp_list_links(ctx, units)
        found = [
            replace(a, help=f"{a.help} {said}", links=links) if a.kind in _CVP_KINDS else a
            for a in found
        ]
    return found


def _aftermath_action(pub: Public, side: str) -> Action:
    return Action(
        "ap.aftermath",
        f"End of {pub['half_day']}: what happened to your units",
        side,
        "1.12",
        aftermath.EVENT.help,
        button="Record",
        own_page=True,
        pick="units",
        pick_help="Tick the units something happened to; the next screen asks what.",
        pick_button="Next: what happened to them",
        pick_empty="No unit retained.",
    )


def _retained_actions(side: str) -> list[Action]:
    return [
        Action(
            "ap.retained",
            "Correct your retained units: change or remove a unit",
            side,
            "1.607",
            "Pick the unit: its form opens with what it is now; change only what is wrong.",
            optional=True,
            button="Save the change",
            choose="id",
            choose_button="Open this unit",
        ),
        Action(
            "ap.retained",
            "Correct your retained units: add units",
            side,
            "1.607",
            "Units your side retains that are not on its list (a captured weapon, a unit left out).",
            {"action": "add"},
            optional=True,
            button="Add",
        ),
    ]


def _for_the_referee(action: Action, side: str) -> Action:
    """The referee acts for each side: "your units" become "the Allied units" (a label without
    "your" is shown after the side's name)."""
    if action.joint or not _YOUR.search(action.label):
        return action
    words = _YOUR.sub(
        lambda m: ("The " if m.group(1) == "Y" else "the ") + NAMES[side], action.label
    )
    return replace(action, referee_label=words)


def _cvp_list_links(ctx, units) -> tuple:
    """Where the club's CVP list is completed (a house rule both sides agree to), when it does not
    cover every kind of the side's units."""
    missing = aftermath.uncovered(ctx, units)
    if not missing or missing[0] not in aftermath.CVP_KINDS:
        return ()
    return (
        (
            "Complete the club's CVP list (a house rule, agreed by both sides)",
            f"?rule_table=constants&rule_row=cvp.{missing[0]}#house-rule",
        ),
    )
