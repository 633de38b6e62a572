"""A correction of an earlier A!P! event (GameSystem.correction_fields): the kind's declared fields,
each one that names a unit, an RG, a fortification, an escape stack or a Refit Phase step picked by
the name the side gives it instead of typed as its id. The event's data keeps its shape: only the
widgets and the words change (so does what a proposal says it changes, drawn from these fields).

The choices are the side's whole records (retained and eliminated units, every RG bought, every
fortification), not only what today's form would offer, and always include the values the event
holds, so a correction left as drawn proposes the event's own data."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeGuard

from campaigns.game_interface import Field

from .. import aftermath, halfday, refit_steps, words
from ..common import SIDES
from ..shapes import APState
from ..steps.equipment_kinds import AFV_KINDS
from ..steps.fortifications import fortification_labels
from ..steps.helpers import LEADER_KINDS, UNIT_KINDS_INFANTRY_MMC, choice_words
from .todos import NAMES

UNIT, AFV, LEADER, MMC = "unit", "afv", "leader", "mmc"  # any unit, or those of one kind
RG, PLATOON, OBA, FORTIFICATION, STACK = "rg", "platoon", "oba", "fortification", "stack"
SIDE_STEP, JOINT_STEP = "side step", "joint step"
UNIT_KINDS = {AFV: AFV_KINDS, LEADER: LEADER_KINDS, MMC: UNIT_KINDS_INFANTRY_MMC}

# What each correctable kind's fields name: "list.sub" is a sub-field of each row of a list of
# objects, "list" alone a list of ids (ticked), a plain name one id (picked).
NAMED: dict[str, dict[str, str]] = {
    "ap.aftermath": {"units.unit": UNIT, "platoons_on_map": PLATOON, "oba_fired": OBA},
    "ap.cvp": {"units": UNIT},
    "ap.losses": {"units": UNIT},
    "ap.1.6063": {"stacks.units": UNIT, "outcomes.unit": UNIT, "outcomes.stack": STACK},
    "ap.1.6112": {"hardened.unit": MMC},
    "ap.1.6113": {
        "heroic.unit": LEADER,
        "promote": LEADER,
        "leader": LEADER,
        "if_hardened.leader": LEADER,
    },
    "ap.1.6131": {
        "at_table.afv": AFV,
        "remanned.afv": AFV,
        "remanned.by": UNIT,
        "rolls.afv": AFV,
    },
    "ap.1.6132": {"weapons.unit": UNIT},
    "ap.1.6135": {"vehicular.unit": UNIT},
    "ap.1.6142": {"platoons": PLATOON},
    "ap.1.615": {"items.fortification": FORTIFICATION},
    "ap.purchase": {"purchase": RG},
    "ap.fortify": {"fortification": FORTIFICATION},
    "ap.retained": {"id": UNIT, "rg": RG, "platoon": PLATOON},
    "ap.check": {"step": SIDE_STEP},
    "ap.joint": {"step": JOINT_STEP, "through": JOINT_STEP},
}

# Declared labels that say "id" (the API's words), as a correction's page says them.
LABELS = {
    "platoons_on_map": "AFV platoons that had an AFV on the map (1.6142)",
    "oba_fired": "OBA modules that fired (CG4)",
    "stacks.units": "Units",
    "id": "Unit (a change or a removal)",
    "rg": "RG",
    "platoon": "AFV platoon",
}


def correction_fields(
    ctx, system, view: APState, side: str | None, kind: str, data: dict
) -> tuple | None:
    """The fields of a correction of `kind` whose data was `data`, with what they name picked by
    name from `side`'s records in `view` (the viewer's cut: a side never sees the other's)."""
    declared = system.event_kind(kind)
    named = NAMED.get(kind)
    game = view.get("game")
    if declared is None or named is None or game is None:
        return None
    private = game.get("sides", {}).get(side) if side in SIDES else None
    if private is None and any(what not in (SIDE_STEP, JOINT_STEP) for what in named.values()):
        return None  # a side's records this viewer may not read: the declared fields
    choices = _Choices(view, side, dict(private or {}), data)
    fields = []
    for f in declared.fields:
        if f.type == "list" and f.item is not None and f.item.type == "object":
            subs = tuple(
                _picked(sub, named.get(f"{f.name}.{sub.name}"), choices, f"{f.name}.{sub.name}")
                for sub in f.item.fields
            )
            f = f.but(item=f.item.but(fields=subs))
        else:
            f = _picked(f, named.get(f.name), choices, f.name)
            if f.item is not None and f.item.type == "choice" and not f.item.choices:
                continue  # nothing the side holds and nothing the event names: not asked
        fields.append(f)
    if kind == "ap.joint":
        return _joint(ctx, tuple(fields), data.get("control"))
    if kind == "ap.retained":
        return tuple(_retained_words(f) for f in fields)
    return tuple(_in_words(f) for f in fields)


