"""What the campaign page asks an Achtung! Panzer! side for: the to-dos of the moment and each
form's fields made concrete from the side's own records (GameSystem.form_fields): units by
id and words, RGs with their cost and limits, objective hexes from 1.2. Nothing here decides
a rule; the fold checks every submission again."""

from __future__ import annotations

import re
from dataclasses import replace

from campaigns.game_interface import Action, Ctx, Field

from .. import (
    aftermath,
    halfday,
    refit_losses,
    refit_progress,
    refit_steps,
    retained,
    words,
)
from ..common import SIDES, private, public
from ..steps import fortifications, purchases
from ..steps.base import kind_name
from ..steps.helpers import choice_words, hidden, unit_choices

NAMES = {"allied": "Allied", "german": "German"}


def reading_ctx(system, view: dict) -> Ctx:
    return Ctx.reading(system, view)


# --- to-dos ------------------------------------------------------------------------------------


def actions(system, state: dict, side: str) -> list[Action]:
    pub = public(state)
    found: list[Action] = []
    ctx = reading_ctx(system, state)
    units = private(state, side)["retained"]
    if pub["phase"] == "play" and aftermath.recorded(state, side) is None:
        found.append(
            Action(
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
        )
    if pub["phase"] == "refit":
        found += _refit_actions(state, side)
    found.append(
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
        )
    )
    found.append(
        Action(
            "ap.retained",
            "Correct your retained units: add units",
            side,
            "1.607",
            "Units your side retains that are not on its list (a captured weapon, a unit left out).",
            {"action": "add"},
            optional=True,
            button="Add",
        )
    )
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


_CVP_KINDS = ("ap.aftermath", "ap.losses", "ap.cvp")
_YOUR = re.compile(r"\b([Yy])our\b")


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


def _refit_actions(state: dict, side: str) -> list[Action]:
    step = refit_progress.current(state, side)
    if step is None:
        return []
    if step.scope == "joint":
        if not refit_progress.reached_by_all(state, step):
            return []
        span = refit_progress.joint_span(state)
        names = "; ".join(f"{s.rule} {s.label}" for s in span)
        joint = Action(
            "ap.joint",
            "Done at the table: " + _span_words(span),
            side,
            span[0].rule,
            f"Both sides have done these on the map: {names}. Either player confirms them for both.",
            {"through": span[-1].id},
            button="Done at the table",
            joint=True,
        )
        nxt = refit_progress.own_after_table(state, side)
        if nxt is None or nxt.id not in _FOLDED_AFTER_TABLE:
            return [joint]
        # The map steps up to this side's own next step are confirmed with it (issue 21, item 5):
        # its escape (1.6063) after 1.601-1.606, its losses after 1.6064-1.6066; one submission.
        before_it = [s for s in span if refit_progress.before(s, nxt)]
        if not before_it or not refit_progress.confirmable(state, before_it[-1]):
            return [joint]
        names = "; ".join(f"{s.rule} {s.label}" for s in before_it)
        folded = Action(
            kind_name(nxt),
            nxt.label,
            side,
            nxt.rule,
            f"Sending it also confirms, for both sides, what was done on the map: {names}. "
            f"{nxt.help}",
            button=_button(nxt),
            before=(("ap.joint", {"through": before_it[-1].id}),),
        )
        # The confirmation on its own stays, after it: for control the Refit Phase changed
        # (1.6066), and for the referee, who confirms the map steps once for both sides.
        return [
            folded,
            replace(
                joint,
                help=f"{joint.help} On its own only to give the final control, if the "
                f"Refit Phase changed it; otherwise sending {nxt.short or nxt.label} confirms them.",
            ),
        ]
    if refit_progress.waiting(state, side):
        return []
    steps = refit_progress.runnable(state, side, checklists=True)
    before = ()
    if steps:
        nxt = refit_progress.decision_after(state, side, steps)
        rolls = any(not s.checklist for s in steps)
        if nxt is None or nxt.id not in _FOLDED or (rolls and not _server_dice(state)):
            # With dice entered from the table, only a "Continue" that rolls nothing is folded:
            # its dice would be asked on a form that is not the one shown.
            return [_continue_action(steps, side)]
        # "Continue" folded into the decision after it (issue 21, item 5): its form does not depend
        # on what the steps before it do, so both are sent in one submission.
        before, step = (("ap.continue", {"checklists": True}),), nxt
    asked = private(state, side).get("pending", {}).get(step.id)
    after_roll = bool(asked and asked.get("half_day", pub_half_day(state)) == pub_half_day(state))
    label = f"{step.label}: your choice after the roll" if after_roll else step.label
    help_ = f"{_continue_words(steps)} {step.help}" if before else step.help
    found = [
        Action(
            kind_name(step),
            label,
            side,
            step.rule,
            help_,
            button=_button(step),
            before=before,
            **_and_finish(state, step),
        )
    ]
    if step.id == "1.619":
        found.append(
            Action(
                "ap.check",
                "Done buying",
                side,
                step.rule,
                "Then the strength, weapons and leaders of your RGs are rolled (1.620).",
                {"step": step.id},
                button="Done buying: roll for my RGs",
            )
        )
        if purchases.this_half_day(state, side):
            found.append(
                Action(
                    "ap.purchase",
                    "Give back a purchase of this step",
                    side,
                    step.rule,
                    "Its CPP (and any FPP or SAN it gave) come back.",
                    {"action": "remove"},
                    optional=True,
                    button="Give back",
                )
            )
    elif step.id == "1.621":
        found.append(
            Action(
                "ap.check",
                "Done with fortifications",
                side,
                step.rule,
                "Unspent FPP are forfeit (1.621).",
                {"step": step.id},
                button="Done: forfeit the rest",
            )
        )
        if fortifications.bought_now(state, side):
            found.append(
                Action(
                    "ap.fortify",
                    "Give back a fortification of this step",
                    side,
                    step.rule,
                    "Its FPP come back.",
                    {"action": "remove"},
                    optional=True,
                    button="Give back",
                )
            )
    elif step.id == "1.6063":
        found.append(
            Action(
                "ap.check",
                "Done with escape: the others stay in their pockets",
                side,
                step.rule,
                "Isolated MMC may stay in their pocket (1.606); a lone SMC must attempt escape.",
                {"step": step.id},
                button="Done",
            )
        )
    elif step.id == "1.615":
        pass  # an empty submission finishes it
    return found


