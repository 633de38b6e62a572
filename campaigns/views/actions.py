"""The campaign page's generic action forms: one form per thing the viewer can
do now, built from the event kind's schema fields (campaigns.schema)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace

from campaigns.core_events import KINDS as CORE_KINDS
from campaigns.forms import SchemaForm
from campaigns.schema import Field
from campaigns.selectors import Todo

_RESULT_KINDS = ("result.submitted", "result.resolved")


@dataclass
class ActionBox:
    """A to-do with its form, ready for the template."""

    todo: Todo
    form: SchemaForm
    key: str = field(default_factory=lambda: uuid.uuid4().hex)  # idempotency: a double click appends once
    notice: str = ""
    style: str = "primary"
    open: bool = False  # shown unfolded (the first to-do, or one sent back with errors)


def kind_fields(system, state: dict, kind: str) -> tuple[Field, ...] | None:
    """The fields to ask for: the kind's own, with the result and the sealed
    choice shown as the inputs they really are."""
    definition = CORE_KINDS.get(kind) or system.event_kind(kind)
    if definition is None:
        return None
    fields = []
    for f in definition.fields:
        if kind in _RESULT_KINDS and f.name == "data" and system.result_fields:
            f = Field("data", "object", label="Result", fields=tuple(system.result_fields))
        fields.append(f)
    return tuple(fields)


def _sealed_choice(state, todo_or_key) -> Field | None:
    sealed = state.get("sealed", {}).get(todo_or_key)
    if sealed and sealed.get("options"):
        return Field("choice", "choice", label=sealed["label"], choices=tuple(sealed["options"]))
    return None


def build(system, state: dict, todo: Todo, data=None, *, dice_needs=(), initial=None) -> ActionBox | None:
    fields = kind_fields(system, state, todo.kind)
    if fields is None:
        return None
    if todo.kind == "sealed.submitted":
        choice = _sealed_choice(state, todo.initial.get("key"))
        if choice is not None:
            fields = tuple(choice if f.name == "choice" else f for f in fields)
    core = todo.kind in CORE_KINDS
    fixed = dict(todo.initial) if core else {}
    form = SchemaForm(fields, data, fixed=fixed, dice_needs=dice_needs,
                      initial=initial if initial is not None else (None if core else dict(todo.initial)))
    style = "secondary" if todo.kind in ("result.withdrawn", "result.disputed", "proposal.rejected") else "primary"
    return ActionBox(todo, form, style=style)


def reject_todos(state: dict, viewer) -> list[Todo]:
    """Proposals the viewer may turn down: the proposer, a side whose agreement
    is needed, the referee."""
    found = []
    for proposal in state.get("proposals", {}).values():
        if proposal["status"] != "pending":
            continue
        mine = proposal["by"] == viewer.username
        if viewer.referee or mine or (viewer.playing and viewer.playing in proposal["needs"]):
            label = "Withdraw the proposal" if mine else "Reject"
            found.append(Todo("proposal.rejected", label, viewer.playing, initial={"proposal": proposal["uid"]}))
    return found


def match(todos: list[Todo], kind: str, side: str | None, posted) -> Todo | None:
    """The to-do a posted form belongs to (its fixed values come from the server)."""
    for todo in todos:
        if todo.kind != kind or (todo.side or None) != (side or None):
            continue
        if kind in CORE_KINDS and any(str(posted.get(k, "")) != str(v) for k, v in todo.initial.items()):
            continue
        return todo
    return None


def posted_todo(kind: str, side: str | None) -> Todo:
    """A submission that matches nothing on the page: still sent to the service,
    which decides (and refuses with a reason)."""
    return replace(Todo(kind, "Submit", side or None))
