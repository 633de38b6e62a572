"""The units a side lost at the table in the Refit Phase (melee, encirclement 1TC, minefields …):
the form that asks for them and the record of them with their CVP (rules-notes R-A18, R-A19).

Used by the losses step before 1.6067 (refit_own_steps), by ap.cvp (refit_events) and by 1.6141's
recall; it needs no step list, so none of them reaches the others through it.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field

from . import aftermath, halfday, retained
from .common import private
from .refit_marks import status
from .shapes import APState
from .steps import replenishment

# 1.616 (CPP replenishment) is one of replenishment's steps.
CPP_STEP = next((s for s in replenishment.STEPS if s.id == "1.616"), None)


# The losses of the map steps (melee, encirclement 1TC, minefields …) count for the half-day
# only if they are in before 1.6067 runs, so each side says what it lost (or nothing) before it
# (rules-notes R-A19): one player's "done at the table" cannot leave the other's losses out.
LOSS_FIELDS = (
    Field(
        "units",
        "list",
        required=False,
        default=[],
        max=100,
        item=Field("unit", max_length=20),
        label="Units eliminated",
        help="Retained units eliminated at the table in the Refit Phase.",
    ),
    Field(
        "cvp",
        "int",
        label="CVP sustained",
        required=False,
        default=None,
        min=0,
        max=1000,
        help="The total, when given: the club's CVP list is then not used.",
    ),
    Field(
        "cvp_unlisted",
        "int",
        label="CVP of the lost units the club's CVP list does not cover",
        required=False,
        default=None,
        min=0,
        max=1000,
        help="The others are counted from the list (A26.2).",
    ),
    Field("note", required=False, default="", max_length=300),
)


def losses_form(ctx, view: APState, side: str) -> tuple:
    from .steps.helpers import unit_choices

    units = private(view, side)["retained"]
    return (
        Field(
            "units",
            "list",
            label="Units eliminated",
            required=False,
            default=[],
            item=Field("unit", "choice", **unit_choices(units, view, side)),
        ),
        *aftermath.cvp_fields(ctx, units, 1000)[1],
        Field(
            "note",
            required=False,
            default="",
            max_length=300,
            label="How (melee, 1TC, minefield …)",
        ),
    )


def rolled_1616(state: APState, side: str):
    """Asked by halfday.add_cvp only once the half-day has a winner (reading the marks adds them)."""
    step = CPP_STEP
    return lambda: step is not None and status(state, step, side) is not None


def record_losses(ctx, state: APState, side: str, data: dict, where: str) -> None:
    """Eliminate the units and add their CVP; `where` names the step (or phase) they are
    recorded at."""
    units = []
    for i, unit_id in enumerate(data.get("units") or []):
        unit = retained.find(state, side, unit_id, f"units[{i}]")
        if unit in units:
            raise DomainError(f"units[{i}]", f"{unit_id} is listed twice.")
        units.append(unit)
    cvp = aftermath.cvp_sustained(
        ctx, units, data.get("cvp"), data.get("cvp_unlisted"), required=True
    )
    if not units and not cvp:
        raise DomainError("cvp", "Give the units eliminated or the CVP sustained.")
    assert cvp is not None  # required=True: refused rather than left unknown
    halfday.add_cvp(state, side, cvp, rolled_1616(state, side))
    for unit in units:
        retained.eliminate(
            state, side, unit, where, data.get("note") or "eliminated in the Refit Phase"
        )