# A repeatable step's last event and its end in one submission (issue 21, item 5): the second
# button sends the step's own event, then what finishes the step. With dice entered from the table
# only where nothing rolls after it (_ROLLS_NOTHING_AFTER): the dice the finish rolls (1.620 after
# "Done buying") are asked for on its own form.
_FINISH = {
    "1.619": (("ap.check", {"step": "1.619"}), "Buy and finish buying: roll for my RGs"),
    "1.621": (("ap.check", {"step": "1.621"}), "Buy and finish: forfeit the rest"),
    "1.615": (("ap.1.615", {"items": []}), "Roll and finish"),
    # Weather's EC with the CG13 declaration that follows it, in its usual answer.
    "1.618": (
        ("ap.declare", {"special": "none"}),
        "Record the EC; an ordinary half-day (no Armor or British, CG13)",
    ),
}


# Decisions whose form reads nothing the steps with nothing to decide before them change (1.615
# asks for the side's own fortifications; 1.6131-1.6142 and their checklists touch AFVs and
# weapons): a "Continue" before them is sent with them.
_FOLDED = ("1.6112", "1.6113", "1.6131", "1.6132", "1.615")
# Own steps the joint map steps before them are confirmed with (they read nothing the map steps
# change but units 1.603 may eliminate, which the service then refuses by name).
_FOLDED_AFTER_TABLE = ("1.6063", "1.6066.losses")


def _server_dice(state: dict) -> bool:
    return state["options"].get("dice_mode", "server") == "server"


# Finishes after which the steps that follow on their own roll nothing before the next decision:
# offered with dice entered from the table too (no die to ask for on a form that is not shown).
_ROLLS_NOTHING_AFTER = ("1.621", "1.618")


def _and_finish(state: dict, step) -> dict:
    if step.id not in _FINISH or not (_server_dice(state) or step.id in _ROLLS_NOTHING_AFTER):
        return {}
    then, words = _FINISH[step.id]
    return {"then": (then,), "then_button": words}


def pub_half_day(state: dict) -> str:
    return public(state)["half_day"]


def _continue_words(steps) -> str:
    table = [s for s in steps if s.checklist]
    rolls = [s for s in steps if not s.checklist]
    parts = []
    if table:
        parts.append("done at the table: " + "; ".join(f"{s.label} ({s.rule})" for s in table))
    if rolls:
        parts.append("rolled now: " + "; ".join(f"{s.short or s.label} ({s.rule})" for s in rolls))
    return ". ".join(p[0].upper() + p[1:] for p in parts) + "."


