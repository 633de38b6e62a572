"""The campaign page's action forms: one form per thing the viewer can do now, built
from the event kind's schema fields as the game system makes them concrete for this
side (GameSystem.form_fields: choices from the side's own units, rows per candidate).

The page's own inputs are named ``_kind`` and ``_side`` so that no event field (a unit's
``kind``, a player's ``side``) can ever collide with them."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import QueryDict

from campaigns.journal.core_events import KINDS as CORE_KINDS
from campaigns.schema.fields import Field
from campaigns.schema.forms import SchemaForm
from campaigns.selectors.todos import stable_id
from campaigns.systems.base import Action, GameSystem

_RESULT_KINDS = ("result.submitted", "result.resolved")
META_KIND, META_SIDE, META_TODO = "_kind", "_side", "_todo"


@dataclass
class ActionBox:
    """A to-do with its form, ready for the template."""

    todo: Action
    form: SchemaForm | None  # None: a link to its own page, or its rows to pick first
    key: str = field(
        default_factory=lambda: uuid.uuid4().hex
    )  # idempotency: a double click appends once
    notice: str = ""
    style: str = "primary"
    open: bool = False  # shown unfolded (the first to-do, or one sent back with errors)
    button: str = ""  # the submit button's words
    do: str = ""  # the stable id of the to-do as the page lists it (``?do=``)
    choosing: bool = False  # only the to-do's `choose` field, asked on its own (a GET form)
    # the result a Confirm / Settle acts on (selectors.todos.result_to_confirm)
    confirming: dict[str, Any] | None = None
    elsewhere: bool = False  # a long form on a page of its own (Action.own_page): a link here
    picking: list[dict[str, Any]] | None = None  # its rows to pick first, grouped (Action.pick)
    picked: list[str] | None = None  # the rows picked, sent again with the form (its rows)

    @property
    def drawn(self) -> SchemaForm:
        """The form of a box `build` made (a link to its own page or a rows pick has none)."""
        if self.form is None:
            raise ValueError("This to-do is a link or a pick: it has no form.")
        return self.form


def posted_kind(post: QueryDict) -> tuple[str, str | None]:
    """The event kind and side a page form was for (older clients posted ``kind``/``side``)."""
    kind = post.get(META_KIND) or post.get("kind", "")
    side = post.get(META_SIDE) if META_KIND in post else post.get("side")
    return kind, side or None


def kind_fields(
    system: GameSystem,
    view: dict[str, Any] | None,
    todo: Action,
    correcting: dict[str, Any] | None = None,
) -> tuple[Field, ...] | None:
    """The fields to ask for: what the system makes of them for this side now (or, `correcting`
    an earlier event's data, for its correction), else the kind's own, with the result and the
    sealed choice shown as the inputs they really are."""
    definition = CORE_KINDS.get(todo.kind) or system.event_kind(todo.kind)
    if definition is None:
        return None
    if not view:
        concrete = None
    elif correcting is not None:
        concrete = system.correction_fields(view, todo.side, todo.kind, correcting)
    else:
        concrete = system.form_fields(view, todo.side, todo.kind, dict(todo.initial))
    if concrete is not None:
        return tuple(concrete)
    fields = []
    for f in definition.fields:
        if todo.kind in _RESULT_KINDS and f.name == "data" and system.result_fields:
            f = Field("data", "object", label="Result", fields=tuple(system.result_fields))
        fields.append(f)
    return tuple(fields)


def _sealed_choice(view: Mapping[str, Any], key: object) -> Field | None:
    sealed = view.get("sealed", {}).get(key)
    if sealed and sealed.get("options"):
        return Field(
            "choice",
            "choice",
            label=sealed["label"],
            choices=tuple(sealed["options"]),
            widget="radios",
            labels=tuple((o, str(o).capitalize()) for o in sealed["options"]),
        )
    return None


def build(
    system: GameSystem,
    view: dict[str, Any],
    todo: Action,
    data: QueryDict | None = None,
    *,
    dice_needs: Iterable[dict[str, Any]] = (),
    initial: dict[str, Any] | None = None,
    concrete: bool = True,
) -> ActionBox | None:
    """``concrete=False``: the kind's declared fields (a correction of an earlier event, whose
    values need not be among today's choices), as the system draws them for a correction of
    the data in `initial`."""
    fields = (
        kind_fields(system, view, todo)
        if concrete
        else kind_fields(system, view, todo, correcting=initial or {})
    )
    if fields is None:
        return None
    if todo.kind == "sealed.submitted":
        choice = _sealed_choice(view or {}, todo.initial.get("key"))
        if choice is not None:
            fields = tuple(choice if f.name == "choice" else f for f in fields)
    core = todo.kind in CORE_KINDS
    fixed = dict(todo.initial) if core else {}
    box_key = uuid.uuid4().hex
    form = SchemaForm(
        fields,
        data,
        fixed=fixed,
        dice_needs=dice_needs,
        auto_id=f"id_{stable_id(todo)}_%s",
        initial=initial if initial is not None else (None if core else dict(todo.initial)),
    )
    style = (
        "secondary"
        if todo.kind in ("result.withdrawn", "result.disputed", "proposal.rejected")
        else "primary"
    )
    return ActionBox(todo, form, key=box_key, style=style, button=todo.button)


PICKED, PICKS = "_picked", "picked"  # sent by the form that picks a long form's rows (Action.pick)


def with_pick(todo: Action, query: QueryDict | None) -> tuple[Action, bool]:
    """The to-do with the rows picked on its page first (``Action.pick``) in ``initial["picked"]``
    (a list of row keys), and whether they are still to be picked."""
    if not todo.pick:
        return todo, False
    if query is None or PICKED not in query:
        return todo, True
    return replace(
        todo, initial={**todo.initial, PICKS: [v for v in query.getlist(PICKS) if v]}
    ), False


def elsewhere(todo: Action, listed: str) -> ActionBox:
    """A long form's to-do as the campaign page shows it: a link to its own page."""
    return ActionBox(todo, None, do=listed, elsewhere=True)


def with_choice(todo: Action, query: QueryDict | None) -> tuple[Action, bool]:
    """The to-do with the field it picks first (``Action.choose``) taken from `query` (the page's
    GET or the posted form), and whether it is still to be picked."""
    if not todo.choose:
        return todo, False
    value = query.get(todo.choose) if query is not None else None
    if value in (None, ""):
        return todo, True
    return replace(todo, initial={**todo.initial, todo.choose: value}), False


def match(todos: list[Action], kind: str, side: str | None, posted: QueryDict) -> Action | None:
    """The to-do a posted form belongs to (its fixed values come from the server).

    A page form names its to-do (``_todo``: its stable id), so two to-dos of one kind ("Buy" and
    "Give back a purchase") are never confused. A post without it (an older page, a client) is
    matched by what it posted: the to-do whose every initial value was posted wins over a less
    specific one."""
    listed = posted.get(META_TODO)
    for todo in todos:  # the form says which to-do it was drawn for
        if (
            listed
            and todo.kind == kind
            and (todo.side or None) == (side or None)
            and stable_id(todo) == listed
        ):
            return todo
    best, best_score = None, -1
    for todo in todos:
        if todo.kind != kind or (todo.side or None) != (side or None):
            continue
        agrees = all(_as_posted(posted.get(k)) == _as_posted(v) for k, v in todo.initial.items())
        if kind in CORE_KINDS and not agrees:
            continue
        score = len(todo.initial) + 1 if agrees else 0
        if score > best_score:
            best, best_score = todo, score
    return best


def _as_posted(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def posted_todo(kind: str, side: str | None) -> Action:
    """A submission that matches nothing on the page: still sent to the service,
    which decides (and refuses with a reason)."""
    return replace(Action(kind, "Submit", side or None))
