"""1.6062-1.6064 escape from isolation.

``{"action": "roll", "stacks": [...]}``: each stack of isolated units makes its escape DR
(the player gives what the log cannot know: the leader DRM, distance to a friendly
non-isolated hex, PP carried over IPC, encirclement). Clear results are applied at once;
results that need ASL knowledge (Heat of Battle on an original 2, Replacement, Casualty
Reduction) wait for ``{"action": "resolve", "outcomes": [{"stack", "unit", "becomes"}]}``
where the player enters what each affected unit becomes ("" = eliminated). Units that
escape are no longer isolated. CVP of eliminated units are logged with ap.cvp.
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, Mod, roll_on

from .. import common, words
from ..shapes import APState
from .base import DONE, PENDING, Step
from .helpers import (
    UNIT_KINDS_INFANTRY_MMC,
    UNIT_KINDS_SMC,
    choice_words,
    clear_pending,
    done_list,
    done_marker,
    hidden,
    mods,
    new_unit,
    pending_for,
    set_pending,
    table_mod,
    unit_by_id,
    unit_choices,
)

AFV_KINDS = ("afv", "vehicle")
HS_EQUIVALENT: dict[str | None, int] = {
    "squad": 2,
    "half_squad": 1,
    "crew": 1,
}  # ASL: a squad is two half-squads
NEEDS_PLAYER = ("replaced", "Casualty Reduced")
HEAT_OF_BATTLE = "Escapes"  # the Infantry column's row 1 result, with footnote 1's Heat of Battle


def _nationality(unit: dict, side: str) -> str:
    return unit.get("nationality") or common.nationality_of(side)


def escape_mods(ctx, state: APState, side, units: list[dict], entry: dict) -> list[Mod]:
    afv = units[0].get("kind") in AFV_KINDS
    lone_smc = len(units) == 1 and units[0].get("kind") in UNIT_KINDS_SMC
    hs = sum(HS_EQUIVALENT.get(u.get("kind"), 0) for u in units)
    distance = entry.get("distance") or "farther"
    leader = entry.get("leader_drm") or 0
    return mods(
        Mod("(Armor-) leader/heroic DRM", "1.6063", leader) if leader else None,
        table_mod(ctx, "1.6063", "french")
        if all(_nationality(u, side) == "french" for u in units)
        else None,
        table_mod(ctx, "1.6063", "lone_unwounded_smc")
        if lone_smc and units[0].get("status") != "wounded"
        else None,
        table_mod(ctx, "1.6063", "within_two_hexes")
        if distance in ("adjacent", "within_two")
        else None,
        table_mod(ctx, "1.6063", "adjacent") if distance == "adjacent" else None,
        table_mod(
            ctx,
            "1.6063",
            "per_hs_equivalency",
            times=max(0, hs - 1),
            label=f"Per HS equivalency >1 HS using the same escape DR ({hs} HS)",
        ),
        table_mod(
            ctx,
            "1.6063",
            "per_pp_over_ipc",
            times=entry.get("pp_over_ipc") or 0,
            label=f"Per PP >IPC being carried ({entry.get('pp_over_ipc') or 0})",
        ),
        table_mod(ctx, "1.6063", "previous_am") if common.half_day(state).endswith("A") else None,
        table_mod(ctx, "1.6063", "encircled")
        if entry.get("encircled") or any(u.get("encircled") for u in units)
        else None,
        table_mod(ctx, "1.6063", "captured_afv") if afv and units[0].get("captured") else None,
    )


def _check_stacks(state: APState, side, stacks) -> list[list[dict]]:
    tried = set(done_list(state, side, "1.6063"))
    seen = set()
    checked = []
    for i, entry in enumerate(stacks):
        path = f"stacks[{i}]"
        units = []
        for j, unit_id in enumerate(entry["units"]):
            unit = unit_by_id(state, side, unit_id, f"{path}.units[{j}]")
            if not unit.get("isolated"):
                raise DomainError(f"{path}.units[{j}]", f"{unit_id} is not isolated.")
            if unit_id in seen or unit_id in tried:
                raise DomainError(
                    f"{path}.units[{j}]", f"{unit_id} already attempts or attempted escape."
                )
            seen.add(unit_id)
            units.append(unit)
        if any(u.get("kind") in AFV_KINDS for u in units) and len(units) > 1:
            raise DomainError(f"{path}.units", "An AFV makes its own escape DR.")
        if len(units) == 1 and units[0].get("kind") in UNIT_KINDS_SMC and entry.get("leader_drm"):
            raise DomainError(f"{path}.leader_drm", "The leader DRM is NA to a lone SMC.")
        checked.append(units)
    return checked


def run(ctx, state: APState, side, data):
    if data["action"] == "resolve":
        return _resolve(ctx, state, side, data.get("outcomes") or [])
    stacks = data.get("stacks") or []
    if not stacks:
        raise DomainError("stacks", "List the stacks that attempt escape.")
    checked = _check_stacks(state, side, stacks)
    waiting = list((pending_for(state, side, "1.6063") or {}).get("stacks", []))
    for entry, units in zip(stacks, checked):
        subject = "+".join(u["id"] for u in units)
        afv = units[0].get("kind") in AFV_KINDS
        report = roll_on(
            ctx,
            "1.6063",
            common.roll_key(state, "1.6063", side, subject),
            escape_mods(ctx, state, side, units, entry),
            side=side,
            label=f"Escape ({subject})",
        )
        heat = not afv and report["original"] == 2  # footnote 1 / 1.6064
        # "Original '2' DR always results in escape and Heat of Battle", whatever the final DR.
        result = HEAT_OF_BATTLE if heat else report["result"]["afv" if afv else "infantry"]
        report["effect"] = {
            "units": [u["id"] for u in units],
            "result": result,
            "heat_of_battle": heat,
        }
        done_marker(state, side, "1.6063").extend(u["id"] for u in units)
        _apply(ctx, state, side, units, result, afv)
        if heat or any(part in result for part in NEEDS_PLAYER):
            waiting.append(
                {
                    "stack": subject,
                    "units": [u["id"] for u in units],
                    "result": result,
                    "heat_of_battle": heat,
                    "notes": report["result"]["infantry_notes"],
                }
            )
        common.record_roll(state, side, report, "1.6063")
    if waiting:
        set_pending(state, side, "1.6063", {"stacks": waiting})
        return PENDING
    return DONE if not _untried(state, side) else None


def _untried(state: APState, side) -> list[dict]:
    tried = set(done_list(state, side, "1.6063"))
    return [
        u
        for u in common.private(state, side).get("retained", [])
        if u.get("isolated") and u["id"] not in tried
    ]


def _lone_smc(state: APState, side) -> list[dict]:
    """1.606: "Isolated, lone SMC must attempt escape". An isolated SMC is lone unless an isolated MMC
    of its side is in the same pocket (an SMC alone creates no pocket, 1.6056, so one without a pocket
    is lone)."""
    untried = _untried(state, side)
    mmc_pockets = {
        u.get("pocket")
        for u in common.private(state, side).get("retained", [])
        if u.get("isolated") and u.get("kind") in UNIT_KINDS_INFANTRY_MMC and u.get("pocket")
    }
    return [
        u
        for u in untried
        if u.get("kind") in UNIT_KINDS_SMC
        and (not u.get("pocket") or u.get("pocket") not in mmc_pockets)
    ]


def _eliminated(ctx, state: APState, side, units, reason):
    """Units lost in escape leave the roster before 1.6067: their CVP count for the half-day when
    the club's CVP list covers them (R-L2), as nobody can list them later."""
    from .. import aftermath

    aftermath.eliminate_by_rule(state, side, units, "1.6063", reason, ctx)