def _continue_action(steps, side) -> Action:
    rolls = [s for s in steps if not s.checklist]
    label = "Continue: " + _span_words(steps)
    return Action(
        "ap.continue",
        label,
        side,
        steps[0].rule,
        "Nothing to decide here. " + _continue_words(steps),
        {"checklists": True},
        button="Roll" if rolls and len(rolls) == len(steps) else "Done, continue",
    )


def _span_words(steps) -> str:
    if len(steps) == 1:
        return f"{steps[0].short or steps[0].label} ({steps[0].rule})"
    return f"{steps[0].rule}–{steps[-1].rule}"


def _button(step) -> str:
    return {
        "1.600": "Record",
        "1.6063": "Roll for escape",
        "1.6112": "Battle harden",
        "1.615": "Roll (or nothing to remove)",
        "1.618": "Record the EC",
        "1.6066.losses": "Record (or none)",
        "1.619.declare": "Declare",
        "1.619": "Buy",
        "1.621": "Buy",
        "1.622": "Done",
    }.get(step.id, "Submit")


# --- forms ---------------------------------------------------------------------------------------


def form_fields(system, view: dict, side: str | None, kind: str, initial: dict) -> tuple | None:
    if view.get("game") is None:
        return None
    ctx = reading_ctx(system, view)
    if kind in ("result.submitted", "result.resolved"):
        index = view["current"] if initial.get("scenario") is None else initial["scenario"]
        return (hidden("scenario", index), *halfday.result_form(ctx, view, index))
    if kind != "ap.joint" and side not in view["game"].get("sides", {}):
        return None  # not a side this viewer may read: the service refuses the post
    if kind == "ap.aftermath":
        return aftermath_form(ctx, view, side, initial.get("picked"))
    if kind == "ap.joint":
        return joint_form(ctx, view, initial)
    if kind == "ap.continue":
        return (hidden("checklists", "true"),)
    if kind == "ap.check":
        return (hidden("step", initial.get("step")),)
    if kind == "ap.cvp":
        return cvp_form(ctx, view, side)
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


def form_data(view: dict, side: str | None, kind: str, data: dict) -> dict:
    if kind in ("result.submitted", "result.resolved") and "objectives" in data:
        index = data.pop("scenario")
        return {"scenario": index, "data": halfday.result_data(view, index, data)}
    if kind == "ap.1.6113" and data.get("action") == "resolve":
        from ..steps.leaders import resolve_data

        return resolve_data(dict(data))
    if kind == "ap.1.6113" and "win_drm" in data:
        from ..steps.leaders import LATER

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
            data, control=_control_data(control) if control and any(control.values()) else None
        )
    return data


def _marked(unit: dict) -> bool:
    """A unit the end of the scenario starts ticked: not in good order, or isolated."""
    return bool(unit.get("status") not in (None, "ok") or unit.get("isolated"))


def pick_groups(view: dict, side: str, kind: str, field: str) -> list[dict]:
    """The side's retained units grouped by RG (in the order bought), for the end of the scenario's
    first screen: the units something happened to are ticked there, the rest keep their state."""
    if (
        kind != "ap.aftermath"
        or field != "units"
        or side not in (view.get("game") or {}).get("sides", {})
    ):
        return []
    mine = private(view, side)
    units, names = mine["retained"], words.Names(mine)
    groups = []
    bought = [p["id"] for p in mine.get("purchases", [])]
    for rg in [*bought, None]:
        rows = [
            {
                "value": u["id"],
                "label": names.unit(u, with_rg=False) + words.flags(u),
                "on": _marked(u),
            }
            for u in units
            if (u.get("rg") if u.get("rg") in bought else None) == rg
        ]
        if rows:
            groups.append({"title": names.rg(rg) if rg else "Other units", "rows": rows})
    return groups


