"""Each A!P! form's fields made concrete from the side's own records (GameSystem.form_fields), and
what a posted form becomes as an event's data (GameSystem.form_data): by the event's kind, to the
module that draws it."""

from __future__ import annotations

from .. import refit_losses, refit_steps, result_page
from ..common import current_index
from ..shapes import APState
from ..steps import fortifications, purchases
from ..steps.helpers import hidden
from . import correction_form
from .aftermath_form import aftermath_form
from .joint_form import control_data, joint_form
from .retained_form import retained_changes, retained_form
from .todos import reading_ctx


def form_fields(system, view: APState, side: str | None, kind: str, initial: dict) -> tuple | None:
    if view.get("game") is None:
        return None
    ctx = reading_ctx(system, view)
    if kind in ("result.submitted", "result.resolved"):
        index = current_index(view) if initial.get("scenario") is None else initial["scenario"]
        return (hidden("scenario", index), *result_page.result_form(ctx, view, index))
    if kind == "ap.joint":
        return joint_form(ctx, view, initial)
    if side is None or side not in view["game"].get("sides", {}):
        return None  # not a side this viewer may read: the service refuses the post
    if kind == "ap.aftermath":
        return aftermath_form(ctx, view, side, initial.get("picked"))
    if kind == "ap.continue":
        return (hidden("checklists", "true"),)
    if kind == "ap.check":
        return (hidden("step", initial.get("step")),)
    if kind == "ap.cvp":
        return refit_losses.losses_form(ctx, view, side)
    if kind == "ap.retained":
        return retained_form(ctx, view, side, initial)
    if kind == "ap.purchase" and initial.get("action") == "remove":
        return purchases.form_remove(ctx, view, side)
    if kind == "ap.fortify" and initial.get("action") == "remove":
        return fortifications.form_remove(ctx, view, side)
    step = refit_steps.BY_KIND.get(kind)
    if step is not None and step.form is not None:
        return step.form(ctx, view, side)
    return None


def correction_fields(
    system, view: APState, side: str | None, kind: str, data: dict
) -> tuple | None:
    """A correction's fields, what they name picked by name (correction_form)."""
    if view.get("game") is None:
        return None
    return correction_form.correction_fields(
        reading_ctx(system, view), system, view, side, kind, data
    )


def form_data(view: APState, side: str | None, kind: str, data: dict) -> dict:
    if kind in ("result.submitted", "result.resolved") and "objectives" in data:
        index = data.pop("scenario")
        return {"scenario": index, "data": result_page.result_data(view, index, data)}
    if kind == "ap.1.6113" and data.get("action") == "resolve":
        from ..steps.leader_hardening_form import resolve_data

        return resolve_data(dict(data))
    if kind == "ap.1.6113" and "win_drm" in data:
        from ..steps.leader_hardening_form import LATER

        return dict(data, win_drm=None) if data["win_drm"] in (LATER, "") else data
    if kind == "ap.1.6132" and "afv_weapons" in data:  # the page asks SW and AFV weapons apart
        data = dict(data)
        afv = data.pop("afv_weapons")
        return dict(data, weapons=[*(data.get("weapons") or []), *afv])
    if kind == "ap.retained" and data.get("action") in ("update", "remove"):
        return retained_changes(view, side, data)
    if kind == "ap.joint" and "control" in data:
        control = data["control"]
        return dict(
            data, control=control_data(control) if control and any(control.values()) else None
        )
    return data