def _apply(ctx, state: APState, side, units, result, afv):
    if result.startswith("Eliminated"):
        _eliminated(ctx, state, side, units, f"escape: {result} (1.6063)")
        return
    if afv and result.startswith("Abandoned"):
        units[0]["status"] = "abandoned"  # left in its pocket
        if "crew escapes" in result:
            new_unit(
                state,
                side,
                kind="crew",
                type="crew",
                nationality=units[0].get("nationality"),
                note=f"crew of {units[0]['id']}, escaped (1.6063)",
            )
        return
    for unit in units:
        unit.update(
            isolated=False, pocket=None, encircled=False
        )  # escapes: retained with its SW (1.6064)


def _resolve(ctx, state: APState, side, outcomes):
    pend = pending_for(state, side, "1.6063")
    if pend is None:
        raise DomainError("action", "No escape result waits for a resolution.")
    by_stack = {s["stack"]: s for s in pend["stacks"]}
    plan, covered = [], set()
    for i, entry in enumerate(outcomes):
        stack = by_stack.get(entry["stack"])
        if stack is None:
            raise DomainError(
                f"outcomes[{i}].stack", f"No escape result of {entry['stack']} waits."
            )
        if entry["unit"] not in stack["units"] or (entry["stack"], entry["unit"]) in covered:
            raise DomainError(
                f"outcomes[{i}].unit", f"{entry['unit']} is not an open unit of {entry['stack']}."
            )
        covered.add((entry["stack"], entry["unit"]))
        if entry.get("hero") and not stack["heat_of_battle"]:
            raise DomainError(
                f"outcomes[{i}].hero", "Only Heat of Battle creates a hero here (1.6064, A15)."
            )
        if entry.get("hero") and entry["becomes"].strip():
            raise DomainError(
                f"outcomes[{i}].hero",
                "Heat of Battle gives one result: a hero or battle hardening.",
            )
        plan.append(
            (
                unit_by_id(state, side, entry["unit"], f"outcomes[{i}].unit"),
                entry["becomes"].strip(),
                stack,
                bool(entry.get("hero")),
            )
        )
    missing = [s["stack"] for s in pend["stacks"] if not any(k[0] == s["stack"] for k in covered)]
    if missing:
        raise DomainError(
            "outcomes", f"Enter what happens to the affected unit(s) of {', '.join(missing)}."
        )
    for unit, becomes, stack, hero in plan:
        if hero:
            new_unit(
                state,
                side,
                kind="hero",
                type="hero",
                nationality=unit.get("nationality"),
                note=f"created by Heat of Battle in escape with {unit['id']} (1.6064, A15)",
            )
        if becomes:
            unit["note"] = f"{unit['type']} → {becomes} after escape: {stack['result']} (1.6063)"
            unit["type"] = becomes
        elif hero:
            unit["note"] = "escaped: Heat of Battle created a hero (1.6063)"
        else:
            _eliminated(ctx, state, side, [unit], f"escape: {stack['result']} (1.6063)")
    clear_pending(state, side, "1.6063")
    return DONE if not _untried(state, side) else None