def aftermath_form(ctx, view: dict, side: str, picked: list | None = None) -> tuple:
    """The end of the scenario. `picked`: the units its first screen ticked (pick_groups), the only
    rows asked for; None: a row for every retained unit (a form posted without that screen)."""
    units = private(view, side)["retained"]
    rows = []
    for unit in units:
        if picked is not None and unit["id"] not in picked:
            continue
        rows.append(
            {
                "unit": unit["id"],
                "_on": picked is not None or _marked(unit),
                "status": unit.get("status") or "ok",
                "isolated": bool(unit.get("isolated")),
                "pocket": unit.get("pocket") or "",
                "elite": bool(unit.get("elite")),
            }
        )
    fate_labels = tuple(aftermath.FATE_WORDS.items())
    status_labels = choice_words(retained.STATUSES, words.STATUS_WORDS)
    platoons = sorted(
        {u["platoon"] for u in units if u.get("kind") in aftermath.AFV and u.get("platoon")}
    )
    names = words.names_for(view, side)
    fields = (
        []
        if not rows
        else [
            Field(
                "units",
                "list",
                label="Your units",
                key="unit",
                widget="pick",
                rows=tuple(rows),
                required=False,
                default=[],
                item=Field(
                    "entry",
                    "object",
                    fields=(
                        Field("unit", **unit_choices(units, view, side)),
                        Field(
                            "fate",
                            "choice",
                            choices=aftermath.FATES,
                            labels=fate_labels,
                            label="Fate",
                            default="kept",
                        ),
                        Field(
                            "status",
                            "choice",
                            choices=retained.STATUSES,
                            labels=status_labels,
                            label="State",
                            default="ok",
                            help="Wounded leader, heroic, malfunctioned weapon, immobilized, abandoned, "
                            "shocked/UK or bogged AFV, under recall …",
                        ),
                        Field(
                            "isolated",
                            "bool",
                            required=False,
                            default=False,
                            label="Isolated (1.606)",
                        ),
                        Field(
                            "pocket",
                            required=False,
                            default="",
                            max_length=20,
                            label="Pocket",
                            help="A name for its pocket (A, B …): units of one pocket may stack to escape.",
                        ),
                        Field(
                            "encircled",
                            "bool",
                            required=False,
                            default=False,
                            label="Encircled (1.604)",
                        ),
                        Field(
                            "disrupted",
                            "bool",
                            required=False,
                            default=False,
                            label="Disrupted (French infantry, 1.603)",
                        ),
                        Field(
                            "elite",
                            "bool",
                            required=False,
                            default=False,
                            label="Elite (hardens to fanatic, 1.6112)",
                        ),
                    ),
                ),
                help="Tick each unit something happened to (eliminated, captured, wounded, isolated …); every unit "
                "left unticked is recorded as ok.",
            ),
        ]
    )
    if platoons:
        fields.append(
            Field(
                "platoons_on_map",
                "list",
                label="AFV platoons that had an AFV on the map (1.6142)",
                required=False,
                default=list(platoons),
                item=Field(
                    "platoon",
                    "choice",
                    choices=tuple(platoons),
                    labels=tuple((p, names.rg(p)) for p in platoons),
                ),
                help="Untick a platoon held entirely off the map this half-day.",
            )
        )
    oba = aftermath.oba_in_use(view, side)
    if oba:
        fields.append(
            Field(
                "oba_fired",
                "list",
                label="OBA modules that fired a Fire Mission (CG4)",
                required=False,
                default=[],
                item=Field(
                    "purchase",
                    "choice",
                    choices=tuple(p["id"] for p in oba),
                    labels=tuple((p["id"], names.rg(p["id"])) for p in oba),
                ),
                help="A module that fired none is retained for the next half-day.",
            )
        )
    fields.append(
        Field(
            "added",
            "list",
            label="Units gained in play",
            required=False,
            default=[],
            max=10,
            rows=({}, {}),
            item=Field(
                "entry",
                "object",
                fields=(
                    Field(
                        "kind",
                        "choice",
                        choices=retained.KINDS,
                        label="Kind",
                        labels=choice_words(retained.KINDS, words.KIND_WORDS),
                    ),
                    Field("type", max_length=60, label="Type", help='e.g. "LMG", "8-0", "PzIIIF".'),
                    Field(
                        "captured",
                        "bool",
                        required=False,
                        default=False,
                        label="Captured from the enemy",
                    ),
                    Field(
                        "count", "int", required=False, default=1, min=1, max=20, label="How many"
                    ),
                ),
            ),
            help="Weapons or AFVs captured from the enemy, heroes created in play (A15).",
        )
    )
    fields += aftermath.cvp_fields(ctx, units, 10000)[1]
    fields.append(
        Field("note", required=False, default="", max_length=500, label="Note (your side only)")
    )
    return tuple(fields)


def joint_form(ctx, view: dict, initial: dict) -> tuple:
    fields = [hidden("through", initial.get("through"))]
    current = next(iter(refit_progress.joint_span(view)), None)
    if current is not None and current.id == "1.6066":
        line = public(view)["roster"][view["current"]]
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


def _control_data(control: dict) -> dict:
    return {key: value for key, value in control.items() if value is not None}


def cvp_form(ctx, view: dict, side: str) -> tuple:
    return refit_losses.losses_form(ctx, view, side)