# The declared choices a correction asks with no words of their own (the API's keys).
ACTION_WORDS = {
    "buy": "Bought",
    "remove": "Given back",
    "roll": "The roll",
    "harden": "Who battle hardens",
    "promote": "A leader promoted (1.6114)",
    "resolve": "What the roll made of them",
}
CHOICE_WORDS = {
    "action": ACTION_WORDS,
    "nationality": words.NATIONALITY_WORDS,
    "leader_kind": {"infantry": "Infantry leader", "armor": "Armor leader"},
}


def _in_words(f: Field) -> Field:
    """A declared choice without words of its own, with them."""
    if f.labels or f.name not in CHOICE_WORDS:
        return f
    return f.but(labels=choice_words(f.choices, CHOICE_WORDS[f.name]))


RETAINED_ACTIONS = (
    ("add", "Add units"),
    ("update", "Change a unit"),
    ("remove", "Remove a unit"),
)
RETAINED_WORDS = {
    "kind": words.KIND_WORDS,
    "nationality": words.NATIONALITY_WORDS,
    "status": words.STATUS_WORDS,
}


def _retained_words(f: Field) -> Field:
    """ap.retained's choices in words, and each tick as yes, no or left as it was: a change of a
    unit writes only the values it names, so an empty tick must not say "no"."""
    if f.name == "action":
        return f.but(labels=RETAINED_ACTIONS, label="What was done")
    if f.name in RETAINED_WORDS:
        return f.but(labels=choice_words(f.choices, RETAINED_WORDS[f.name]))
    if f.type == "bool":
        return f.but(
            type="choice",
            choices=(True, False),
            labels=((True, "yes"), (False, "no")),
            help="“—” leaves it as it was.",
        )
    return f


def _picked(f: Field, what: str | None, choices: _Choices, path: str) -> Field:
    """`f` (an id typed in, or a list of them) as a choice among `what` the campaign holds."""
    if what is None:
        return f
    labels = choices.of(what, path)
    label = LABELS.get(path, f.label)
    if f.type == "list" and f.item is not None:
        item = f.item.but(type="choice", choices=tuple(i for i, _ in labels), labels=labels)
        return f.but(item=item, label=label)
    return f.but(type="choice", choices=tuple(i for i, _ in labels), labels=labels, label=label)