def applies(state: APState, side):
    """Only a side with isolated units has anything to escape (skipped shows as done to the other side)."""
    return any(u.get("isolated") for u in common.private(state, side).get("retained", []))


LONE_SMC_SINCE = 2  # A!P! v2 (a787fca, R-B25): v1 let a side finish escape without its lone SMC


def finish(ctx, state: APState, side):
    if pending_for(state, side, "1.6063") is not None:
        raise DomainError("step", "An escape result still waits for what happens to its units.")
    lone = _lone_smc(state, side) if common.since(state, LONE_SMC_SINCE) else []
    if lone:
        names = ", ".join(words.unit_label(u, words.names_for(state, side)) for u in lone)
        raise DomainError("step", f"Isolated, lone SMC must attempt escape (1.606): {names}.")


# --- the page ------------------------------------------------------------------------------


def form(ctx, view: APState, side):
    pend = pending_for(view, side, "1.6063")
    if pend is not None:
        return _outcomes_form(view, side, pend)
    return _stacks_form(view, side)


def _outcomes_form(view: APState, side, pend: dict) -> tuple:
    """After the roll: per stack, the unit Random Selection picked and what it becomes."""
    names = words.names_for(view, side)
    rows = []
    for stack in pend["stacks"]:
        units = [
            unit_by_id(view, side, uid, "stack") for uid in stack["units"] if _has(view, side, uid)
        ]
        what = stack["result"] + (
            " — Heat of Battle (A15): anything but hero creation or battle hardening "
            "eliminates the unit (1.6064)"
            if stack["heat_of_battle"]
            else ""
        )
        rows.append(
            {
                "stack": stack["stack"],
                "unit": units[0]["id"] if len(units) == 1 else None,
                "_label": f"Stack of {words.join_words(names.unit(u) for u in units)}: {what}",
            }
        )
    everyone = [
        u
        for stack in pend["stacks"]
        for uid in stack["units"]
        if _has(view, side, uid)
        for u in [unit_by_id(view, side, uid, "stack")]
    ]
    return (
        hidden("action", "resolve"),
        Field(
            "outcomes",
            "list",
            label="What the affected units become",
            key="stack",
            rows=tuple(rows),
            item=Field(
                "outcome",
                "object",
                fields=(
                    Field("stack"),
                    Field(
                        "unit",
                        "choice",
                        label="Affected unit (Random Selection)",
                        **unit_choices(everyone, view, side),
                    ),
                    Field(
                        "becomes",
                        required=False,
                        default="",
                        max_length=20,
                        label="Becomes",
                        help="Its new type (ASL replacement, Casualty Reduction, A15); empty if eliminated.",
                    ),
                    Field(
                        "hero",
                        "bool",
                        required=False,
                        default=False,
                        label="Heat of Battle created a hero (A15)",
                        help="The unit stays (as it is, or as it becomes) and a hero joins it.",
                    ),
                ),
            ),
            help="Per stack, the unit Random Selection picked at the table and what it becomes.",
        ),
    )


