"""The Refit Phase map steps' confirmation (1.601-1.6066): with 1.6066, each side's objective
hexes as control stands after them."""

from __future__ import annotations

from campaigns.game_interface import Field

from .. import halfday, refit_progress
from ..common import SIDES, current_index, public
from ..shapes import APState
from ..steps.helpers import hidden
from .todos import NAMES


def joint_form(ctx, view: APState, initial: dict) -> tuple:
    fields = [hidden("through", initial.get("through"))]
    current = next(iter(refit_progress.joint_span(view)), None)
    if current is not None and current.id == "1.6066":
        line = public(view)["roster"][current_index(view)]
        area_list = halfday.areas(ctx.table("1.2"))
        hexes = sorted(halfday.all_objective_hexes(area_list, public(view)["bridges_destroyed"]))
        for side in SIDES:
            fields.append(
                Field(
                    f"control.{side}_objectives_end",
                    "list",
                    required=False,
                    default=list(line["objectives_end"][side]),
                    group="Control after the Refit Phase map steps",
                    label=f"{NAMES[side]} objective hexes now",
                    item=Field("hex", "choice", choices=tuple(hexes)),
                )
            )
        fields.append(Field("note", required=False, default="", max_length=500, label="Note"))
    return tuple(fields)


def control_data(control: dict) -> dict:
    return {key: value for key, value in control.items() if value is not None}