def _unit_fields(view: dict, side: str, unit: dict) -> tuple:
    """What a retained unit is, each field starting from `unit` (its current values, or a new
    unit's defaults): an edit changes only what the person changes."""
    bought = private(view, side)["purchases"]
    names = words.names_for(view, side)
    rgs = [(p["id"], names.rg(p["id"])) for p in bought]
    if unit.get("rg") and unit["rg"] not in {p["id"] for p in bought}:
        rgs.append((unit["rg"], names.rg(unit["rg"])))
    return (
        Field(
            "kind",
            "choice",
            choices=retained.KINDS,
            required=False,
            label="Kind",
            default=unit.get("kind"),
            labels=choice_words(retained.KINDS, words.KIND_WORDS),
        ),
        Field(
            "type",
            required=False,
            max_length=60,
            label="Type",
            default=unit.get("type") or "",
            help='e.g. "467", "8-1", "PzIIIF", "LMG".',
        ),
        Field(
            "nationality",
            "choice",
            choices=retained.NATIONALITIES,
            required=False,
            label="Nationality",
            default=unit.get("nationality"),
            labels=choice_words(retained.NATIONALITIES, words.NATIONALITY_WORDS),
        ),
        Field(
            "rg",
            "choice",
            required=False,
            label="RG",
            choices=tuple(r for r, _ in rgs),
            labels=tuple(rgs),
            default=unit.get("rg"),
        ),
        Field(
            "status",
            "choice",
            choices=retained.STATUSES,
            required=False,
            label="State",
            default=unit.get("status") or "ok",
            labels=choice_words(retained.STATUSES, words.STATUS_WORDS),
        ),
        Field(
            "isolated", "bool", required=False, label="Isolated", default=bool(unit.get("isolated"))
        ),
        Field(
            "captured", "bool", required=False, label="Captured", default=bool(unit.get("captured"))
        ),
        Field(
            "vehicular",
            "bool",
            required=False,
            label="Vehicular-mounted",
            default=bool(unit.get("vehicular")),
        ),
        Field("note", required=False, max_length=300, label="Note", default=unit.get("note") or ""),
    )


_REASON = Field(
    "reason",
    required=False,
    default="",
    max_length=300,
    label="Why",
    help="Battle hardening, casualty reduction, a mistake on the sheet …",
)


def retained_form(ctx, view: dict, side: str, initial: dict) -> tuple:
    """Correct the side's retained units: add units; or, once a unit is picked (the to-do's
    `choose`), change or remove that unit, its form filled with what it is now."""
    units = private(view, side)["retained"]
    if initial.get("action") == "add":
        nationality = "german" if side == "german" else "french"
        fields = _unit_fields(
            view, side, {"kind": None, "nationality": nationality, "status": "ok"}
        )
        return (
            hidden("action", "add"),
            Field("count", "int", required=False, default=1, min=1, max=40, label="How many"),
            *(f.but(required=True) if f.name in ("kind", "type") else f for f in fields),
            _REASON,
        )
    unit = next((u for u in units if u["id"] == initial.get("id")), None)
    if unit is None:  # pick the unit first
        return (Field("id", "choice", label="Unit", **unit_choices(units, view, side)),)
    return (
        hidden("id", unit["id"]),
        Field(
            "action",
            "choice",
            choices=("update", "remove"),
            widget="radios",
            default="update",
            label="What to do",
            labels=(
                ("update", f"Change the {words.unit_words(unit, words.names_for(view, side))}"),
                ("remove", "Remove it from your retained units (eliminated, lost, recombined …)"),
            ),
        ),
        *_unit_fields(view, side, unit),
        _REASON,
    )


def _same(before, after) -> bool:
    if isinstance(after, bool) or isinstance(before, bool):
        return bool(before) == bool(after)
    return (before if before not in (None, "") else None) == (
        after if after not in (None, "") else None
    )


def retained_changes(view: dict, side: str, data: dict) -> dict:
    """A change of one unit as the event records it: only the fields that differ from the unit
    as it is (the form starts from its current values), so what the person left alone is never
    written over; a removal only with its reason."""
    units = private(view, side)["retained"] if side in view["game"].get("sides", {}) else []
    unit = next((u for u in units if u["id"] == data.get("id")), None)
    if unit is None:
        return data
    head = {"action": data["action"], "id": unit["id"], "reason": data.get("reason") or ""}
    if data["action"] == "remove":
        return head
    names = {f.name for f in retained.UNIT_FIELDS}
    return {**head, **{k: v for k, v in data.items() if k in names and not _same(unit.get(k), v)}}