def _stacks_form(view: APState, side) -> tuple:
    """Before the roll: the isolated units not yet tried, one stack each to start with."""
    untried = _untried(view, side)
    rows = tuple({"units": [u["id"]], "_label": f"Stack {i + 1}"} for i, u in enumerate(untried))
    return (
        hidden("action", "roll"),
        Field(
            "stacks",
            "list",
            label="Stacks attempting escape",
            rows=rows,
            max=len(untried),
            item=Field("stack", "object", fields=_stack_fields(view, side, untried)),
            help="One stack per unit to start with: move units together to roll one DR for them; untick a "
            "unit that stays in its pocket (a lone SMC must attempt escape). Encircled units get +2 "
            "from your end-of-scenario record.",
        ),
    )


def _stack_fields(view: APState, side, untried: list) -> tuple:
    return (
        Field(
            "units",
            "list",
            label="Units",
            item=Field("unit", "choice", **unit_choices(untried, view, side)),
        ),
        Field(
            "leader_drm",
            "int",
            required=False,
            default=0,
            min=-5,
            max=5,
            label="(Armor-) leader/heroic DRM",
            help="Not for a lone SMC.",
        ),
        Field(
            "distance",
            "choice",
            required=False,
            default="farther",
            label="Nearest friendly non-isolated hex",
            choices=("adjacent", "within_two", "farther"),
            labels=choice_words(("adjacent", "within_two", "farther"), words.DISTANCE_WORDS),
        ),
        Field(
            "pp_over_ipc",
            "int",
            required=False,
            default=0,
            min=0,
            max=20,
            label="PP carried over IPC",
        ),
    )


def _has(state: APState, side, unit_id) -> bool:
    return any(u["id"] == unit_id for u in common.private(state, side).get("retained", []))


STACK = Field(
    "stack",
    "object",
    fields=(
        Field("units", "list", min=1, item=Field("unit"), label="Units (ids)"),
        Field(
            "leader_drm",
            "int",
            required=False,
            default=0,
            min=-5,
            max=5,
            label="Leader DRM",
            help="(Armor-) leader/heroic DRM (NA to a lone SMC).",
        ),
        Field(
            "distance",
            "choice",
            required=False,
            default="farther",
            choices=("adjacent", "within_two", "farther"),
            labels=tuple(words.DISTANCE_WORDS.items()),
            label="Distance",
            help="To the nearest friendly controlled, non-isolated hex.",
        ),
        Field("pp_over_ipc", "int", required=False, default=0, min=0, max=20, label="PP over IPC"),
        Field("encircled", "bool", required=False, default=False, label="Encircled"),
    ),
)

STEPS = [
    Step(
        "1.6063",
        "Escape from isolation",
        "1.6062",
        run=run,
        applies=applies,
        repeatable=True,
        extra={"finish": finish},
        form=form,
        short="Escape from isolation",
        fields=(
            Field(
                "action",
                "choice",
                choices=("roll", "resolve"),
                label="Action",
                labels=(("roll", "roll for escape"), ("resolve", "say what the units become")),
            ),
            Field("stacks", "list", required=False, default=[], item=STACK, label="Stacks"),
            Field(
                "outcomes",
                "list",
                required=False,
                default=[],
                label="Outcomes",
                item=Field(
                    "outcome",
                    "object",
                    fields=(
                        Field("stack", label="Stack"),
                        Field("unit", label="Unit"),
                        Field("becomes", required=False, default="", label="Becomes"),
                        Field(
                            "hero",
                            "bool",
                            required=False,
                            default=False,
                            label="A hero was created",
                        ),
                    ),
                ),
                help="What each affected unit becomes (ASL Replacement, Casualty Reduction, Heat of Battle); "
                "empty = eliminated.",
            ),
        ),
        help="Each stack of isolated units makes an escape DR; lone isolated SMC must attempt escape.",
    ),
]