class _Choices:
    """(id, words) of everything one side's correction may name, by what it is."""

    def __init__(self, view: APState, side: str | None, private: dict, data: dict):
        self.view, self.side, self.private, self.data = view, side, private, data
        self.names = words.Names(private)
        self.units = [*private.get("retained", []), *private.get("eliminated", [])]
        self.forts = dict(fortification_labels(private.get("fortifications", [])))

    def of(self, what: str, path: str) -> tuple[tuple[str, str], ...]:
        """The candidates, then each value the event holds that is not among them."""
        known = dict(self._candidates(what))
        for value in _values(self.data, path):
            if value not in known and value not in (None, ""):
                known[value] = self._words(what, value)
        return tuple(known.items())

    def _candidates(self, what: str) -> Iterable[tuple[str, str]]:
        purchases = [p["id"] for p in self.private.get("purchases", [])]
        if what in (UNIT, *UNIT_KINDS):
            kinds = UNIT_KINDS.get(what)
            return (
                (u["id"], self.names.label(u))
                for u in self.units
                if kinds is None or u.get("kind") in kinds
            )
        if what == RG:
            return ((p, self.names.rg(p)) for p in purchases)
        if what == PLATOON:
            platoons = {u.get("platoon") for u in self.units if u.get("kind") in AFV_KINDS}
            return ((p, self.names.rg(p)) for p in purchases if p in platoons)
        if what == OBA:
            oba = {p["id"] for p in aftermath.oba_in_use(self.view, self.side or "")}
            return ((p, self.names.rg(p)) for p in purchases if p in oba)
        if what == FORTIFICATION:
            return self.forts.items()
        if what == STACK:
            return ()  # the stacks the event names, below
        return ((s.id, _step_words(s)) for s in _steps(what))

    def _words(self, what: str, value: str) -> str:
        """A value the event holds in words: from the side's records, else what it was."""
        if what == STACK:
            return "Stack of " + words.join_words(
                self.names.unit(self.names.units[i]) if i in self.names.units else "a unit"
                for i in str(value).split("+")
            )
        if what in (SIDE_STEP, JOINT_STEP):
            step = refit_steps.BY_ID.get(value)
            return _step_words(step) if step is not None else "a step no longer in the Refit Phase"
        if what == FORTIFICATION:
            return "a fortification given back"
        if value in self.names.units:
            return self.names.label(self.names.units[value])
        if value in self.names.purchases:
            return self.names.rg(value)
        return (
            "an RG given back" if what in (RG, PLATOON, OBA) else "a unit no longer on the records"
        )


def _step_words(step: Any) -> str:
    """A step by its name and rule number, the number said once."""
    return step.label if step.rule in step.label else f"{step.label} ({step.rule})"


def _steps(what: str) -> Iterator[Any]:
    for step in refit_steps.STEPS:
        if what == JOINT_STEP and step.scope == "joint":
            yield step
        elif what == SIDE_STEP and (
            step.repeatable or (step.checklist and step.scope in ("side", "allied"))
        ):
            yield step


def _values(data: Any, path: str) -> Iterator[Any]:
    """Every value at `path` ("list.sub", "list" or "name") in an event's data."""
    head, _, tail = path.partition(".")
    value = data.get(head) if isinstance(data, dict) else None
    items = value if isinstance(value, list) else [value]
    for item in items:
        if tail:
            yield from _values(item, tail)
        elif isinstance(item, list):
            yield from item
        else:
            yield item


def _plain_control(control: object) -> TypeGuard[dict]:
    """Control as the page sends it: each side's objective hexes as a list, half-boards numbers."""
    return isinstance(control, dict) and all(
        isinstance(value, list if key.endswith("_objectives_end") else int)
        for key, value in control.items()
    )


def _joint(ctx, fields: tuple, control: object) -> tuple:
    """ap.joint's control (an object the API sends; a person never types JSON): absent, not asked;
    as the page sends it, each side's objective hexes ticked and half-boards as numbers."""
    if control is None:
        return tuple(f for f in fields if f.name != "control")
    if _plain_control(control):
        return _with_control(ctx, fields, control)
    return fields


def _with_control(ctx, fields: tuple, control: dict) -> tuple:
    """The fields with `control` asked as what it holds: only the values the event changed."""
    hexes = sorted(halfday.all_objective_hexes(halfday.areas(ctx.table("1.2")), []))
    extra: list[Field] = []
    for side in SIDES:
        key = f"{side}_objectives_end"
        if key in control:
            others = [h for h in control[key] if h not in hexes]  # not in 1.2: kept as given
            extra.append(
                Field(
                    f"control.{key}",
                    "list",
                    required=False,
                    default=list(control[key]),
                    group="Control after the Refit Phase map steps",
                    label=f"{NAMES[side]} objective hexes",
                    item=Field("hex", "choice", choices=(*hexes, *others)),
                )
            )
        key = f"{side}_half_boards"
        if key in control:
            extra.append(
                Field(
                    f"control.{key}",
                    "int",
                    required=False,
                    default=control[key],
                    min=0,
                    max=20,
                    group="Control after the Refit Phase map steps",
                    label=f"{NAMES[side]} half-boards",
                )
            )
    return (*(f for f in fields if f.name != "control"), *extra)
